// The resolver's surface beyond resolve(): prompts as a scope sees them, what changed between two shelves, the
// listing's sort key, skills/get's lookup, directory reads and compiled union ceilings, each built in the test body.
import { describe, expect, test } from "vitest";
import {
  changedUris,
  compileScope,
  diffShelves,
  findPrompt,
  findSkillBySkillMd,
  FULL_SCOPE,
  FULL_SCOPE_ON,
  listingKey,
  listingRows,
  NO_SCOPE,
  NOT_FOUND_ADVICE,
  readDirectory,
  readKey,
  resolve,
  scopeOn,
  type Scope,
  visiblePrompts,
} from "../../src/resolve/index.js";
import { documentPages } from "../../src/resolve/resolve.js";
import { compareCodeUnits } from "../../src/address/index.js";
import type { HarvestedPlugin, PluginMeta } from "../../src/harvest/index.js";
import type { PromptDef } from "../../src/prompts/index.js";
import type { Library, Shelf, Skill } from "../../src/shelf/index.js";
import { EXAMPLE } from "./example-shelf.js";
import { buildTestShelf, digestOf, scopeOf, type ShelfSpec } from "./shelf-fixture.js";

const bytes = (text: string): number => new TextEncoder().encode(text).byteLength;

function read(shelf: Shelf, uri: string): string {
  const answer = resolve(shelf, FULL_SCOPE, uri);
  return answer.kind === "document" ? answer.text : `${answer.kind} ${uri}`;
}

function promptOf(library: string, stem: string, plugin: string | undefined, description = `The ${stem} prompt.`): PromptDef {
  return {
    name: `${library}_${stem}`,
    library,
    ...(plugin === undefined ? {} : { plugin }),
    stem,
    path: `prompts/${stem}.prompt.md`,
    dialect: "skillshelf",
    description,
    arguments: [],
    defaults: new Map(),
    segments: [{ kind: "text", text: `Do ${stem}.` }],
  };
}

/** A shelf built from `spec` whose libraries carry `prompts` (inserted in the order given). */
function withPrompts(spec: ShelfSpec, prompts: readonly PromptDef[]): Shelf {
  const shelf = buildTestShelf(spec);
  for (const prompt of prompts) (shelf.libraries.get(prompt.library)?.prompts as Map<string, PromptDef>).set(prompt.name, prompt);
  return shelf;
}

const PROMPT_SPEC: ShelfSpec = {
  plugins: [{ id: "a", skills: [{ dir: "skills/one" }] }, { id: "b" }, { id: "c" }],
  libraries: [
    { name: "kit", plugins: ["a", "b"] },
    { name: "ops", plugins: ["c"] },
  ],
};

/** Inserted out of order; `kit_Zeta` sorts before `kit_alpha` by code unit (not by locale). */
const PROMPTS = [
  promptOf("ops", "deploy", "c"),
  promptOf("kit", "review", "b"),
  promptOf("kit", "alpha", "a"),
  promptOf("kit", "Zeta", "a"),
  promptOf("kit", "loose", undefined),
];

describe("prompts as one scope sees them", () => {
  const shelf = (): Shelf => withPrompts(PROMPT_SPEC, PROMPTS);
  const rows: { scope: Scope; name: string; expect: string[] }[] = [
    { scope: FULL_SCOPE, name: "full", expect: ["kit_Zeta", "kit_alpha", "kit_loose", "kit_review", "ops_deploy"] },
    { scope: scopeOf({ plugins: ["a"] }), name: "plugin a", expect: ["kit_Zeta", "kit_alpha"] },
    { scope: scopeOf({ plugins: ["b", "c"] }), name: "plugins b, c", expect: ["kit_review", "ops_deploy"] },
    { scope: scopeOf({ library: "ops" }), name: "library ops", expect: ["ops_deploy"] },
    { scope: scopeOf({ library: "kit", plugins: ["c"] }), name: "library kit, plugin c", expect: [] },
    { scope: NO_SCOPE, name: "none", expect: [] },
  ];
  test.each(rows)("visiblePrompts under $name", ({ scope, expect: expected }) => {
    expect(visiblePrompts(shelf(), scope).map((prompt) => prompt.name)).toEqual(expected);
  });

  const finds: { scope: Scope; name: string; expect: string | null }[] = [
    { scope: FULL_SCOPE, name: "kit_alpha", expect: "kit_alpha" },
    { scope: FULL_SCOPE, name: "ops_deploy", expect: "ops_deploy" },
    { scope: FULL_SCOPE, name: "kit_loose", expect: "kit_loose" },
    { scope: scopeOf({ plugins: ["a"] }), name: "kit_alpha", expect: "kit_alpha" },
    { scope: scopeOf({ plugins: ["b"] }), name: "kit_alpha", expect: null },
    { scope: scopeOf({ plugins: ["a"] }), name: "kit_loose", expect: null },
    { scope: scopeOf({ library: "ops" }), name: "kit_alpha", expect: null },
    { scope: FULL_SCOPE, name: "kit_nope", expect: null },
    { scope: FULL_SCOPE, name: "nope_alpha", expect: null },
    { scope: FULL_SCOPE, name: "_alpha", expect: null },
    { scope: FULL_SCOPE, name: "kitalpha", expect: null },
    { scope: FULL_SCOPE, name: "", expect: null },
  ];
  test.each(finds)("findPrompt($name) under $scope.key -> $expect", ({ scope, name, expect: expected }) => {
    expect(findPrompt(shelf(), scope, name)?.name ?? null).toBe(expected);
  });
});

