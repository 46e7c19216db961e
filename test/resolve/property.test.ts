// §12: random URIs over random shelves and scopes never throw and never answer with bytes outside the
// addressed library or the scope.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { type Answer, FULL_SCOPE, listingRows, resolve, type Scope } from "../../src/resolve/index.js";
import { buildTestShelf, ownerOf, scopeOf, type PluginSpec } from "./shelf-fixture.js";
import type { Shelf } from "../../src/shelf/index.js";

const PLUGINS = ["p0", "p1", "p2", "p3"];
const LIBRARIES = ["l0", "l1"];
const SKILL_DIRS = ["skills/a", "skills/a/b", "skills/b", "x/c", "skills/d/e"];
const LIBRARY_FILES = ["shared/s.md", "a/f.md", "b/g.md", "d/h.md", "top.md"];
const TREE = ["README.md", ".env", "skills/a/extra.md", "a/x.md", "shared/t.md", "_files.md", "x/c/raw.md", "r/skills/b/SKILL.md"];

const pluginSpec = (id: string): fc.Arbitrary<PluginSpec> =>
  fc.record({
    id: fc.constant(id),
    fetch: fc.constantFrom("f", id),
    root: fc.constantFrom("", "r"),
    skills: fc.subarray(SKILL_DIRS).map((dirs) => dirs.map((dir) => ({ dir, files: { "ref.md": `${id} ${dir}\n`, ".hidden.md": "h\n" } }))),
    skippedDirs: fc.subarray(["skills/z", "x/c"]),
    libraryFiles: fc.subarray(LIBRARY_FILES).map((paths) => Object.fromEntries(paths.map((path) => [path, `${id} ${path}\n`]))),
    tree: fc.subarray(TREE).map((paths) => Object.fromEntries(paths.map((path) => [path, `${id} tree ${path}\n`]))),
  });

const shelfArb: fc.Arbitrary<Shelf> = fc
  .tuple(fc.tuple(...PLUGINS.map(pluginSpec)), fc.tuple(...LIBRARIES.map(() => fc.subarray(PLUGINS))))
  .map(([plugins, members]) =>
    buildTestShelf({ plugins, libraries: LIBRARIES.map((name, i) => ({ name, plugins: members[i] as string[] })) }),
  );

const scopeArb: fc.Arbitrary<Scope> = fc.oneof(
  fc.constant(FULL_SCOPE),
  fc
    .record({
      library: fc.option(fc.constantFrom(...LIBRARIES), { nil: undefined }),
      plugins: fc.option(fc.subarray(PLUGINS), { nil: undefined }),
    })
    .map((spec) => scopeOf(spec)),
);

const SEGMENTS = [
  "a",
  "b",
  "c",
  "d",
  "e",
  "x",
  "r",
  "z",
  "skills",
  "shared",
  "top.md",
  "s.md",
  "f.md",
  "g.md",
  "h.md",
  "t.md",
  "ref.md",
  "extra.md",
  "raw.md",
  "README.md",
  "SKILL.md",
  "_index.md",
  "_files.md",
  "_manifest",
  ".env",
  ".hidden.md",
  ".github",
  "..",
  ".",
  "",
  "%2e%2e",
  "%2E",
  "%2F",
  "%5C",
  "%00",
  "%zz",
  "%",
  "l0",
  "l1",
];
/** Paths that exist somewhere on the generated shelves, so random URIs hit real files often. */
const KNOWN = [
  "a/SKILL.md",
  "a/ref.md",
  "a/.hidden.md",
  "a/_manifest",
  "a/b/SKILL.md",
  "a/b/ref.md",
  "b/ref.md",
  "c/ref.md",
  "x/c/ref.md",
  "x/c/raw.md",
  "d/e/SKILL.md",
  "d/e/ref.md",
  "shared/s.md",
  "a/f.md",
  "b/g.md",
  "d/h.md",
  "top.md",
  "README.md",
  ".env",
  "skills/a/extra.md",
  "skills/a/ref.md",
  "a/skills/a/ref.md",
  "a/shared/t.md",
  "shared/t.md",
  "r/skills/b/SKILL.md",
  "skills/z/x.md",
  "a/_index.md",
  "d/_index.md",
  "_files.md",
  "_index.md",
  "a/b/_manifest",
];
const segmentArb = fc.oneof(fc.constantFrom(...SEGMENTS), fc.string({ maxLength: 4 }));
const uriArb: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .tuple(fc.constantFrom("l0", "l1", "%6C0"), fc.array(segmentArb, { maxLength: 3 }), fc.constantFrom(...KNOWN))
      .map(([library, prefix, path]) => `skill://${[library, ...prefix, path].join("/")}`),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.constantFrom("l0", "l1", "nope", "", "%6C0", ".."), fc.array(segmentArb, { maxLength: 7 }))
      .map(([library, segments]) => `skill://${[library, ...segments].join("/")}`),
  },
  { weight: 1, arbitrary: fc.string().map((rest) => `skill://${rest}`) },
  { weight: 1, arbitrary: fc.string() },
);

