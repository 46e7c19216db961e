// The shapes the resolver's defences exist for, on shelves built in the test body: skill addresses with dot and
// empty segments, hidden library files, a whole-plugin skill in a subfolder of a shared repository, a library
// root of library files only, reads below a reserved name, non-string URIs, unsorted manifests, tag lists, the
// refusal texts, and the caps on distinct scopes.
import { describe, expect, test } from "vitest";
import { type Answer, compileScope, FULL_SCOPE, INDEX_ADVICE, NOT_FOUND_ADVICE, readDirectory, resolve } from "../../src/resolve/index.js";
import { viewOf } from "../../src/resolve/view.js";
import type { HarvestedPlugin, PluginMeta } from "../../src/harvest/index.js";
import type { Shelf, Skill } from "../../src/shelf/index.js";
import { buildTestShelf, digestOf, scopeOf, skillMd } from "./shelf-fixture.js";

const FILES_ADVICE = "These files sit outside every skill; skills cite them, so read one when a skill points to it.";
const bytes = (text: string): number => new TextEncoder().encode(text).byteLength;

/** `file <fixture abs>`, `document <text>` or `notFound <message>`. */
function summary(answer: Answer): string {
  switch (answer.kind) {
    case "file":
      return `file ${answer.file.disk.abs}`;
    case "fallback":
      return `fallback ${answer.disk.abs}`;
    case "document":
      return `document ${answer.text}`;
    case "notFound":
      return `notFound ${answer.message}`;
  }
}

/** One library `lib` of one plugin `kit`: one good skill, three skills whose addresses no URI can reach, and
 *  library files of which two are hidden. */
function oddShelf(): Shelf {
  return buildTestShelf({
    plugins: [
      {
        id: "kit",
        skills: [
          { dir: "skills/good", files: { "notes.md": "# notes\n" } },
          { dir: "skills/up", address: "up/.." },
          { dir: "skills/here", address: "here/." },
          { dir: "skills/gap", address: "gap//x" },
        ],
        libraryFiles: { "docs/guide.md": "# Guide\n", "docs/.env": "SECRET=1\n", ".private/key.md": "# key\n" },
      },
    ],
    libraries: [{ name: "lib", plugins: ["kit"] }],
  });
}

describe("skill addresses with '..', '.' or an empty segment are never published", () => {
  test("the library index lists only the reachable skill", () => {
    const answer = resolve(oddShelf(), FULL_SCOPE, "skill://lib/_index.md");
    expect(summary(answer)).toBe(
      `document ${[
        "# lib — 1 skill",
        "",
        "skill://lib/good/SKILL.md: The good skill.",
        "skill://lib/_files.md: 1 library file",
        "",
        INDEX_ADVICE,
        "",
      ].join("\n")}`,
    );
  });

  test("a directory read of the library root shows the reachable skill and the visible files only", () => {
    expect(readDirectory(oddShelf(), FULL_SCOPE, "skill://lib")).toEqual({
      kind: "directory",
      uri: "skill://lib",
      entries: [
        { uri: "skill://lib/docs", name: "docs", mimeType: "inode/directory" },
        { uri: "skill://lib/good", name: "good", mimeType: "inode/directory" },
      ],
    });
  });

  const rows = [
    { uri: "skill://lib/up/SKILL.md", why: "up/.. would be the library root" },
    { uri: "skill://lib/here/SKILL.md", why: "here/. is no address" },
    { uri: "skill://lib/gap/x/SKILL.md", why: "gap//x is no address" },
    { uri: "skill://lib/up/_index.md", why: "no folder exists for an unreachable skill" },
  ];
  test.each(rows)("$uri is not found ($why)", ({ uri }) => {
    expect(summary(resolve(oddShelf(), FULL_SCOPE, uri))).toBe(`notFound Not found: ${uri}. ${NOT_FOUND_ADVICE}`);
  });
});