describe("what changed between two shelves, as one scope sees it", () => {
  const base = (): ShelfSpec => ({
    plugins: [
      { id: "a", skills: [{ dir: "skills/one", files: { "notes.md": "# notes\n" } }], libraryFiles: { "docs/a.md": "# A\n" } },
      { id: "b", skills: [{ dir: "skills/two" }] },
    ],
    libraries: [{ name: "kit", plugins: ["a", "b"] }],
  });
  const full = FULL_SCOPE_ON;
  const previous = withPrompts(base(), [promptOf("kit", "alpha", "a")]);

  const rows: {
    name: string;
    next: () => Shelf;
    scope?: (shelf: Shelf) => Scope;
    expect: { listChanged: boolean; promptsChanged: boolean };
  }[] = [
    {
      name: "the same content rebuilt",
      next: () => withPrompts(base(), [promptOf("kit", "alpha", "a")]),
      expect: { listChanged: false, promptsChanged: false },
    },
    {
      name: "a skill file's bytes only",
      next: () => {
        const spec = base();
        const a = {
          ...(spec.plugins[0] as ShelfSpec["plugins"][number]),
          skills: [{ dir: "skills/one", files: { "notes.md": "# changed\n" } }],
        };
        return withPrompts({ ...spec, plugins: [a, ...spec.plugins.slice(1)] }, [promptOf("kit", "alpha", "a")]);
      },
      expect: { listChanged: false, promptsChanged: false },
    },
    {
      name: "a library file renamed (same count)",
      next: () => {
        const spec = base();
        const a = { ...(spec.plugins[0] as ShelfSpec["plugins"][number]), libraryFiles: { "docs/b.md": "# A\n" } };
        return withPrompts({ ...spec, plugins: [a, ...spec.plugins.slice(1)] }, [promptOf("kit", "alpha", "a")]);
      },
      expect: { listChanged: true, promptsChanged: false },
    },
    {
      name: "a skill added",
      next: () => {
        const spec = base();
        const b = { id: "b", skills: [{ dir: "skills/two" }, { dir: "skills/three" }] };
        return withPrompts({ ...spec, plugins: [spec.plugins[0] as ShelfSpec["plugins"][number], b] }, [promptOf("kit", "alpha", "a")]);
      },
      expect: { listChanged: true, promptsChanged: false },
    },
    {
      name: "a skill added outside the scope",
      next: () => {
        const spec = base();
        const b = { id: "b", skills: [{ dir: "skills/two" }, { dir: "skills/three" }] };
        return withPrompts({ ...spec, plugins: [spec.plugins[0] as ShelfSpec["plugins"][number], b] }, [promptOf("kit", "alpha", "a")]);
      },
      scope: () => scopeOf({ plugins: ["a"] }),
      expect: { listChanged: false, promptsChanged: false },
    },
    {
      name: "a prompt added",
      next: () => withPrompts(base(), [promptOf("kit", "alpha", "a"), promptOf("kit", "beta", "b")]),
      expect: { listChanged: false, promptsChanged: true },
    },
    {
      name: "a prompt's description",
      next: () => withPrompts(base(), [promptOf("kit", "alpha", "a", "Other.")]),
      expect: { listChanged: false, promptsChanged: true },
    },
    {
      name: "a prompt's arguments",
      next: () => withPrompts(base(), [{ ...promptOf("kit", "alpha", "a"), arguments: [{ name: "x", required: true }] }]),
      expect: { listChanged: false, promptsChanged: true },
    },
    {
      name: "a prompt's body",
      next: () => withPrompts(base(), [{ ...promptOf("kit", "alpha", "a"), segments: [{ kind: "text", text: "Other." }] }]),
      expect: { listChanged: false, promptsChanged: true },
    },
    {
      name: "a prompt's name (same description, arguments and body)",
      next: () => withPrompts(base(), [{ ...promptOf("kit", "alpha", "a"), name: "kit_beta" }]),
      expect: { listChanged: false, promptsChanged: true },
    },
  ];
  test.each(rows)("$name -> $expect", ({ next, scope, expect: expected }) => {
    expect(diffShelves(previous, next(), scope ?? full)).toEqual(expected);
  });

  test("the changed URIs of a renamed library file and an edited skill file", () => {
    const spec = base();
    const a = {
      ...(spec.plugins[0] as ShelfSpec["plugins"][number]),
      libraryFiles: { "docs/b.md": "# A\n" },
      skills: [{ dir: "skills/one", files: { "notes.md": "# changed\n" } }],
    };
    const next = buildTestShelf({ ...spec, plugins: [a, ...spec.plugins.slice(1)] });
    expect(changedUris(previous, next, full)).toEqual([
      "skill://kit/_files.md",
      "skill://kit/docs/a.md",
      "skill://kit/docs/b.md",
      "skill://kit/one/_manifest",
      "skill://kit/one/notes.md",
    ]);
    expect(changedUris(previous, next, () => scopeOf({ plugins: ["b"] }))).toEqual([]);
  });
});

