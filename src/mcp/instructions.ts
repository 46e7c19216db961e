// §6: the server instructions teach the grammar in a few lines and end with the caller's listing rows, so a
// model whose client defers resource descriptions still sees where to start.
import type { ListingRow } from "../resolve/index.js";
import { memoize } from "../memo/index.js";

const MAX_ROWS = 12;

/** Listing rows are memoised per (shelf, scope), so the instructions are too: HTTP builds a server per request. */
export const formatInstructions: (rows: readonly ListingRow[]) => string = memoize(buildInstructions);

function buildInstructions(rows: readonly ListingRow[]): string {
  const shown = rows.slice(0, MAX_ROWS).map((row) => `- ${row.uri}: ${row.description}`);
  const more = rows.length > MAX_ROWS ? [`- … and ${rows.length - MAX_ROWS} more in the resource listing`] : [];
  return [
    "This server serves Agent Skills as skill:// resources (or, without resource support, through the read_resource tool).",
    "1. List resources to find the indexes; read an _index.md to see the folders and skills it holds.",
    "2. Read a skill's SKILL.md for its instructions: skill://<library>/<folder>/<name>/SKILL.md.",
    "3. Read the skill's _manifest for the other files it ships, and skill://<library>/_files.md for shared files skills cite.",
    "To find a skill by what it does, call the search_skills tool with a few words; read the SKILL.md uri it ranks first.",
    "Directories serve nothing: read the _index.md, SKILL.md or _manifest a not-found hint names. Fetch a file only when about to use it.",
    "",
    rows.length === 0 ? "Nothing is visible to this connection." : "Start here:",
    ...shown,
    ...more,
  ].join("\n");
}
