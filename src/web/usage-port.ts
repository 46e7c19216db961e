// What the page is given to read usage with (WebDeps.usage): the layer that mounts the page reads the usage store
// for it, through the viewer's scope. Types only, so the page never imports the store.
import type { ScopeOn } from "../resolve/index.js";
import type { UsageTableName } from "./views/usage.js";

export type UsageRow = Readonly<Record<string, string | number>>;

/** Rows, or why they cannot be had: `403` (a table the viewer's scope may not see), `503` (the store is away). */
export type UsageAnswer =
  { readonly ok: true; readonly rows: readonly UsageRow[] } | { readonly ok: false; readonly status: 403 | 503; readonly message: string };

/** The usage store as the page reads it: one table, over the last `days` days, for a viewer's scope. */
export interface UsageReader {
  read(
    table: UsageTableName,
    page: { readonly days: number; readonly limit: number; readonly offset: number },
    on: ScopeOn,
  ): Promise<UsageAnswer>;
}