describe("readKey: what a read returns, reduced to a comparable key", () => {
  const shelf = buildTestShelf({
    plugins: [{ id: "a", skills: [{ dir: "skills/one" }], tree: { "raw.md": "raw bytes\n" } }],
    libraries: [{ name: "kit", plugins: ["a"] }],
  });
  const rows = [
    { uri: "skill://kit/one/SKILL.md", expect: `f${digestOf('---\nname: one\ndescription: "The one skill."\n---\n# one\n')}` },
    { uri: "skill://kit/raw.md", expect: `d${bytes("raw bytes\n")}:0` },
    { uri: "skill://kit/one/_manifest", expect: `t${(resolve(shelf, FULL_SCOPE, "skill://kit/one/_manifest") as { text: string }).text}` },
    { uri: "skill://kit/nope.md", expect: "-" },
  ];
  test.each(rows)("$uri", ({ uri, expect: expected }) => {
    expect(readKey(shelf, FULL_SCOPE, uri)).toBe(expected);
  });
});

describe("listingKey sorts rows exactly as the listing orders them", () => {
  const rows = [
    { uri: "not a uri", expect: "2not a uri" },
    { uri: "skill://kit/_index.md", expect: "0kit\u00000" },
    { uri: "skill://kit/team/_index.md", expect: "0kit\u00001team" },
    { uri: "skill://kit/_files.md", expect: "0kit\u00002" },
    { uri: "skill://kit/team/SKILL.md", expect: "1skill://kit/team/SKILL.md" },
    { uri: "skill://kit/team/deep/_index.md", expect: "1skill://kit/team/deep/_index.md" },
    { uri: "skill://kit/team/_files.md", expect: "1skill://kit/team/_files.md" },
    { uri: "skill://kit/_index.md/x", expect: "1skill://kit/_index.md/x" },
    { uri: "skill://kit/x", expect: "1skill://kit/x" },
  ];
  test.each(rows)("$uri", ({ uri, expect: expected }) => {
    expect(listingKey(uri)).toBe(expected);
  });

  test.each([
    { name: "full", scope: FULL_SCOPE },
    { name: "lgtm", scope: scopeOf({ plugins: ["lgtm", "kit", "handbook"] }) },
  ])("every row of the full listing under $name, sorted by key, keeps its place", ({ scope }) => {
    const uris = listingRows(EXAMPLE, scope, true).map((row) => row.uri);
    const byKey = [...uris].sort((a, b) => compareCodeUnits(listingKey(a), listingKey(b)));
    expect(byKey).toEqual(uris);
    expect(new Set(uris.map(listingKey)).size).toBe(uris.length);
  });
});

describe("findSkillBySkillMd: skills/get's lookup", () => {
  const rows: { uri: string; scope?: Scope; expect: string | null }[] = [
    { uri: "skill://grafana/grafana-lgtm/loki/SKILL.md", expect: "loki" },
    { uri: "skill://grafana/grafana-lgtm/./loki/SKILL.md", expect: "loki" },
    { uri: "skill://solo/solo/SKILL.md", expect: "solo" },
    { uri: "skill://kit/writing/drafts/SKILL.md", expect: "drafts" },
    { uri: "skill://grafana/grafana-lgtm/loki/SKILL.md", scope: scopeOf({ plugins: ["k6"] }), expect: null },
    { uri: "skill://grafana/grafana-lgtm/loki/SKILL.md", scope: scopeOf({ library: "kit" }), expect: null },
    { uri: "skill://grafana/grafana-lgtm/loki", expect: null },
    { uri: "skill://grafana/grafana-lgtm/loki/_manifest", expect: null },
    { uri: "skill://grafana/grafana-lgtm/SKILL.md", expect: null },
    { uri: "skill://grafana/SKILL.md", expect: null },
    { uri: "skill://nope/loki/SKILL.md", expect: null },
    { uri: "loki/SKILL.md", expect: null },
  ];
  test.each(rows)("$uri -> $expect", ({ uri, scope, expect: expected }) => {
    expect(findSkillBySkillMd(EXAMPLE, scope ?? FULL_SCOPE, uri)?.name ?? null).toBe(expected);
  });
});