describe("hidden library files are never listed in _files.md", () => {
  test("_files.md names only docs/guide.md", () => {
    expect(summary(resolve(oddShelf(), FULL_SCOPE, "skill://lib/_files.md"))).toBe(
      `document ${["# lib — 1 library file", "", FILES_ADVICE, "", "skill://lib/docs/guide.md", ""].join("\n")}`,
    );
  });

  test("a directory read of docs lists the guide and not .env", () => {
    expect(readDirectory(oddShelf(), FULL_SCOPE, "skill://lib/docs")).toEqual({
      kind: "directory",
      uri: "skill://lib/docs",
      entries: [{ uri: "skill://lib/docs/guide.md", name: "guide.md", mimeType: "text/markdown", size: bytes("# Guide\n") }],
    });
  });

  test.each(["skill://lib/docs/.env", "skill://lib/.private/key.md"])("%s is not found", (uri) => {
    expect(resolve(oddShelf(), FULL_SCOPE, uri).kind).toBe("notFound");
  });
});

describe("a plugin in a subfolder of a shared repository that is itself one skill", () => {
  // `outer` is the whole repository; `one` is its subfolder plugins/one, whose root is a single skill.
  const shelf = (): Shelf =>
    buildTestShelf({
      plugins: [
        { id: "outer", fetch: "repo", tree: { "plugins/one/SKILL.md": skillMd("one", "The one skill."), "plugins/one/notes.md": "# n\n" } },
        { id: "one", fetch: "repo", root: "plugins/one", skills: [{ dir: "", address: "one", files: { "notes.md": "# n\n" } }] },
      ],
      libraries: [{ name: "mono", plugins: ["outer", "one"] }],
    });

  const rows = [
    { uri: "skill://mono/one/notes.md", expect: "file fixture:one/notes.md" },
    { uri: "skill://mono/one/SKILL.md", expect: "file fixture:one/SKILL.md" },
    { uri: "skill://mono/plugins/one/notes.md", expect: "notFound", why: "the skill's directory never serves raw" },
    { uri: "skill://mono/plugins/one/SKILL.md", expect: "notFound", why: "the skill's directory never serves raw" },
  ];
  test.each(rows)("$uri -> $expect", ({ uri, expect: expected }) => {
    const answer = resolve(shelf(), FULL_SCOPE, uri);
    expect(answer.kind === "notFound" ? "notFound" : summary(answer)).toBe(expected);
  });
});

describe("a skill directory is matched at a slash, never as a prefix of a name", () => {
  const shelf = (): Shelf =>
    buildTestShelf({
      plugins: [{ id: "kit", skills: [{ dir: "skills/go" }], tree: { "skills/gold.md": "# gold\n", "skills/go/x.md": "# x\n" } }],
      libraries: [{ name: "lib", plugins: ["kit"] }],
    });
  const rows = [
    { uri: "skill://lib/skills/gold.md", expect: "fallback fixture:kit/skills/gold.md" },
    { uri: "skill://lib/skills/go/x.md", expect: "notFound" },
  ];
  test.each(rows)("$uri -> $expect", ({ uri, expect: expected }) => {
    const answer = resolve(shelf(), FULL_SCOPE, uri);
    expect(answer.kind === "notFound" ? "notFound" : summary(answer)).toBe(expected);
  });
});

describe("a directory read of a library root holding only library files", () => {
  const shelf = (): Shelf =>
    buildTestShelf({
      plugins: [
        { id: "skills-kit", skills: [{ dir: "skills/alpha" }] },
        { id: "notes", libraryFiles: { "guide.md": "# Guide\n", "ref/a.md": "# A\n" } },
      ],
      libraries: [
        { name: "mixed", plugins: ["skills-kit", "notes"] },
        { name: "plain", plugins: ["notes"] },
      ],
    });
  const entries = (library: string) => [
    { uri: `skill://${library}/guide.md`, name: "guide.md", mimeType: "text/markdown", size: bytes("# Guide\n") },
    { uri: `skill://${library}/ref`, name: "ref", mimeType: "inode/directory" },
  ];

  test("a library without skills", () => {
    expect(readDirectory(shelf(), FULL_SCOPE, "skill://plain")).toEqual({
      kind: "directory",
      uri: "skill://plain",
      entries: entries("plain"),
    });
  });

  test("a library whose skills the scope leaves out", () => {
    const scope = scopeOf({ plugins: ["notes"] });
    expect(readDirectory(shelf(), scope, "skill://mixed/")).toEqual({
      kind: "directory",
      uri: "skill://mixed/",
      entries: entries("mixed"),
    });
  });
});

