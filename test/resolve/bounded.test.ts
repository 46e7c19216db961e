// Generated documents never pass MAX_DOCUMENT_BYTES: a large level is split into pages behind a contents
// `_index.md` (or `_files.md`), and any skill of a flat library of 1,000 stays three reads from the listing.
import { describe, expect, test } from "vitest";
import { formatPageName, generatedDocumentOf } from "../../src/address/index.js";
import { changedUris, FULL_SCOPE, FULL_SCOPE_ON, listingRows, MAX_DOCUMENT_BYTES, resolve, type Scope } from "../../src/resolve/index.js";
import type { Shelf } from "../../src/shelf/index.js";
import { buildTestShelf, scopeOf, skillMd } from "./shelf-fixture.js";

const ENCODER = new TextEncoder();
const LONG = "Handles one narrow task of the organisation and explains in detail when to use it, ".repeat(4);

function flatShelf(count: number, extra: readonly string[] = []): Shelf {
  const names = [...Array.from({ length: count }, (_v, i) => `skill-${String(i).padStart(4, "0")}`), ...extra];
  const files: Record<string, string> = {};
  for (let i = 0; i < 1500; i++) files[`shared/topic-${String(i).padStart(4, "0")}/notes.md`] = `notes ${i}`;
  return buildTestShelf({
    plugins: [
      {
        id: "flat",
        skills: names.map((name) => ({
          dir: `skills/${name}`,
          description: `${name}: ${LONG}`,
          files: { "SKILL.md": skillMd(name, `${name}: ${LONG}`) },
        })),
        libraryFiles: files,
        tree: { "_index-2.md": "a disk file posing as a page", "_files-1.md": "another" },
      },
    ],
    libraries: [{ name: "flat", plugins: ["flat"] }],
  });
}

function read(shelf: Shelf, scope: Scope, uri: string): string {
  const answer = resolve(shelf, scope, uri);
  if (answer.kind !== "document") throw new Error(`${uri}: ${answer.kind}`);
  return answer.text;
}

function linksOf(text: string): string[] {
  return [...text.matchAll(/^(skill:\/\/\S+?):?(?: |$)/gm)].map((match) => match[1] as string);
}

const SHELF = flatShelf(1000);

describe("the page names", () => {
  test.each([
    ["_index.md", { document: "index", page: 0 }],
    ["_files.md", { document: "files", page: 0 }],
    ["_index-1.md", { document: "index", page: 1 }],
    ["_files-12.md", { document: "files", page: 12 }],
    ["_index-0.md", null],
    ["_index-01.md", null],
    ["_index-.md", null],
    ["_index-2.txt", null],
    ["index-2.md", null],
    ["_index-1234567.md", null],
  ])("%s", (name, expected) => {
    expect(generatedDocumentOf(name)).toEqual(expected);
  });

  test("formatPageName is their inverse", () => {
    expect(formatPageName("index", 0)).toBe("_index.md");
    expect(formatPageName("files", 3)).toBe("_files-3.md");
    expect(generatedDocumentOf(formatPageName("index", 17))).toEqual({ document: "index", page: 17 });
  });
});