describe("documentPages: the pages of a split document", () => {
  const rows = [
    { uri: "skill://grafana/_index.md", why: "whole" },
    { uri: "skill://grafana/_files.md", why: "whole" },
    { uri: "skill://grafana/grafana-lgtm/loki/SKILL.md", why: "no document" },
    { uri: "skill://nope/_index.md", why: "no library" },
    { uri: "nope", why: "no address" },
  ];
  test.each(rows)("$uri has none ($why)", ({ uri }) => {
    expect(documentPages(EXAMPLE, FULL_SCOPE, uri)).toEqual([]);
  });

  const names = Array.from({ length: 400 }, (_v, i) => `skill-${String(i).padStart(3, "0")}`);
  const long = "A description long enough that four hundred of them pass the bound of one document. ".repeat(2);
  const big = buildTestShelf({
    plugins: [
      {
        id: "big",
        skills: names.map((name) => ({ dir: `skills/team/${name}`, description: long })),
        libraryFiles: Object.fromEntries(
          Array.from({ length: 900 }, (_v, i) => [`shared/topic-${String(i).padStart(3, "0")}/notes.md`, "n"]),
        ),
      },
    ],
    libraries: [{ name: "big", plugins: ["big"] }],
  });
  test.each([
    {
      uri: "skill://big/team/_index.md",
      pages: ["skill://big/team/_index-1.md", "skill://big/team/_index-2.md", "skill://big/team/_index-3.md"],
    },
    { uri: "skill://big/_files.md", pages: ["skill://big/_files-1.md", "skill://big/_files-2.md"] },
    { uri: "skill://big/team/_index-1.md", pages: [] },
    { uri: "skill://big/_index.md", pages: [] },
  ])("$uri -> $pages", ({ uri, pages }) => {
    expect(documentPages(big, FULL_SCOPE, uri)).toEqual(pages);
    for (const page of pages) expect(resolve(big, FULL_SCOPE, page).kind).toBe("document");
  });

  test("a split folder index names its pages by entry range, and each page is titled with the folder", () => {
    const lines = read(big, "skill://big/team/_index.md").split("\n");
    expect(lines.slice(0, 4)).toEqual([
      "# big/team — 400 skills",
      "",
      "It is split into 3 pages of at most 32 KB; read the page whose range holds the name you look for.",
      "",
    ]);
    expect(lines[4]).toMatch(/^skill:\/\/big\/team\/_index-1\.md: entries 1–\d+, skill-000 to skill-\d{3}$/);
    expect(read(big, "skill://big/team/_index-2.md").split("\n")[0]).toBe("# big/team — page 2");
  });
});

describe("readDirectory: the direct children of a directory address", () => {
  const dir = (uri: string) => ({ uri, name: uri.slice(uri.lastIndexOf("/") + 1), mimeType: "inode/directory" });
  const file = (uri: string, size: number) => ({ uri, name: uri.slice(uri.lastIndexOf("/") + 1), mimeType: "text/markdown", size });
  const skillMdEntry = (uri: string, name: string, content: string, description: string) => ({
    uri,
    name,
    mimeType: "text/markdown",
    size: bytes(content),
    description,
  });
  const md = (name: string, description: string): string =>
    `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\n---\n# ${name}\n`;

  const rows = [
    {
      uri: "skill://grafana",
      entries: [
        dir("skill://grafana/grafana-k6"),
        dir("skill://grafana/grafana-lgtm"),
        dir("skill://grafana/overview"),
        dir("skill://grafana/shared"),
      ],
    },
    {
      uri: "skill://grafana/grafana-lgtm/loki",
      entries: [
        dir("skill://grafana/grafana-lgtm/loki/.github"),
        skillMdEntry("skill://grafana/grafana-lgtm/loki/SKILL.md", "loki", md("loki", "Query logs with LogQL."), "Query logs with LogQL."),
        file("skill://grafana/grafana-lgtm/loki/_index.md", bytes("a skill file named _index.md\n")),
        dir("skill://grafana/grafana-lgtm/loki/references"),
        dir("skill://grafana/grafana-lgtm/loki/scripts"),
      ],
    },
    {
      uri: "skill://grafana/grafana-lgtm/loki/references/",
      entries: [
        dir("skill://grafana/grafana-lgtm/loki/references/deep"),
        file("skill://grafana/grafana-lgtm/loki/references/logql.md", bytes("# LogQL\n")),
      ],
    },
    {
      uri: "skill://grafana/grafana-lgtm/loki/scripts",
      entries: [
        { uri: "skill://grafana/grafana-lgtm/loki/scripts/q.py", name: "q.py", mimeType: "text/x-python", size: bytes("print('q')\n") },
      ],
    },
    {
      uri: "skill://grafana/grafana-lgtm",
      entries: [
        dir("skill://grafana/grafana-lgtm/loki"),
        dir("skill://grafana/grafana-lgtm/mimir"),
        dir("skill://grafana/grafana-lgtm/tempo"),
      ],
    },
    {
      uri: "skill://kit/writing/drafts",
      entries: [skillMdEntry("skill://kit/writing/drafts/SKILL.md", "drafts", md("drafts", "Draft first."), "Draft first.")],
    },
    { uri: "skill://mixed/team", entries: [file("skill://mixed/team/README.md", bytes("team\n")), dir("skill://mixed/team/alpha")] },
    { uri: "skill://mixed/zz", entries: [{ ...file("skill://mixed/zz/100%25%20sure.md", bytes("percent\n")), name: "100% sure.md" }] },
    { uri: "skill://docs/guide", entries: [dir("skill://docs/guide/deep"), file("skill://docs/guide/intro.md", bytes("intro\n"))] },
    { uri: "skill://docs/guide/deep", entries: [file("skill://docs/guide/deep/more.md", bytes("more\n"))] },
    {
      uri: "skill://grafana/grafana-lgtm/loki/references/deep",
      entries: [file("skill://grafana/grafana-lgtm/loki/references/deep/more.md", bytes("more\n"))],
    },
    {
      uri: "skill://docs",
      entries: [file("skill://docs/a.md", bytes("a\n")), dir("skill://docs/guide")],
    },
  ];
  test.each(rows)("$uri", ({ uri, entries }) => {
    expect(readDirectory(EXAMPLE, FULL_SCOPE, uri)).toEqual({ kind: "directory", uri, entries });
  });

  const misses = [
    { uri: "skill://grafana/grafana-lgtm/loki/SKILL.md", scope: FULL_SCOPE, tail: NOT_FOUND_ADVICE },
    { uri: "skill://grafana/grafana-lgtm/loki/nope", scope: FULL_SCOPE, tail: NOT_FOUND_ADVICE },
    { uri: "skill://grafana/grafana-lgtm/loki/references/logql.md", scope: FULL_SCOPE, tail: NOT_FOUND_ADVICE },
    { uri: "skill://grafana/shared/api.md", scope: FULL_SCOPE, tail: NOT_FOUND_ADVICE },
    { uri: "skill://grafana/nope", scope: FULL_SCOPE, tail: NOT_FOUND_ADVICE },
    { uri: "skill://grafana/README.md", scope: FULL_SCOPE, tail: NOT_FOUND_ADVICE },
    { uri: "skill://nope", scope: FULL_SCOPE, tail: NOT_FOUND_ADVICE },
    { uri: "nope", scope: FULL_SCOPE, tail: NOT_FOUND_ADVICE },
    { uri: "skill://dropped", scope: FULL_SCOPE, tail: NOT_FOUND_ADVICE },
    { uri: "skill://grafana/grafana-lgtm", scope: scopeOf({ plugins: ["k6"] }), tail: NOT_FOUND_ADVICE },
    { uri: "skill://grafana", scope: scopeOf({ library: "kit" }), tail: NOT_FOUND_ADVICE },
    { uri: "skill://grafana", scope: NO_SCOPE, tail: NOT_FOUND_ADVICE },
    {
      uri: "skill://grafana/grafana-lgtm/tempo/nope",
      scope: FULL_SCOPE,
      tail: NOT_FOUND_ADVICE,
    },
  ];
  test.each(misses)("$uri under $scope.key is not found", ({ uri, scope, tail }) => {
    expect(readDirectory(EXAMPLE, scope, uri)).toEqual({ kind: "notFound", uri, message: `Not found: ${uri}. ${tail}` });
  });
});

