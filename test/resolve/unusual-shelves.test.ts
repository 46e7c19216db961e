// Edges the other tables leave out: a library naming a plugin the shelf lacks, a description-only change, a
// separator in a directory name, URIs below a document's name, and one entry larger than a page.
import { describe, expect, test } from "vitest";
import { compileScope, diffShelves, FULL_SCOPE, FULL_SCOPE_ON, listingKey, resolve } from "../../src/resolve/index.js";
import type { Shelf } from "../../src/shelf/index.js";
import { buildTestShelf } from "./shelf-fixture.js";

function read(shelf: Shelf, uri: string): string {
  const answer = resolve(shelf, FULL_SCOPE, uri);
  return answer.kind === "document" ? answer.text : `${answer.kind} ${uri}`;
}

describe("a library naming a plugin the shelf does not hold", () => {
  // `ghost` failed to harvest: library `kit` names it beside `a`, library `empty` names it alone.
  const shelf = (): Shelf =>
    buildTestShelf({
      plugins: [{ id: "a", skills: [{ dir: "skills/one" }] }],
      libraries: [
        { name: "kit", plugins: ["a", "ghost"] },
        { name: "empty", plugins: ["ghost"] },
      ],
    });
  const rows = [
    { request: {}, expect: "*" },
    { request: { library: "kit" }, expect: "a" },
    { request: { library: "nope" }, expect: "Scope refused: library 'nope' does not exist; the libraries are: empty, kit." },
    {
      request: { library: "empty" },
      expect: "Scope refused: the scope library=empty shows nothing: no plugin of library 'empty' matches it.",
    },
  ];
  test.each(rows)("$request -> $expect", ({ request, expect: expected }) => {
    const result = compileScope(shelf(), null, request);
    expect(result.ok ? (result.scope.plugins === null ? "*" : [...result.scope.plugins].join(",")) : result.message).toBe(expected);
  });
});

describe("a skill's description alone changes", () => {
  const shelf = (description: string): Shelf =>
    buildTestShelf({ plugins: [{ id: "a", skills: [{ dir: "skills/one", description }] }], libraries: [{ name: "kit", plugins: ["a"] }] });
  test("the listing changed: its row per skill carries the description", () => {
    expect(diffShelves(shelf("Before."), shelf("After."), FULL_SCOPE_ON)).toEqual({ listChanged: true, promptsChanged: false });
  });
});

describe("a directory name holding a separator", () => {
  const shelf = (): Shelf =>
    buildTestShelf({
      plugins: [
        { id: "a", skills: [{ dir: "skills/one", files: { "x\\y/z.md": "z\n" } }], libraryFiles: { "p\\q/r.md": "r\n", "s.md": "s\n" } },
      ],
      libraries: [{ name: "kit", plugins: ["a"] }],
    });
  test("neither the manifest nor _files.md names a file below it", () => {
    expect(
      (JSON.parse(read(shelf(), "skill://kit/one/_manifest")) as { files: { path: string }[] }).files.map((file) => file.path),
    ).toEqual(["SKILL.md"]);
    expect(read(shelf(), "skill://kit/_files.md").split("\n").slice(4)).toEqual(["skill://kit/s.md", ""]);
  });
});

describe("listingKey below a document's name", () => {
  test.each([
    ["skill://kit/_files.md/x", "1skill://kit/_files.md/x"],
    ["skill://kit/a/_index.md/x", "1skill://kit/a/_index.md/x"],
  ])("%s", (uri, expected) => {
    expect(listingKey(uri)).toBe(expected);
  });
});

describe("one entry larger than a page", () => {
  const path = `a${"x".repeat(33_000)}.md`;
  const shelf = buildTestShelf({
    plugins: [{ id: "a", libraryFiles: { [path]: "big\n", "b.md": "b\n" } }],
    libraries: [{ name: "w", plugins: ["a"] }],
  });
  test("comes first and gets a page of its own, never an empty one before it", () => {
    expect(read(shelf, "skill://w/_files.md").split("\n").slice(4, 7)).toEqual(["skill://w/_files-1.md", "skill://w/_files-2.md", ""]);
    expect(read(shelf, "skill://w/_files-1.md").split("\n")[4] === `skill://w/${path}`).toBe(true);
    expect(read(shelf, "skill://w/_files-2.md").split("\n")[4]).toBe("skill://w/b.md");
  });
});

describe("a library index of more folders than one page holds", () => {
  test("names each page's range by its first and last folder, each with a slash", () => {
    const shelf = buildTestShelf({
      plugins: [{ id: "a", skills: Array.from({ length: 1000 }, (_v, i) => ({ dir: `skills/f${String(i).padStart(4, "0")}/s` })) }],
      libraries: [{ name: "b", plugins: ["a"] }],
    });
    const lines = read(shelf, "skill://b/_index.md").split("\n");
    expect(lines[2]).toMatch(/^It is split into 2 pages/);
    expect(lines[4]).toMatch(/^skill:\/\/b\/_index-1\.md: entries 1–\d+, f0000\/ to f\d{4}\/$/);
    expect(lines[5]).toMatch(/^skill:\/\/b\/_index-2\.md: entries \d+–1000, f\d{4}\/ to f0999\/$/);
  });
});