describe("a flat library of 1,000 skills", () => {
  const contents = read(SHELF, FULL_SCOPE, "skill://flat/_index.md");
  const pages = linksOf(contents).filter((uri) => /_index-\d+\.md$/.test(uri));

  test("its _index.md is a contents page naming every page with its range, and the library files", () => {
    const lines = contents.split("\n");
    expect(lines.slice(0, 4)).toEqual([
      "# flat — 1000 skills",
      "",
      "It is split into 9 pages of at most 32 KB; read the page whose range holds the name you look for.",
      "",
    ]);
    expect(lines[4]).toBe("skill://flat/_index-1.md: entries 1–112, skill-0000 to skill-0111");
    expect(lines[12]).toBe("skill://flat/_index-9.md: entries 897–1000, skill-0896 to skill-0999");
    expect(lines[13]).toBe("skill://flat/_files.md: 1500 library files");
    expect(pages).toEqual(Array.from({ length: 9 }, (_v, i) => `skill://flat/_index-${i + 1}.md`));
  });

  test("each page is titled with its number and holds whole one-line rows, descriptions cut after a word", () => {
    const page = read(SHELF, FULL_SCOPE, "skill://flat/_index-2.md").split("\n");
    expect(page[0]).toBe("# flat — page 2");
    expect(page[2]).toMatch(/^skill:\/\/flat\/skill-0112\/SKILL\.md: skill-0112: Handles one narrow task/);
    const row = page[2] as string;
    expect([...row.slice(row.indexOf(": ") + 2)].length).toBeLessThanOrEqual(256);
    expect(row.endsWith("…")).toBe(true);
    expect(row.endsWith(" …")).toBe(false);
  });

  test("every generated document is at most 32 KB, under every scope", () => {
    for (const scope of [FULL_SCOPE, scopeOf({ library: "flat" })]) {
      const seen = new Set<string>();
      const queue = listingRows(SHELF, scope, false).map((row) => row.uri);
      while (queue.length > 0) {
        const uri = queue.shift() as string;
        if (seen.has(uri) || uri.endsWith("/SKILL.md") || !/_(index|files)(-\d+)?\.md$/.test(uri)) continue;
        seen.add(uri);
        const text = read(SHELF, scope, uri);
        expect(ENCODER.encode(text).length, uri).toBeLessThanOrEqual(MAX_DOCUMENT_BYTES);
        queue.push(...linksOf(text));
      }
      // the contents and 9 index pages, the files contents and its pages
      expect([...seen].filter((uri) => uri.includes("_index")).length).toBe(10);
      expect([...seen].filter((uri) => uri.includes("_files")).length).toBeGreaterThan(2);
    }
  });

  test("any skill's SKILL.md is three reads from the listing: _index.md, the page its range names, SKILL.md", () => {
    for (const name of ["skill-0000", "skill-0500", "skill-0999"]) {
      const [library] = listingRows(SHELF, FULL_SCOPE, false);
      expect(library?.uri).toBe("skill://flat/_index.md");
      const row = read(SHELF, FULL_SCOPE, library?.uri as string)
        .split("\n")
        .find((line) => {
          const match = / (skill-\d{4}) to (skill-\d{4})$/.exec(line);
          return match !== null && (match[1] as string) <= name && name <= (match[2] as string);
        });
      const page = read(SHELF, FULL_SCOPE, (row as string).slice(0, (row as string).indexOf(": ")));
      const uri = `skill://flat/${name}/SKILL.md`;
      expect(linksOf(page)).toContain(uri);
      expect(resolve(SHELF, FULL_SCOPE, uri).kind).toBe("file");
    }
  });

  test("every page lists each skill once, in name order", () => {
    const rows = pages.flatMap((uri) => linksOf(read(SHELF, FULL_SCOPE, uri)));
    expect(rows).toEqual(Array.from({ length: 1000 }, (_v, i) => `skill://flat/skill-${String(i).padStart(4, "0")}/SKILL.md`));
  });

  test("_files.md is split the same way and its pages list every library file once", () => {
    const files = read(SHELF, FULL_SCOPE, "skill://flat/_files.md");
    expect(files.split("\n").slice(0, 3)).toEqual([
      "# flat — 1500 library files",
      "",
      "It is split into 2 pages of at most 32 KB; read the page whose range holds the name you look for.",
    ]);
    const listed = linksOf(files).flatMap((uri) => linksOf(read(SHELF, FULL_SCOPE, uri)));
    expect(listed.length).toBe(1500);
    expect(new Set(listed).size).toBe(1500);
    expect(read(SHELF, FULL_SCOPE, "skill://flat/_files-1.md").split("\n")[2]).toBe(
      "These files sit outside every skill; skills cite them, so read one when a skill points to it.",
    );
  });

  test("a page past the last is not found, and a disk file never answers a page name", () => {
    expect(resolve(SHELF, FULL_SCOPE, "skill://flat/_index-10.md").kind).toBe("notFound");
    expect(resolve(SHELF, FULL_SCOPE, "skill://flat/_files-3.md").kind).toBe("notFound");
    const small = flatShelf(3);
    expect(resolve(small, FULL_SCOPE, "skill://flat/_index-2.md").kind).toBe("notFound");
    expect(resolve(small, FULL_SCOPE, "skill://flat/_index-1.md").kind).toBe("notFound");
    expect(read(small, FULL_SCOPE, "skill://flat/_index.md").split("\n")[0]).toBe("# flat — 3 skills");
  });

  test("a skill added elsewhere leaves the page addresses and their contents as they were", () => {
    const grown = flatShelf(1000, ["zz-new"]);
    for (const uri of pages.slice(0, 8)) expect(read(grown, FULL_SCOPE, uri)).toBe(read(SHELF, FULL_SCOPE, uri));
    expect(read(grown, FULL_SCOPE, "skill://flat/_index-9.md")).toContain("skill://flat/zz-new/SKILL.md");
  });

  test("a change announces the pages whose text changed, and only those", () => {
    const grown = flatShelf(1000, ["zz-new"]);
    const changed = changedUris(SHELF, grown, FULL_SCOPE_ON);
    expect(changed.filter((uri) => uri.includes("_index"))).toEqual(["skill://flat/_index-9.md", "skill://flat/_index.md"]);
  });
});