/** Library `ops` of plugins a (category eng; tags oncall, runbooks) and b (tag review); library `docs` of c and
 *  of a again. */
function tagged(): Shelf {
  const base = buildTestShelf({
    plugins: [
      { id: "a", skills: [{ dir: "skills/triage" }] },
      { id: "b", skills: [{ dir: "skills/review" }] },
      { id: "c", skills: [{ dir: "skills/write" }] },
    ],
    libraries: [
      { name: "ops", plugins: ["a", "b"] },
      { name: "docs", plugins: ["c", "a"] },
    ],
  });
  const metas: Record<string, PluginMeta> = {
    a: { description: "", category: "eng", tags: ["oncall", "runbooks"], keywords: [] },
    b: { description: "", tags: ["review"], keywords: ["audit"] },
    c: { description: "", category: "writing", tags: ["public"], keywords: [] },
  };
  const plugins = new Map<string, HarvestedPlugin>(
    [...base.plugins].map(([id, plugin]) => [id, { ...plugin, meta: metas[id] as PluginMeta }]),
  );
  return { ...base, plugins };
}

type Compiled = ReturnType<typeof compileScope>;
const summaryOf = (result: Compiled) =>
  result.ok
    ? {
        library: result.scope.library,
        plugins: result.scope.plugins === null ? null : [...result.scope.plugins].sort(),
        byLibrary:
          result.scope.byLibrary === undefined
            ? undefined
            : Object.fromEntries([...result.scope.byLibrary].map(([name, ids]) => [name, [...ids].sort()])),
        key: result.scope.key,
      }
    : result.message;

