// The live search: an edit is searchable on the first search after the shelf that publishes it, and a scope
// narrowed by a rebuild holds at once — a skill that left the scope is never matched again.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, test } from "vitest";
import { ContentCache, ShelfReader } from "../../src/live/index.js";
import { ShelfHolder } from "../../src/live/holder.js";
import { ShelfSearch } from "../../src/live/search.js";
import { FULL_SCOPE_ON, scopeOn, type ScopeOn } from "../../src/resolve/index.js";
import type { SearchRequest } from "../../src/search/index.js";
import type { Shelf } from "../../src/shelf/index.js";
import { buildShelfOf, KEYWORD_CEILING_CONFIG, writeUnder } from "./helpers.js";

const base = mkdtempSync(path.join(tmpdir(), "skillshelf-live-search-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const write = (rel: string, text: string): void => writeUnder(base, rel, text);

write("pk/.claude-plugin/plugin.json", JSON.stringify({ keywords: ["kw-pub"] }));
write("pk/skills/k-one/SKILL.md", "---\nname: k-one\ndescription: Public notes.\n---\nHow to water the ferns.\n");
write("pz/skills/z-one/SKILL.md", "---\nname: z-one\ndescription: Zebra care.\n---\nStripes.\n");

const build = (generation: number): Promise<Shelf> => buildShelfOf(KEYWORD_CEILING_CONFIG, base, generation);

const ask = (query: string): SearchRequest => ({ query, library: null, limit: 10 });
const K = "skill://shelf/k-one/SKILL.md";

test("an edited body is searchable after the swap; a skill that left the scope is never matched", async () => {
  const holder = new ShelfHolder(await build(1));
  const reader = new ShelfReader(holder, new ContentCache());
  const clientK = scopeOn({ tags: ["kw-pub"] }, {});
  const names = async (query: string, on: ScopeOn = FULL_SCOPE_ON) => {
    const outcome = await reader.search(ask(query), on);
    return outcome.ok ? outcome.rows.map((row) => row.uri) : outcome.message;
  };
  expect(await names("ferns")).toEqual([K]);
  expect(await names("ferns", clientK)).toEqual([K]);
  expect(await names("glacier")).toEqual([]);

  write("pk/skills/k-one/SKILL.md", "---\nname: k-one\ndescription: Public notes.\n---\nHow to cross a glacier.\n");
  write("pk/.claude-plugin/plugin.json", JSON.stringify({ keywords: [] }));
  holder.swap(await build(2));

  expect(await names("glacier")).toEqual([K]);
  expect(await names("ferns")).toEqual([]);
  expect(await names("glacier", clientK)).toEqual([]);
  expect(await names("public notes", clientK)).toEqual([]);
  expect(await names("zebra", clientK)).toEqual(["skill://shelf/z-one/SKILL.md"]);
});

test("spellings of one scope share one index, and building an index never holds up a search on another", async () => {
  write("pk/.claude-plugin/plugin.json", JSON.stringify({ keywords: ["kw-pub", "kw-only"] }));
  write("pk/skills/k-one/SKILL.md", "---\nname: k-one\ndescription: Public notes.\n---\nHow to water the ferns.\n");
  const holder = new ShelfHolder(await build(3));
  const uris = async (search: ShelfSearch, query: string, on: ScopeOn): Promise<string[] | string> => {
    const outcome = await search.search(ask(query), on);
    return outcome.ok ? outcome.rows.map((row) => row.uri) : outcome.message;
  };
  const search = new ShelfSearch(holder);
  expect(await uris(search, "zebra", FULL_SCOPE_ON)).toEqual(["skill://shelf/z-one/SKILL.md"]);
  expect(search.size).toBe(1);
  // 300 spellings of one narrowing (tags=kw-only, tags=kw-only,kw-only, the item repeated, a ceiling saying the
  // same): one more index, not 300, nor the cap of 16.
  const spellings: ScopeOn[] = [
    scopeOn({ tags: ["kw-only"] }, {}),
    ...Array.from({ length: 300 }, (_, i) =>
      scopeOn(null, { tags: Array.from({ length: 1 + (i % 7) }, () => `kw-only${",kw-only".repeat(i)}`) }),
    ),
  ];
  for (const on of spellings) expect(await uris(search, "ferns", on)).toEqual([K]);
  expect(await uris(search, "zebra", spellings[7] as ScopeOn)).toEqual([]);
  expect(search.size).toBe(2);

  // One caller's search needs an index built (bodies read from disk); another's, on a built index, answers first.
  const other = new ShelfSearch(holder);
  const narrow = spellings[0] as ScopeOn;
  expect(await uris(other, "ferns", narrow)).toEqual([K]);
  const finished: string[] = [];
  await Promise.all([
    other.search(ask("zebra"), FULL_SCOPE_ON).then(() => finished.push("building")),
    other.search(ask("ferns"), narrow).then(() => finished.push("built")),
  ]);
  expect(finished).toEqual(["built", "building"]);
  expect(other.size).toBe(2);
});
