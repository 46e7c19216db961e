// A split document fills each page greedily up to the byte bound, to the byte: entries sized so that one page
// holds exactly the room a page has, or one byte more than it.
import { describe, expect, test } from "vitest";
import { FULL_SCOPE, MAX_DOCUMENT_BYTES, resolve } from "../../src/resolve/index.js";
import type { Shelf } from "../../src/shelf/index.js";
import { buildTestShelf } from "./shelf-fixture.js";

const ENCODER = new TextEncoder();
const FILES_ADVICE = "These files sit outside every skill; skills cite them, so read one when a skill points to it.";
const LEAD = (pages: number): string =>
  `It is split into ${pages} pages of at most 32 KB; read the page whose range holds the name you look for.`;

function read(shelf: Shelf, uri: string): string {
  const answer = resolve(shelf, FULL_SCOPE, uri);
  if (answer.kind !== "document") throw new Error(`${uri}: ${answer.kind}`);
  return answer.text;
}

/** A path of `length` bytes that sorts as entry `i`. */
const pathOf = (i: number, length: number): string => {
  const head = `${String(i).padStart(3, "0")}-`;
  return `${head}${"x".repeat(length - head.length - 3)}.md`;
};

/** Library `name` (one letter) of 40 library files: 31 of 1,010 bytes, the 32nd of `last` bytes, 8 of 10 bytes. */
function shelfOf(name: string, last: number): { shelf: Shelf; paths: string[] } {
  const paths = [
    ...Array.from({ length: 31 }, (_v, i) => pathOf(i, 1010)),
    pathOf(31, last),
    ...Array.from({ length: 8 }, (_v, i) => pathOf(32 + i, 10)),
  ];
  const shelf = buildTestShelf({
    plugins: [{ id: "p", libraryFiles: Object.fromEntries(paths.map((path) => [path, "x"])) }],
    libraries: [{ name, plugins: ["p"] }],
  });
  return { shelf, paths };
}

// The room of a page for entries: the bound less the widest frame (`# f — page 40`, the advice, blank lines) and
// one byte. Each entry takes its line (`skill://f/` and the path) and a newline. Page 1 of `f` is then the bound
// less two bytes: its title is one digit shorter than the widest, and the spare byte.
const FRAME = ENCODER.encode(["# f — page 40", "", FILES_ADVICE, "", ""].join("\n")).length;
const ROOM = MAX_DOCUMENT_BYTES - FRAME - 1;
const FIRST = 31 * ("skill://f/".length + 1010 + 1);

describe("_files.md pages fill to the byte", () => {
  const rows = [
    {
      name: "f",
      last: ROOM - FIRST - "skill://f/".length - 1,
      first: 32,
      size: MAX_DOCUMENT_BYTES - 2,
      why: "the 32nd entry fills the room exactly",
    },
    { name: "g", last: ROOM - FIRST - "skill://g/".length, first: 31, size: 31_762, why: "the 32nd entry would pass the room by one byte" },
  ];
  test.each(rows)("$name: page 1 holds $first entries ($why)", ({ name, last, first, size }) => {
    const { shelf, paths } = shelfOf(name, last);
    const uri = (path: string): string => `skill://${name}/${path}`;
    const page = (k: number, from: number, to: number): string =>
      [`# ${name} — page ${k}`, "", FILES_ADVICE, "", ...paths.slice(from, to).map(uri), ""].join("\n");
    expect(read(shelf, `skill://${name}/_files.md`)).toBe(
      [
        `# ${name} — 40 library files`,
        "",
        LEAD(2),
        "",
        `skill://${name}/_files-1.md: files 1–${first}, ${paths[0]} to ${paths[first - 1]}`,
        `skill://${name}/_files-2.md: files ${first + 1}–40, ${paths[first]} to ${paths[39]}`,
        "",
      ].join("\n"),
    );
    expect(read(shelf, `skill://${name}/_files-1.md`)).toBe(page(1, 0, first));
    expect(read(shelf, `skill://${name}/_files-2.md`)).toBe(page(2, first, 40));
    expect(ENCODER.encode(read(shelf, `skill://${name}/_files-1.md`)).length).toBe(size);
  });
});

describe("a contents page whose page ranges would not fit names the pages alone", () => {
  // 600 files of 1,000 bytes: 32 to a page, and each range names two whole paths, so 19 ranges pass 32 KB.
  const paths = Array.from({ length: 600 }, (_v, i) => pathOf(i, 1000));
  const shelf = buildTestShelf({
    plugins: [{ id: "p", libraryFiles: Object.fromEntries(paths.map((path) => [path, "x"])) }],
    libraries: [{ name: "h", plugins: ["p"] }],
  });

  test("its _files.md lists the 19 page URIs and nothing else", () => {
    const pages = Array.from({ length: 19 }, (_v, i) => `skill://h/_files-${i + 1}.md`);
    expect(read(shelf, "skill://h/_files.md")).toBe(["# h — 600 library files", "", LEAD(19), "", ...pages, ""].join("\n"));
    const listed = pages.flatMap((uri) =>
      read(shelf, uri)
        .split("\n")
        .filter((line) => line.startsWith("skill://")),
    );
    expect(listed).toEqual(paths.map((path) => `skill://h/${path}`));
    for (const uri of pages) expect(ENCODER.encode(read(shelf, uri)).length).toBeLessThanOrEqual(MAX_DOCUMENT_BYTES);
  });
});

describe("a document of exactly 32 KB is served whole", () => {
  // `# w — 32 library files` (24 bytes), the advice (93), 36 newlines and 32 lines: 31 of 1,020 bytes and the last
  // sized to make 32,768 bytes in all, or one more.
  const shelfOf = (last: number): Shelf => {
    const paths = [...Array.from({ length: 31 }, (_v, i) => pathOf(i, 1010)), pathOf(31, last)];
    return buildTestShelf({
      plugins: [{ id: "p", libraryFiles: Object.fromEntries(paths.map((path) => [path, "x"])) }],
      libraries: [{ name: "w", plugins: ["p"] }],
    });
  };
  const EXACT = MAX_DOCUMENT_BYTES - 24 - 93 - 36 - 31 * 1020 - "skill://w/".length;

  test("at the bound: one document", () => {
    const text = read(shelfOf(EXACT), "skill://w/_files.md");
    expect(ENCODER.encode(text).length).toBe(MAX_DOCUMENT_BYTES);
    expect(text.split("\n").slice(0, 5)).toEqual(["# w — 32 library files", "", FILES_ADVICE, "", `skill://w/${pathOf(0, 1010)}`]);
  });

  test("one byte over: a contents document instead", () => {
    const lines = read(shelfOf(EXACT + 1), "skill://w/_files.md").split("\n");
    expect(lines.slice(0, 2)).toEqual(["# w — 32 library files", ""]);
    expect(lines[2]).toMatch(/^It is split into \d+ pages? of at most 32 KB/);
  });
});