describe("compileScope: ceilings, unions and requests", () => {
  const rows = [
    {
      name: "no ceiling, no request",
      ceiling: null,
      request: {},
      expect: { library: null, plugins: null, byLibrary: undefined, key: "*" },
    },
    { name: "an empty ceiling", ceiling: {}, request: {}, expect: { library: null, plugins: null, byLibrary: undefined, key: "*" } },
    {
      name: "an empty request list",
      ceiling: null,
      request: { categories: [], tags: [] },
      expect: { library: null, plugins: null, byLibrary: undefined, key: "*" },
    },
    {
      name: "a union holding an empty scope",
      ceiling: { anyOf: [{ library: "ops" }, {}] },
      request: {},
      expect: { library: null, plugins: null, byLibrary: undefined, key: "*" },
    },
    {
      name: "a request for one library",
      ceiling: null,
      request: { library: "ops" },
      expect: { library: "ops", plugins: ["a", "b", "c"], byLibrary: undefined, key: '|["ops",[],[]]' },
    },
    {
      name: "a request for a category",
      ceiling: null,
      request: { categories: ["writing", "eng"] },
      expect: { library: null, plugins: ["a", "c"], byLibrary: undefined, key: '|[null,["eng","writing"],[]]' },
    },
    {
      name: "a request for a keyword",
      ceiling: null,
      request: { tags: ["audit"] },
      expect: { library: null, plugins: ["b"], byLibrary: undefined, key: '|[null,[],["audit"]]' },
    },
    {
      name: "a ceiling of one library",
      ceiling: { library: "docs" },
      request: {},
      expect: { library: "docs", plugins: ["a", "c"], byLibrary: undefined, key: '["docs",[],[]]|[null,[],[]]' },
    },
    {
      name: "a ceiling of one tag across libraries",
      ceiling: { tags: ["oncall"] },
      request: {},
      expect: { library: null, plugins: ["a"], byLibrary: undefined, key: '[null,[],["oncall"]]|[null,[],[]]' },
    },
    {
      name: "a union of one scope is that scope",
      ceiling: { anyOf: [{ library: "docs" }] },
      request: { tags: ["public"] },
      expect: { library: "docs", plugins: ["c"], byLibrary: undefined, key: '["docs",[],[]]|[null,[],["public"]]' },
    },
    {
      name: "a union of two libraries, each with its own grant",
      ceiling: {
        anyOf: [
          { library: "ops", tags: ["review"] },
          { library: "docs", categories: ["writing"] },
        ],
      },
      request: {},
      expect: {
        library: null,
        plugins: ["b", "c"],
        byLibrary: { ops: ["b"], docs: ["c"] },
        key: 'any["[\\"docs\\",[\\"writing\\"],[]]","[\\"ops\\",[],[\\"review\\"]]"]|[null,[],[]]',
      },
    },
    {
      name: "a plugin granted in one library only stays out of the other",
      ceiling: {
        anyOf: [
          { library: "ops", categories: ["eng"] },
          { library: "docs", tags: ["public"] },
        ],
      },
      request: {},
      expect: {
        library: null,
        plugins: ["a", "c"],
        byLibrary: { ops: ["a"], docs: ["c"] },
        key: 'any["[\\"docs\\",[],[\\"public\\"]]","[\\"ops\\",[\\"eng\\"],[]]"]|[null,[],[]]',
      },
    },
    {
      name: "a union narrowed by a request to one library",
      ceiling: { anyOf: [{ library: "ops" }, { library: "docs", tags: ["public"] }] },
      request: { library: "docs" },
      expect: {
        library: "docs",
        plugins: ["a", "b", "c"],
        byLibrary: { docs: ["c"] },
        key: 'any["[\\"docs\\",[],[\\"public\\"]]","[\\"ops\\",[],[]]"]|["docs",[],[]]',
      },
    },
    {
      name: "a union narrowed by a request to a tag",
      ceiling: { anyOf: [{ library: "ops" }, { library: "docs", tags: ["public"] }] },
      request: { tags: ["oncall"] },
      expect: {
        library: null,
        plugins: ["a"],
        byLibrary: { ops: ["a"], docs: [] },
        key: 'any["[\\"docs\\",[],[\\"public\\"]]","[\\"ops\\",[],[]]"]|[null,[],["oncall"]]',
      },
    },
    {
      name: "an empty union admits nothing",
      ceiling: { anyOf: [] },
      request: {},
      expect: "Scope refused: the scope (no narrowing) shows nothing: no plugin of any library matches it.",
    },
    {
      name: "a library the union does not grant reads as missing",
      ceiling: {
        anyOf: [
          { library: "ops", tags: ["review"] },
          { library: "ops", tags: ["oncall"] },
        ],
      },
      request: { library: "docs" },
      expect: "Scope refused: library 'docs' does not exist; the libraries are: ops.",
    },
    {
      name: "a category outside the ceiling reads as missing",
      ceiling: { library: "ops" },
      request: { categories: ["writing"] },
      expect: "Scope refused: category 'writing' does not exist; the categories are: eng.",
    },
    {
      name: "a tag outside the ceiling reads as missing",
      ceiling: { tags: ["review"] },
      request: { tags: ["oncall"] },
      expect: "Scope refused: tag 'oncall' does not exist; the tags are: audit, review.",
    },
    {
      name: "a library of the ceiling where the request matches nothing",
      ceiling: { anyOf: [{ library: "ops", tags: ["review"] }, { library: "docs" }] },
      request: { library: "ops", categories: ["eng"] },
      expect: "Scope refused: the scope library=ops categories=eng shows nothing: no plugin of library 'ops' matches it.",
    },
    {
      name: "every part of a refused scope is named",
      ceiling: null,
      request: { library: "docs", categories: ["writing"], tags: ["review", "oncall,runbooks"] },
      expect:
        "Scope refused: the scope library=docs categories=writing tags=review tags=oncall,runbooks shows nothing: no plugin of library 'docs' matches it.",
    },
  ];
  test.each(rows)("$name", ({ ceiling, request, expect: expected }) => {
    expect(summaryOf(compileScope(tagged(), ceiling, request))).toEqual(expected);
  });

  test("the order of a union's scopes, categories and tags does not make another scope", () => {
    const shelf = tagged();
    const one = compileScope(
      shelf,
      { anyOf: [{ library: "ops", tags: ["review", "oncall"] }, { library: "docs" }] },
      { categories: ["eng", "writing"] },
    );
    const two = compileScope(
      shelf,
      { anyOf: [{ library: "docs" }, { library: "ops", tags: ["oncall", "review"] }] },
      { categories: ["writing", "eng"] },
    );
    expect(two).toBe(one);
    const dup = compileScope(
      shelf,
      { anyOf: [{ library: "docs" }, { library: "docs" }, { library: "ops", tags: ["oncall", "review"] }] },
      {
        categories: ["writing", "eng"],
      },
    );
    expect(summaryOf(dup)).toEqual(summaryOf(one));
  });

  test("a union scope reads only what each library grants", () => {
    const shelf = tagged();
    const result = compileScope(
      shelf,
      {
        anyOf: [
          { library: "ops", categories: ["eng"] },
          { library: "docs", tags: ["public"] },
        ],
      },
      {},
    );
    const scope = result.ok ? result.scope : NO_SCOPE;
    expect(
      ["skill://ops/triage/SKILL.md", "skill://ops/review/SKILL.md", "skill://docs/write/SKILL.md", "skill://docs/triage/SKILL.md"].map(
        (uri) => resolve(shelf, scope, uri).kind,
      ),
    ).toEqual(["file", "notFound", "file", "notFound"]);
  });

  test("scopeOn compiles against each shelf, and sees nothing where the scope is refused", () => {
    const on = scopeOn({ library: "ops" }, { tags: ["review"] });
    const shelf = tagged();
    expect(summaryOf({ ok: true, scope: on(shelf) })).toEqual({
      library: "ops",
      plugins: ["b"],
      byLibrary: undefined,
      key: '["ops",[],[]]|[null,[],["review"]]',
    });
    const without = { ...shelf, libraries: new Map([...shelf.libraries].filter(([name]) => name !== "ops")) as Map<string, Library> };
    expect(on(without)).toBe(NO_SCOPE);
    expect(resolve(without, on(without), "skill://docs/write/SKILL.md").kind).toBe("notFound");
  });
});