describe("a read below a reserved name", () => {
  const rows = [
    { uri: "skill://lib/good/_manifest/x", expect: "notFound" },
    { uri: "skill://lib/good/_manifest/SKILL.md", expect: "notFound" },
    { uri: "skill://lib/_files.md/x", expect: "notFound" },
    { uri: "skill://lib/good/_manifest", expect: "document" },
  ];
  test.each(rows)("$uri -> $expect", ({ uri, expect: kind }) => {
    expect(resolve(oddShelf(), FULL_SCOPE, uri).kind).toBe(kind);
  });
});

describe("resolve() with a URI that is not a string", () => {
  test("a URL object reads as its string form", () => {
    const answer = resolve(oddShelf(), FULL_SCOPE, new URL("skill://lib/good/notes.md") as unknown as string);
    expect(answer.uri).toBe("skill://lib/good/notes.md");
    expect(summary(answer)).toBe("file fixture:kit/skills/good/notes.md");
  });

  test.each([
    { uri: 42, sent: "42" },
    { uri: undefined, sent: "undefined" },
    { uri: null, sent: "null" },
  ])("$sent is not found, and the answer names it as a string", ({ uri, sent }) => {
    expect(resolve(oddShelf(), FULL_SCOPE, uri as unknown as string)).toEqual({
      kind: "notFound",
      uri: sent,
      message: `Not found: ${sent}. ${NOT_FOUND_ADVICE}`,
    });
  });
});

describe("a manifest whose paths arrive unsorted", () => {
  const files = { "b.md": "# b\n", "a.md": "# a\n", "c/d.md": "# d\n" };
  const base = buildTestShelf({
    plugins: [{ id: "kit", skills: [{ dir: "skills/good", files }] }],
    libraries: [{ name: "lib", plugins: ["kit"] }],
  });
  const library = base.libraries.get("lib");
  const skill = library?.skills.get("good") as Skill;
  // The shelf promises nothing about the order of a skill's paths: the manifest sorts them itself.
  (library?.skills as Map<string, Skill>).set("good", { ...skill, paths: ["c/d.md", "b.md", "SKILL.md", "a.md"] });

  test("the manifest lists them in code-unit order", () => {
    const content: Record<string, string> = { ...files, "SKILL.md": skillMd("good", "The good skill.") };
    const line = (path: string): string =>
      `    {"path": "${path}", "size": ${bytes(content[path] as string)}, "hash": "${digestOf(content[path] as string)}"}`;
    expect(summary(resolve(base, FULL_SCOPE, "skill://lib/good/_manifest"))).toBe(
      `document {\n  "skill": "lib/good",\n  "files": [\n${["SKILL.md", "a.md", "b.md", "c/d.md"].map(line).join(",\n")}\n  ]\n}\n`,
    );
  });
});