/** The library a URI addresses, decoded like the parser does for the library segment. */
function addressedLibrary(uri: string): string | null {
  if (!uri.startsWith("skill://")) return null;
  const raw = uri.slice("skill://".length).split("/")[0] as string;
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}

function checkAnswer(shelf: Shelf, scope: Scope, uri: string, answer: Answer): void {
  expect(answer.uri).toBe(uri);
  if (answer.kind === "notFound") {
    expect(answer.message.startsWith(`Not found: ${uri}. `)).toBe(true);
    return;
  }
  const name = addressedLibrary(uri);
  const library = name === null ? undefined : shelf.libraries.get(name);
  expect(library).toBeDefined();
  expect(scope.library === null || scope.library === name).toBe(true);
  if (answer.kind === "document") return;
  const owner = ownerOf(answer.kind === "file" ? answer.file : answer.disk);
  // The bytes come from a plugin the addressed library serves and the scope admits.
  expect(owner !== undefined && library?.served.includes(owner)).toBe(true);
  expect(scope.plugins === null || scope.plugins.has(owner as string)).toBe(true);
  // No hidden segment is ever read, whatever the route.
  const path = answer.kind === "file" ? answer.file.disk.path : answer.disk.path;
  expect(path.split("/").some((s) => s.startsWith(".") && s !== ".github")).toBe(false);
}

describe("resolve is total and stays inside the addressed library and the scope", () => {
  test("random URIs", () => {
    fc.assert(
      fc.property(shelfArb, scopeArb, fc.array(uriArb, { minLength: 1, maxLength: 20 }), (shelf, scope, uris) => {
        for (const uri of uris) checkAnswer(shelf, scope, uri, resolve(shelf, scope, uri));
      }),
      { numRuns: 400 },
    );
  });

  test("every listed URI reads back on random shelves", () => {
    fc.assert(
      fc.property(shelfArb, scopeArb, (shelf, scope) => {
        for (const row of listingRows(shelf, scope, true)) {
          expect([row.uri, resolve(shelf, scope, row.uri).kind]).not.toEqual([row.uri, "notFound"]);
        }
      }),
      { numRuns: 200 },
    );
  });
});

/** Skill address segments a harvest could meet: dot segments, empty ones, control characters, separators. */
const ADDRESS_SEGMENTS = ["a", "b", "..", ".", "", "\t", "a\u0000b", "x\\y", "%2e", "sp ace", "\u0085", "é"];
const isReachable = (segment: string): boolean => !["", ".", ".."].includes(segment) && !segment.includes("\\") && !segment.includes("\0");

describe("skill addresses with dot, empty or control-character segments", () => {
  const oddShelfArb = fc.uniqueArray(fc.array(fc.constantFrom(...ADDRESS_SEGMENTS), { minLength: 1, maxLength: 3 }), {
    minLength: 1,
    maxLength: 6,
    selector: (address) => address.join("/"),
  });

  test("exactly the skills whose every segment a URI can reach are listed, and every listed or indexed URI reads back", () => {
    fc.assert(
      fc.property(oddShelfArb, (addresses) => {
        const shelf = buildTestShelf({
          plugins: [{ id: "p", skills: addresses.map((address, i) => ({ dir: `skills/s${i}`, address: address.join("/") })) }],
          libraries: [{ name: "l", plugins: ["p"] }],
        });
        const rows = listingRows(shelf, FULL_SCOPE, true);
        const skillRows = rows.filter((row) => row.uri.endsWith("/SKILL.md")).map((row) => row.uri);
        // The fixture keys a skill by its address as written, so `a//b` and `a/b` are two skills.
        const reachable = addresses.filter((address) => address.join("/").split("/").every(isReachable));
        expect(skillRows.length).toBe(reachable.length);
        const seen = new Set<string>();
        const pending = rows.map((row) => row.uri);
        while (pending.length > 0) {
          const uri = pending.pop() as string;
          if (seen.has(uri)) continue;
          seen.add(uri);
          const answer = resolve(shelf, FULL_SCOPE, uri);
          expect([uri, answer.kind]).not.toEqual([uri, "notFound"]);
          if (answer.kind === "document" && uri.endsWith(".md")) {
            for (const match of answer.text.matchAll(/^(skill:\/\/\S+?):? /gm)) pending.push(match[1] as string);
          }
        }
      }),
      { numRuns: 150 },
    );
  });
});