describe("library files a read would refuse are never listed", () => {
  // Inserted out of order; `_index.md`, `sub/_files-2.md` pose as generated documents, `good/x.md` lies inside a
  // skill's address, `a\\b.md` holds a separator.
  const shelf = (): Shelf =>
    buildTestShelf({
      plugins: [
        {
          id: "p",
          skills: [{ dir: "skills/good", files: { "ok.md": "ok\n", "we\\ird.md": "w\n", "deep/z.md": "z\n" } }],
          libraryFiles: {
            "zeta.md": "z\n",
            "_index.md": "posing\n",
            "sub/_files-2.md": "posing\n",
            "good/x.md": "shadowed\n",
            "a\\b.md": "separator\n",
            "Alpha.md": "A\n",
            "sub/beta.md": "b\n",
          },
        },
        { id: "q", libraryFiles: { "b.md": "q's\n", "a.md": "q's\n" } },
      ],
      libraries: [{ name: "lib", plugins: ["p", "q"] }],
    });

  test("_files.md lists the rest in plugin order, then path order", () => {
    expect(read(shelf(), "skill://lib/_files.md")).toBe(
      [
        "# lib — 5 library files",
        "",
        "These files sit outside every skill; skills cite them, so read one when a skill points to it.",
        "",
        "skill://lib/Alpha.md",
        "skill://lib/sub/beta.md",
        "skill://lib/zeta.md",
        "skill://lib/a.md",
        "skill://lib/b.md",
        "",
      ].join("\n"),
    );
  });

  test("a directory read of the library root shows neither", () => {
    expect(readDirectory(shelf(), FULL_SCOPE, "skill://lib")).toEqual({
      kind: "directory",
      uri: "skill://lib",
      entries: [
        { uri: "skill://lib/Alpha.md", name: "Alpha.md", mimeType: "text/markdown", size: 2 },
        { uri: "skill://lib/a.md", name: "a.md", mimeType: "text/markdown", size: 4 },
        { uri: "skill://lib/b.md", name: "b.md", mimeType: "text/markdown", size: 4 },
        { uri: "skill://lib/good", name: "good", mimeType: "inode/directory" },
        { uri: "skill://lib/sub", name: "sub", mimeType: "inode/directory" },
        { uri: "skill://lib/zeta.md", name: "zeta.md", mimeType: "text/markdown", size: 2 },
      ],
    });
  });

  test("the skill's manifest leaves out the path no URI can name, and its hints name only listed directories", () => {
    const text = read(shelf(), "skill://lib/good/_manifest");
    expect(JSON.parse(text)).toEqual({
      skill: "lib/good",
      files: ["SKILL.md", "deep/z.md", "ok.md"].map((path) => expect.objectContaining({ path })),
    });
    const answer = resolve(shelf(), FULL_SCOPE, "skill://lib/good/deep");
    expect(answer.kind === "notFound" && answer.message).toBe(
      "Not found: skill://lib/good/deep. It is a directory inside a skill: read skill://lib/good/_manifest.",
    );
  });
});