/** Library `ops` of plugins a (category eng; tags oncall, runbooks) and b (tag review); library `docs` of c. */
function taggedShelf(): Shelf {
  const base = buildTestShelf({
    plugins: [
      { id: "a", skills: [{ dir: "skills/triage" }] },
      { id: "b", skills: [{ dir: "skills/review" }] },
      { id: "c", skills: [{ dir: "skills/write" }] },
    ],
    libraries: [
      { name: "ops", plugins: ["a", "b"] },
      { name: "docs", plugins: ["c"] },
    ],
  });
  const metas: Record<string, PluginMeta> = {
    a: { description: "", category: "eng", tags: ["oncall", "runbooks"], keywords: [] },
    b: { description: "", tags: ["review"], keywords: [] },
    c: { description: "", tags: ["public"], keywords: [] },
  };
  const plugins = new Map<string, HarvestedPlugin>(
    [...base.plugins].map(([id, plugin]) => [id, { ...plugin, meta: metas[id] as PluginMeta }]),
  );
  return { ...base, plugins };
}

const admitted = (result: ReturnType<typeof compileScope>): string[] | string =>
  result.ok ? [...(result.scope.plugins ?? [])].sort() : result.message;

describe("tag lists as written in headers and query parameters", () => {
  const rows = [
    { tags: ["oncall, runbooks"], expect: ["a"] },
    { tags: ["oncall,,runbooks"], expect: ["a"] },
    { tags: ["oncall,"], expect: ["a"] },
    { tags: [" review "], expect: ["b"] },
    { tags: ["review", "oncall , runbooks"], expect: ["a", "b"] },
    { tags: ["oncall,review"], expect: "Scope refused: the scope tags=oncall,review shows nothing: no plugin of any library matches it." },
    { tags: ["oncall, nope"], expect: "Scope refused: tag 'nope' does not exist; the tags are: oncall, public, review, runbooks." },
  ];
  test.each(rows)("$tags -> $expect", ({ tags, expect: expected }) => {
    expect(admitted(compileScope(taggedShelf(), null, { tags }))).toEqual(expected);
  });
});

describe("refusal texts when the ceiling admits nothing", () => {
  const ghost = { tags: ["ghost"] };
  const rows = [
    { ceiling: ghost, request: { library: "ops" }, expect: "library 'ops' does not exist; the libraries are: (none)" },
    { ceiling: ghost, request: { categories: ["eng"] }, expect: "category 'eng' does not exist; the categories are: (none)" },
    { ceiling: ghost, request: { tags: ["oncall"] }, expect: "tag 'oncall' does not exist; the tags are: (none)" },
    { ceiling: ghost, request: {}, expect: "the scope (no narrowing) shows nothing: no plugin of any library matches it" },
    {
      ceiling: { library: "ops", tags: ["ghost"] },
      request: {},
      expect: "the scope (no narrowing) shows nothing: no plugin of library 'ops' matches it",
    },
    { ceiling: null, request: { library: "ops/x" }, expect: "library 'ops/x' names a folder; a scope names a whole library: docs, ops" },
  ];
  test.each(rows)("$request under $ceiling", ({ ceiling, request, expect: expected }) => {
    expect(compileScope(taggedShelf(), ceiling, request)).toEqual({ ok: false, message: `Scope refused: ${expected}.` });
  });
});

describe("the caps on distinct scopes", () => {
  test("256 compiled scopes are held per shelf; the 257th distinct one drops the oldest", () => {
    const shelf = taggedShelf();
    const first = compileScope(shelf, null, { library: "ops" });
    for (let i = 1; i < 256; i++) compileScope(shelf, null, { library: `nope-${i}` });
    expect(compileScope(shelf, null, { library: "ops" })).toBe(first);
    compileScope(shelf, null, { library: "nope-256" });
    const again = compileScope(shelf, null, { library: "ops" });
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
  });

  test("64 views are held per shelf; the 65th distinct scope drops the oldest", () => {
    const shelf = taggedShelf();
    const first = viewOf(shelf, scopeOf({ library: "ops" }));
    for (let i = 1; i < 64; i++) viewOf(shelf, scopeOf({ library: `other-${i}` }));
    expect(viewOf(shelf, scopeOf({ library: "ops" }))).toBe(first);
    viewOf(shelf, scopeOf({ library: "other-64" }));
    expect(viewOf(shelf, scopeOf({ library: "ops" }))).not.toBe(first);
  });
});
