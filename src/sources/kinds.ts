// The registry of fetched source kinds: each kind's rules go into the config's registry (its URL schemes and
// address grammar, config/source-kinds.ts) and its fetcher is found here by the kind's name. A new kind is one file
// that exports a `SourceKind` and one `registerSourceKind` line below.
import { SOURCE_KINDS, type SourceConfig } from "../config/index.js";
import type { Fetcher, FetcherContext, SourceKind } from "./fetcher.js";
import { GIT_KIND } from "./git-fetcher.js";
import { WEBDAV_KIND } from "./webdav-fetcher.js";

const fetched = new Map<string, SourceKind>();

/** Add a kind of fetched source; answers the function that removes it again. A kind whose rules the config knows
 *  already (git, WebDAV) must bring those same rules. */
export function registerSourceKind(kind: SourceKind): () => void {
  const name = kind.rules.kind;
  if (fetched.has(name)) throw new Error(`source kind '${name}' is registered twice`);
  const known = SOURCE_KINDS.get(name);
  if (known !== undefined && known !== kind.rules) throw new Error(`source kind '${name}' brings rules other than the config's`);
  const unregisterRules = known === undefined ? SOURCE_KINDS.register(kind.rules) : () => undefined;
  fetched.set(name, kind);
  return () => {
    if (fetched.get(name) !== kind) return;
    fetched.delete(name);
    unregisterRules();
  };
}

/** The fetched kind named `name` (a `SourceConfig.kind`), or undefined for local folders and file sources. */
export function fetchedKind(name: string): SourceKind | undefined {
  return fetched.get(name);
}

/** The fetcher of every fetched kind one of `sources` is of, by kind, each opened over `context` with its kind's
 *  timeout from `timeoutsMs`. When one cannot open, those opened already are closed again. */
export async function openFetchers(
  sources: readonly SourceConfig[],
  context: Omit<FetcherContext, "timeoutMs">,
  timeoutsMs: Readonly<Record<string, number | undefined>> = {},
): Promise<Map<string, Fetcher>> {
  const fetchers = new Map<string, Fetcher>();
  try {
    for (const source of sources) {
      const kind = fetched.get(source.kind);
      if (kind === undefined || fetchers.has(source.kind)) continue;
      const timeoutMs = timeoutsMs[source.kind];
      fetchers.set(source.kind, await kind.open(timeoutMs === undefined ? context : { ...context, timeoutMs }));
    }
  } catch (error) {
    for (const fetcher of fetchers.values()) await fetcher.close();
    throw error;
  }
  return fetchers;
}

registerSourceKind(GIT_KIND);
registerSourceKind(WEBDAV_KIND);