describe("a skill whose address is empty is never served", () => {
  const shelf = (): Shelf => {
    const base = buildTestShelf({
      plugins: [{ id: "p", skills: [{ dir: "skills/good" }] }],
      libraries: [
        { name: "lib", plugins: ["p"] },
        { name: "bare", plugins: ["p"] },
      ],
    });
    for (const name of ["lib", "bare"]) {
      const library = base.libraries.get(name) as Library;
      const good = library.skills.get("good") as Skill;
      const skills = new Map(name === "bare" ? [] : library.skills);
      skills.set("", { ...good, address: [], name: "root", uri: `skill://${name}` });
      (base.libraries as Map<string, Library>).set(name, { ...library, skills });
    }
    return base;
  };
  test("neither the listing nor the library's hint names it", () => {
    expect(listingRows(shelf(), FULL_SCOPE, true).map((row) => row.uri)).toEqual(["skill://lib/_index.md", "skill://lib/good/SKILL.md"]);
    const answer = resolve(shelf(), FULL_SCOPE, "skill://bare");
    expect(answer.kind === "notFound" && answer.message).toBe(`Not found: skill://bare. ${NOT_FOUND_ADVICE}`);
  });
});

describe("a directory read inside a skill lists only what reads back as that file", () => {
  // Skill `a` holds a hidden file, a hidden directory, a file named like its folder index, a name with a separator,
  // and the nested skill `b`.
  const shelf = (): Shelf =>
    buildTestShelf({
      plugins: [
        {
          id: "p",
          skills: [
            {
              dir: "skills/a",
              files: { ".hidden.md": "h\n", ".conf/x.md": "x\n", "_index.md": "i\n", "we\\ird.md": "w\n", "ok/y.md": "y\n" },
            },
            { dir: "skills/a/b" },
          ],
        },
      ],
      libraries: [{ name: "l", plugins: ["p"] }],
    });
  const skillMd = (name: string): string => `---\nname: ${name}\ndescription: "The ${name} skill."\n---\n# ${name}\n`;

  test("the skill's root", () => {
    expect(readDirectory(shelf(), FULL_SCOPE, "skill://l/a")).toEqual({
      kind: "directory",
      uri: "skill://l/a",
      entries: [
        { uri: "skill://l/a/SKILL.md", name: "a", mimeType: "text/markdown", size: bytes(skillMd("a")), description: "The a skill." },
        { uri: "skill://l/a/b", name: "b", mimeType: "inode/directory" },
        { uri: "skill://l/a/ok", name: "ok", mimeType: "inode/directory" },
      ],
    });
  });

  test.each(["skill://l/a/.conf", "skill://l/a/.hidden.md", "skill://l/a/_index.md"])("%s is no directory", (uri) => {
    expect(readDirectory(shelf(), FULL_SCOPE, uri).kind).toBe("notFound");
  });

  test("what the root leaves out does not read back as the file either", () => {
    expect(
      ["skill://l/a/.hidden.md", "skill://l/a/.conf/x.md", "skill://l/a/_index.md", "skill://l/a/we%5Cird.md"].map((uri) =>
        read(shelf(), uri),
      ),
    ).toEqual([
      "notFound skill://l/a/.hidden.md",
      "notFound skill://l/a/.conf/x.md",
      "# l/a — 1 skill\n\nskill://l/a/b/SKILL.md: The b skill.\n\n" +
        "Read a folder's _index.md to see what it holds, a skill's SKILL.md for its instructions, and the skill's _manifest for the other files it ships.\n",
      "notFound skill://l/a/we%5Cird.md",
    ]);
  });
});

describe("three levels of folders", () => {
  const spec = (extra: readonly string[]): ShelfSpec => ({
    plugins: [
      { id: "p", skills: ["skills/team/deep/x", ...extra].map((dir) => ({ dir })), libraryFiles: { team: "a file named like a folder\n" } },
    ],
    libraries: [{ name: "l", plugins: ["p"] }],
  });

  test("each level's index names the level below, and a directory read shows the folder over a file of its name", () => {
    const shelf = buildTestShelf(spec([]));
    expect(read(shelf, "skill://l/team/_index.md").split("\n").slice(0, 3)).toEqual([
      "# l/team — 1 skill",
      "",
      "skill://l/team/deep/_index.md: 1 skill",
    ]);
    expect(read(shelf, "skill://l/team/deep/_index.md").split("\n").slice(0, 3)).toEqual([
      "# l/team/deep — 1 skill",
      "",
      "skill://l/team/deep/x/SKILL.md: The x skill.",
    ]);
    expect(readDirectory(shelf, FULL_SCOPE, "skill://l/team/deep")).toEqual({
      kind: "directory",
      uri: "skill://l/team/deep",
      entries: [{ uri: "skill://l/team/deep/x", name: "x", mimeType: "inode/directory" }],
    });
    expect(readDirectory(shelf, FULL_SCOPE, "skill://l")).toEqual({
      kind: "directory",
      uri: "skill://l",
      entries: [{ uri: "skill://l/team", name: "team", mimeType: "inode/directory" }],
    });
  });

  test("a skill added two levels down changes every index above it", () => {
    expect(changedUris(buildTestShelf(spec([])), buildTestShelf(spec(["skills/team/deep/y"])), FULL_SCOPE_ON)).toEqual([
      "skill://l/_index.md",
      "skill://l/team/_index.md",
      "skill://l/team/deep/_index.md",
      "skill://l/team/deep/y/SKILL.md",
      "skill://l/team/deep/y/_manifest",
    ]);
  });
});
