// The tables of usage an admin reads, for GET /usage (JSON, CSV) and for the page's usage view alike, each scoped to
// what the reader may see: a reader whose scope sees the whole shelf gets every row kept (skills since removed
// included); any other reader only the rows of the skills and prompts their scope sees on the shelf now, and no
// search tables (a query names no skill, so it cannot be scoped).
import { formatSkillUri } from "../address/index.js";
import { visiblePrompts, visibleSkills, FULL_SCOPE, type Scope } from "../resolve/index.js";
import type { Shelf } from "../shelf/index.js";
import {
  mostRead,
  promptsFetched,
  readSkills,
  readsByClient,
  unfollowedSearches,
  zeroResultSearches,
  type UsageStore,
  type Window,
} from "../store/index.js";

export const TABLES = ["mostRead", "neverRead", "byClient", "zeroResultSearches", "unfollowedSearches", "prompts"] as const;
export type Table = (typeof TABLES)[number];
/** Tables of searches: shown only to a reader who sees the whole shelf. */
export const SEARCH_TABLES: ReadonlySet<Table> = new Set(["zeroResultSearches", "unfollowedSearches"]);
export const SEARCHES_NEED_SHELF = "searches are shown only to an admin whose scope sees the whole shelf: a query names no skill";

/** A table the reader's scope may not see. */
export class TableRefusedError extends Error {}

/** Each table's columns, in order: the CSV header, written even when the table is empty. */
export const COLUMNS: Readonly<Record<Table, readonly string[]>> = {
  mostRead: ["library", "skill", "reads", "skillMdReads", "clients"],
  neverRead: ["library", "skill", "uri"],
  byClient: ["client", "surface", "reads", "skills"],
  zeroResultSearches: ["query", "searches", "zeroResults", "clients"],
  unfollowedSearches: ["query", "searches", "unfollowed", "clients"],
  prompts: ["library", "prompt", "fetches", "clients"],
};

export type UsageRow = Readonly<Record<string, string | number>>;

/** What a reader may see of the tables: everything (`whole`), or only these skills and prompts. */
export interface Seen {
  readonly whole: boolean;
  readonly skills: readonly string[];
  readonly prompts: readonly string[];
}

/** What `scope` sees of `shelf`: whole when it sees every skill and every prompt. */
export function seenBy(shelf: Shelf, scope: Scope): Seen {
  const skills = visibleSkills(shelf, scope);
  const prompts = visiblePrompts(shelf, scope);
  const whole = skills.length === visibleSkills(shelf, FULL_SCOPE).length && prompts.length === visiblePrompts(shelf, FULL_SCOPE).length;
  return {
    whole,
    skills: skills.map((skill) => `${skill.library}/${skill.address.join("/")}`),
    prompts: prompts.map((prompt) => prompt.name),
  };
}

/** One table for a reader who sees `seen` (the store must be up: `reader()` throws StoreUnavailableError). A
 *  search table for a reader who does not see the whole shelf is refused (TableRefusedError). */
export async function usageTable(store: UsageStore, shelf: Shelf, scope: Scope, name: Table, window: Window): Promise<UsageRow[]> {
  const seen = seenBy(shelf, scope);
  if (SEARCH_TABLES.has(name) && !seen.whole) throw new TableRefusedError(SEARCHES_NEED_SHELF);
  const db = await store.reader();
  const scoped: Window = seen.whole ? window : { ...window, visible: { skills: seen.skills, prompts: seen.prompts } };
  const rows = async (): Promise<readonly object[]> => {
    switch (name) {
      case "mostRead":
        return mostRead(db, scoped);
      case "byClient":
        return readsByClient(db, scoped);
      case "zeroResultSearches":
        return zeroResultSearches(db, scoped);
      case "unfollowedSearches":
        return unfollowedSearches(db, scoped);
      case "prompts":
        return promptsFetched(db, scoped);
      case "neverRead": {
        // Skills the reader sees on the shelf now that no row of the retention names: never read since counting began.
        const read = await readSkills(db, { days: 100_000, now: window.now });
        return visibleSkills(shelf, scope)
          .filter((skill) => window.library === undefined || skill.library === window.library)
          .filter((skill) => !read.has(`${skill.library}/${skill.address.join("/")}`))
          .slice(window.offset, window.offset + window.limit)
          .map((skill) => ({
            library: skill.library,
            skill: skill.address.join("/"),
            uri: formatSkillUri(skill.library, [...skill.address, "SKILL.md"]),
          }));
      }
    }
  };
  return (await rows()) as UsageRow[];
}

/** RFC 4180: a header line, then one line per row; a field with a comma, quote or line break is quoted. */
export function formatCsv(columns: readonly string[], rows: readonly UsageRow[]): string {
  const field = (value: unknown): string => {
    const text = String(value);
    return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  const lines = [columns.join(","), ...rows.map((row) => columns.map((column) => field(row[column])).join(","))];
  return `${lines.join("\r\n")}\r\n`;
}
