// What changed between two shelves when the build kept a library from the previous one (the very same object): the
// diffs skip it without reading it, unless a scope sees it differently on the two shelves; the libraries the build
// made again are compared as before, and a library added, removed or renamed is a change of the listing.
import { describe, expect, test } from "vitest";
import { changedUris, diffShelves, FULL_SCOPE_ON, type Scope } from "../../src/resolve/index.js";
import type { Library, Shelf } from "../../src/shelf/index.js";
import { buildTestShelf, scopeOf, type ShelfSpec } from "./shelf-fixture.js";

const spec = (kitSkills: readonly string[]): ShelfSpec => ({
  plugins: [
    { id: "a", skills: kitSkills.map((dir) => ({ dir })), libraryFiles: { "docs/a.md": "# A\n" } },
    { id: "t", skills: [{ dir: "skills/three", files: { "notes.md": "# notes\n" } }] },
  ],
  libraries: [
    { name: "kit", plugins: ["a"] },
    { name: "team", plugins: ["t"] },
  ],
});

/** `next` with `previous`'s `team` library and its plugin: what the build makes when only `kit` changed. */
function keepingTeam(previous: Shelf, next: Shelf, team: Library = previous.libraries.get("team") as Library): Shelf {
  return {
    ...next,
    libraries: new Map([...next.libraries].map(([name, library]) => [name, name === "team" ? team : library])),
    plugins: new Map([...next.plugins].map(([id, plugin]) => [id, id === "t" ? (previous.plugins.get("t") ?? plugin) : plugin])),
  };
}

/** The library with every read of its skills and files refused: a diff that skips it must not look inside (its
 *  prompts, a few per library, are compared whole). */
function untouchable(library: Library): Library {
  const allowed = new Set<PropertyKey>(["name", "served", "prompts"]);
  return new Proxy(library, {
    get(target, key, receiver) {
      if (!allowed.has(key)) throw new Error(`the diff read the kept library's ${String(key)}`);
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
}

describe("a library the build kept", () => {
  const previous = buildTestShelf(spec(["skills/one"]));

  test("is skipped unread: the other library's changes are all that is found", () => {
    const team = untouchable(previous.libraries.get("team") as Library);
    const before = keepingTeam(previous, previous, team);
    const after = keepingTeam(previous, buildTestShelf(spec(["skills/one", "skills/two"])), team);
    expect(diffShelves(before, after, FULL_SCOPE_ON)).toEqual({ listChanged: true, promptsChanged: false });
    expect(changedUris(before, after, FULL_SCOPE_ON)).toEqual([
      "skill://kit/_index.md",
      "skill://kit/two/SKILL.md",
      "skill://kit/two/_manifest",
    ]);
  });

  test("changes nothing when the other library is made again alike", () => {
    const after = keepingTeam(previous, buildTestShelf(spec(["skills/one"])));
    expect(diffShelves(previous, after, FULL_SCOPE_ON)).toEqual({ listChanged: false, promptsChanged: false });
    expect(changedUris(previous, after, FULL_SCOPE_ON)).toEqual([]);
  });

  test("is compared when the scope sees its plugin on one shelf only", () => {
    const after = keepingTeam(previous, buildTestShelf(spec(["skills/one"])));
    const narrowed = (shelf: Shelf): Scope => (shelf === previous ? scopeOf({}) : scopeOf({ plugins: ["a"] }));
    expect(diffShelves(previous, after, narrowed)).toEqual({ listChanged: true, promptsChanged: false });
    expect(changedUris(previous, after, narrowed)).toEqual([
      "skill://team/_index.md",
      "skill://team/three/SKILL.md",
      "skill://team/three/_manifest",
      "skill://team/three/notes.md",
    ]);
  });

  test("is compared when the scope sees the library on one shelf only", () => {
    const after = keepingTeam(previous, buildTestShelf(spec(["skills/one"])));
    const narrowed = (shelf: Shelf): Scope => (shelf === previous ? scopeOf({}) : scopeOf({ library: "kit" }));
    expect(diffShelves(previous, after, narrowed).listChanged).toBe(true);
    expect(changedUris(previous, after, narrowed)).toContain("skill://team/three/SKILL.md");
  });
});

describe("libraries added or removed", () => {
  test("change the listing even where the scope sees none of them", () => {
    const previous = buildTestShelf(spec(["skills/one"]));
    const grown = buildTestShelf({ ...spec(["skills/one"]), libraries: [...spec([]).libraries, { name: "more", plugins: ["t"] }] });
    const kitOnly = (): Scope => scopeOf({ library: "kit" });
    expect(diffShelves(previous, grown, kitOnly)).toEqual({ listChanged: true, promptsChanged: false });
    expect(changedUris(previous, grown, kitOnly)).toEqual([]);
  });

  test("a library renamed is a change too, where the scope sees neither name", () => {
    const previous = buildTestShelf(spec(["skills/one"]));
    const renamed = buildTestShelf({
      ...spec(["skills/one"]),
      libraries: [
        { name: "kit", plugins: ["a"] },
        { name: "crew", plugins: ["t"] },
      ],
    });
    const kitOnly = (): Scope => scopeOf({ library: "kit" });
    expect(diffShelves(previous, renamed, kitOnly)).toEqual({ listChanged: true, promptsChanged: false });
    expect(changedUris(previous, renamed, kitOnly)).toEqual([]);
  });
});
