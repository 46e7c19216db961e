// A ceiling narrowed by a rebuild must hold at once: a read that waits for the rescan lands on the new shelf under
// the scope compiled against that shelf, never under the one compiled against the shelf it started on.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { ContentCache, ShelfReader } from "../../src/live/index.js";
import { ShelfHolder } from "../../src/live/holder.js";
import { listingRows, scopeOn, visibleSkills } from "../../src/resolve/index.js";
import type { Shelf } from "../../src/shelf/index.js";
import { buildShelfOf, KEYWORD_CEILING_CONFIG, writeUnder } from "./helpers.js";

const base = mkdtempSync(path.join(tmpdir(), "skillshelf-scope-per-shelf-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const write = (rel: string, text: string): void => writeUnder(base, rel, text);

const URI = "skill://shelf/k-one/SKILL.md";
const SECRET = "---\nname: k-one\ndescription: Now confidential.\n---\nThe confidential text.\n";

write("pk/.claude-plugin/plugin.json", JSON.stringify({ keywords: ["kw-pub"] }));
write("pk/skills/k-one/SKILL.md", "---\nname: k-one\ndescription: Public.\n---\nPublic text.\n");
write("pz/skills/z-one/SKILL.md", "---\nname: z-one\ndescription: Z.\n---\nZ.\n");

const build = (generation: number): Promise<Shelf> => buildShelfOf(KEYWORD_CEILING_CONFIG, base, generation);

describe("a client whose ceiling a rebuild narrows", () => {
  test("a read waiting for the rescan is answered under the new shelf's scope, and no memo keeps the old one", async () => {
    const clientK = scopeOn({ tags: ["kw-pub"] }, {});
    const before = await build(1);
    expect(visibleSkills(before, clientK(before)).map((skill) => skill.name)).toEqual(["k-one", "z-one"]);

    const holder = new ShelfHolder(before);
    const reader = new ShelfReader(holder, new ContentCache());
    // The skill became confidential and its plugin left the tag: the watcher has seen it, the rescan runs.
    write("pk/skills/k-one/SKILL.md", SECRET);
    write("pk/.claude-plugin/plugin.json", JSON.stringify({ keywords: [] }));
    const upTo = holder.sawChange();
    const reading = reader.read(URI, clientK);
    const after = await build(2);
    holder.swap(after);
    holder.absorbedChanges(upTo);

    const outcome = await reading;
    expect(outcome).toEqual({
      ok: false,
      uri: URI,
      message: expect.stringMatching(/^Not found: skill:\/\/shelf\/k-one\/SKILL\.md\./),
    });
    // Nothing of the read stays behind: k sees z-one only on the new shelf, in every listing.
    expect(visibleSkills(after, clientK(after)).map((skill) => skill.name)).toEqual(["z-one"]);
    expect(listingRows(after, clientK(after), true).map((row) => row.uri)).not.toContain(URI);
  });
});
