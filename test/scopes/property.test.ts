// §5 and §12 as a property: over generated shelves (buildShelf over literal HarvestedPlugin data), random
// ceilings × random request scopes × random addresses never read a file the scope does not admit — no skill
// file, library file or fallback of a plugin outside the compiled scope or the client's ceiling, and none of
// a library other than the scope's — and nothing throws. Generated documents, hints and directory reads
// never name an address the same scope cannot read.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { compileScope } from "../../src/resolve/compile-scope.js";
import { type Answer, listingRows, readDirectory, resolve, type Scope } from "../../src/resolve/index.js";
import { buildShelf } from "../../src/shelf/build.js";
import type { ScopeSpec } from "../../src/config/index.js";
import type { HarvestedFile, HarvestedPlugin, HarvestedSkill, PluginMeta } from "../../src/harvest/index.js";
import type { Shelf } from "../../src/shelf/index.js";
import { sha256 } from "../support/digest.js";

const PLUGINS = ["p0", "p1", "p2", "p3"] as const;
const LIBRARIES = ["l0", "l1", "l2"] as const;
const CATEGORIES = ["red", "blue"] as const;
const LABELS = ["t1", "t2", "t3", "k1"] as const;
const SKILL_DIRS = ["skills/a", "skills/a/b", "skills/c", "skills/d/e", "skills/f"] as const;
const SKILL_FILES = ["ref.md", "sub/x.md", ".hidden.md"] as const;
const LIBRARY_FILES = ["shared/s.md", "top.md", "d/h.md", "a/f.md", "sub/y.md"] as const;
const LOOSE_FILES = ["README.md", "notes/n.md", ".env", "skills/a/extra.md", "shared/t.md", "_files.md"] as const;

const ENCODER = new TextEncoder();

/** `mem:<plugin>/<path>`: every harvested file says which plugin shipped it. */
function ownerOf(abs: string): string {
  return abs.slice("mem:".length, abs.indexOf("/"));
}

function harvested(plugin: string, path: string, text: string): HarvestedFile & { bytes: Uint8Array } {
  const bytes = ENCODER.encode(text);
  return {
    path,
    abs: `mem:${plugin}/${path}`,
    size: bytes.byteLength,
    mtimeMs: 0,
    digest: sha256(bytes),
    text: true,
    bytes,
  };
}

interface PluginShape {
  readonly id: string;
  readonly category: string | undefined;
  readonly tags: readonly string[];
  readonly keywords: readonly string[];
  readonly skills: readonly string[];
  readonly libraryFiles: readonly string[];
  readonly loose: readonly string[];
}

function buildPlugin(shape: PluginShape): HarvestedPlugin {
  const id = shape.id;
  const tree = new Map<string, HarvestedFile>();
  const put = (path: string, text: string) => {
    const file = harvested(id, path, text);
    tree.set(path, file);
    return file;
  };
  const skillMds = new Map<string, HarvestedFile & { bytes: Uint8Array }>();
  for (const dir of shape.skills) {
    const name = dir.slice(dir.lastIndexOf("/") + 1);
    const head = `---\nname: ${name}\ndescription: ${id} ${name}\n---\n`;
    skillMds.set(dir, put(`${dir}/SKILL.md`, `${head}See \${CLAUDE_PLUGIN_ROOT}/shared/s.md and [ref](ref.md).\n`));
    for (const rel of SKILL_FILES) put(`${dir}/${rel}`, `${id} ${dir}/${rel}\n`);
  }
  const libraryFiles = shape.libraryFiles.map((path) => put(path, `${id} library ${path}\n`));
  for (const path of shape.loose) put(path, `${id} loose ${path}\n`);
  const skills: HarvestedSkill[] = shape.skills.map((dir) => {
    const skillMd = skillMds.get(dir) as HarvestedFile & { bytes: Uint8Array };
    const name = dir.slice(dir.lastIndexOf("/") + 1);
    const text = new TextDecoder().decode(skillMd.bytes);
    // A skill's files are every tree file under its directory (nested skills' included), hidden ones aside.
    const files = [...tree.values()]
      .filter(
        (file) =>
          file.path.startsWith(`${dir}/`) &&
          file.path !== `${dir}/SKILL.md` &&
          !file.path
            .slice(dir.length + 1)
            .split("/")
            .some((s) => s.startsWith(".")),
      )
      .map((file) => ({ ...file, path: file.path.slice(dir.length + 1) }));
    return {
      dir,
      address: dir.slice("skills/".length).split("/"),
      name,
      description: `${id} ${name}`,
      frontmatter: { name, description: `${id} ${name}` },
      skillMd,
      bodyOffset: ENCODER.encode(text.slice(0, text.indexOf("---\n", 4) + 4)).byteLength,
      cites: ["${CLAUDE_PLUGIN_ROOT}/shared/s.md", "ref.md"],
      placeholders: true,
      files,
    };
  });
  const meta: PluginMeta = {
    description: "",
    ...(shape.category === undefined ? {} : { category: shape.category }),
    tags: shape.tags,
    keywords: shape.keywords,
  };
  const visibleTree = new Map([...tree].filter(([path]) => !path.split("/").some((s) => s.startsWith("."))));
  return {
    id,
    meta,
    fetch: `./${id}`,
    root: "",
    status: "ok",
    skills,
    libraryFiles,
    tree: visibleTree,
    skillDirs: [...shape.skills],
    prompts: [],
    skipped: [],
  };
}

const pluginArb = (id: string): fc.Arbitrary<PluginShape> =>
  fc.record({
    id: fc.constant(id),
    category: fc.option(fc.constantFrom(...CATEGORIES), { nil: undefined }),
    tags: fc.subarray([...LABELS]),
    keywords: fc.subarray(["k1", "t2"]),
    skills: fc.subarray([...SKILL_DIRS]),
    libraryFiles: fc.subarray([...LIBRARY_FILES]),
    loose: fc.subarray([...LOOSE_FILES]),
  });

interface ShelfInput {
  readonly shapes: readonly PluginShape[];
  /** Per library of LIBRARIES, its plugins in library order. */
  readonly members: readonly (readonly string[])[];
}

const inputArb: fc.Arbitrary<ShelfInput> = fc
  .tuple(fc.tuple(...PLUGINS.map(pluginArb)), fc.tuple(...LIBRARIES.map(() => fc.shuffledSubarray([...PLUGINS]))))
  .map(([shapes, members]) => ({ shapes, members }));

function buildInput(input: ShelfInput): Shelf {
  return buildShelf({
    generation: 1,
    built: "1970-01-01T00:00:00.000Z",
    libraries: LIBRARIES.map((name, i) => ({ name, description: "", plugins: [...(input.members[i] ?? [])] })),
    plugins: input.shapes.map(buildPlugin),
    fetches: new Map(),
  });
}

const metaOf = (shape: PluginShape): PluginMeta => ({
  description: "",
  ...(shape.category === undefined ? {} : { category: shape.category }),
  tags: shape.tags,
  keywords: shape.keywords,
});

/** A scope anchored on one plugin inside `within` (its library, category and labels), so most compile, with now
 *  and then a typo, a folder or a name from outside `within`, so refusals are exercised too. */
const specArb = (input: ShelfInput, odd: readonly string[], within: ScopeSpec | null): fc.Arbitrary<ScopeSpec> => {
  const inLibrary = (id: string): string[] =>
    LIBRARIES.filter((name, i) => (within?.library ?? name) === name && (input.members[i]?.includes(id) ?? false));
  const inside = input.shapes.filter((shape) => matches(within, metaOf(shape)) && inLibrary(shape.id).length > 0);
  return fc.constantFrom(...(inside.length > 0 ? inside : input.shapes)).chain((anchor) => {
    const libraries = inLibrary(anchor.id);
    const labels = [...new Set([...anchor.tags, ...anchor.keywords])];
    return fc.record(
      {
        library: fc.oneof(
          { weight: 6, arbitrary: fc.constantFrom(...(libraries.length > 0 ? libraries : LIBRARIES)) },
          { weight: 1, arbitrary: fc.constantFrom(...odd, ...LIBRARIES) },
        ),
        categories: fc.oneof(
          {
            weight: 6,
            arbitrary: anchor.category === undefined ? fc.subarray([...CATEGORIES], { minLength: 1 }) : fc.constant([anchor.category]),
          },
          { weight: 1, arbitrary: fc.constantFrom(["zz"], [...CATEGORIES]) },
        ),
        tags: fc.oneof(
          { weight: 6, arbitrary: fc.subarray(labels.length > 0 ? labels : ["t1"], { minLength: 1 }).map((parts) => [parts.join(",")]) },
          { weight: 2, arbitrary: fc.subarray([...LABELS, "t1,t2", "t3, k1"], { minLength: 1, maxLength: 2 }) },
          { weight: 1, arbitrary: fc.constant(["t1,zz"]) },
        ),
      },
      { requiredKeys: [] },
    );
  });
};

/** A generated shelf, a client ceiling (or none), a request scope and addresses to read. */
const caseArb = (maxUris: number) =>
  inputArb.chain((input) =>
    fc.option(specArb(input, ["zz"], null), { nil: null }).chain((ceiling) =>
      fc.record({
        input: fc.constant(input),
        ceiling: fc.constant(ceiling),
        request: fc.oneof(
          { weight: 1, arbitrary: fc.constant<ScopeSpec>({}) },
          { weight: 5, arbitrary: specArb(input, ["zz", "l0/a"], ceiling) },
        ),
        uris: fc.array(uriArb, { minLength: 1, maxLength: maxUris }),
      }),
    ),
  );

const SEGMENTS = [
  "a",
  "b",
  "c",
  "d",
  "e",
  "f",
  "sub",
  "shared",
  "notes",
  "skills",
  "x.md",
  "y.md",
  "s.md",
  "t.md",
  "h.md",
  "f.md",
  "n.md",
  "ref.md",
  "top.md",
  "extra.md",
  "README.md",
  "SKILL.md",
  "_index.md",
  "_files.md",
  "_manifest",
  ".env",
  ".hidden.md",
  "..",
  ".",
  "",
  "%2e%2e",
  "%2F",
  "%zz",
  "l0",
  "l1",
];
const KNOWN = [
  "a/SKILL.md",
  "a/ref.md",
  "a/sub/x.md",
  "a/.hidden.md",
  "a/_manifest",
  "a/b/SKILL.md",
  "a/b/ref.md",
  "c/SKILL.md",
  "c/sub/x.md",
  "d/e/SKILL.md",
  "f/ref.md",
  "shared/s.md",
  "top.md",
  "d/h.md",
  "a/f.md",
  "sub/y.md",
  "README.md",
  "notes/n.md",
  ".env",
  "shared/t.md",
  "a/README.md",
  "a/notes/n.md",
  "c/shared/s.md",
  "skills/a/extra.md",
  "a/extra.md",
  "_index.md",
  "_files.md",
  "a/_index.md",
  "d/_index.md",
  "a/b",
  "d",
  "shared",
  "a/sub",
  "sub",
  "",
];
/** Plugin-root fallbacks (library level and under a skill) and directories (for hints). */
const FALLBACKISH = [
  "README.md",
  "notes/n.md",
  "shared/t.md",
  "a/README.md",
  "a/notes/n.md",
  "c/notes/n.md",
  "d/e/shared/t.md",
  "c/top.md",
  "_files.md/x",
  "notes",
];
const DIRECTORIES = ["a", "a/b", "a/sub", "c", "d", "d/e", "shared", "sub", "f", "notes", "a/b/sub"];
const uriArb: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .tuple(fc.constantFrom("l0", "l1", "l2"), fc.constantFrom(...FALLBACKISH, ...DIRECTORIES))
      .map(([lib, path]) => `skill://${lib}/${path}`),
  },
  {
    weight: 5,
    arbitrary: fc
      .tuple(fc.constantFrom("l0", "l1", "l2", "%6C1"), fc.constantFrom(...KNOWN))
      .map(([lib, path]) => `skill://${lib}/${path}`),
  },
  {
    weight: 3,
    arbitrary: fc
      .tuple(
        fc.constantFrom("l0", "l1", "l2", "zz", "", ".."),
        fc.array(fc.oneof(fc.constantFrom(...SEGMENTS), fc.string({ maxLength: 3 })), { maxLength: 5 }),
      )
      .map(([lib, segments]) => `skill://${[lib, ...segments].join("/")}`),
  },
  { weight: 1, arbitrary: fc.string().map((rest) => `skill://${rest}`) },
);

// An oracle written apart from src/shelf/select.ts: categories any-of; tag items any-of, each all-of its parts.
function matches(spec: ScopeSpec | null, meta: PluginMeta): boolean {
  if (spec === null) return true;
  const categories = spec.categories ?? [];
  if (categories.length > 0 && (meta.category === undefined || !categories.includes(meta.category))) return false;
  const labels = new Set([...meta.tags, ...meta.keywords]);
  const items = spec.tags ?? [];
  return items.length === 0 || items.some((item) => item.split(",").every((part) => part.trim() === "" || labels.has(part.trim())));
}

function addressedLibrary(uri: string): string | null {
  if (!uri.startsWith("skill://")) return null;
  try {
    return decodeURIComponent(uri.slice("skill://".length).split("/")[0] as string);
  } catch {
    return null;
  }
}

/** Every problem with one answer under (ceiling, scope): an empty list when the answer is admissible. */
function problemsOf(shelf: Shelf, ceiling: ScopeSpec | null, scope: Scope, answer: Answer): string[] {
  const problems: string[] = [];
  const lib = addressedLibrary(answer.uri);
  if (answer.kind === "file" || answer.kind === "fallback") {
    const owner = ownerOf(answer.kind === "file" ? answer.file.disk.abs : answer.disk.abs);
    const plugin = shelf.plugins.get(owner);
    if (lib === null || !(shelf.libraries.get(lib)?.served.includes(owner) ?? false))
      problems.push(`${answer.uri}: a file of ${owner}, which library ${lib} does not serve`);
    if (scope.library !== null && lib !== scope.library)
      problems.push(`${answer.uri}: library ${lib} is outside the scope's ${scope.library}`);
    if (ceiling?.library !== undefined && lib !== ceiling.library)
      problems.push(`${answer.uri}: library ${lib} is outside the ceiling's ${ceiling.library}`);
    if (scope.plugins !== null && !scope.plugins.has(owner)) problems.push(`${answer.uri}: plugin ${owner} is not admitted`);
    if (plugin === undefined || !matches(ceiling, plugin.meta)) problems.push(`${answer.uri}: plugin ${owner} is outside the ceiling`);
  }
  const text =
    answer.kind === "document" ? answer.text : answer.kind === "notFound" ? answer.message.slice(`Not found: ${answer.uri}`.length) : "";
  for (const named of text.match(/skill:\/\/[^\s,:]+?(?=[,:]?\s|\.?$|\.\s)/g) ?? []) {
    if (resolve(shelf, scope, named).kind === "notFound") problems.push(`${answer.uri} names ${named}, which the scope cannot read`);
    if (addressedLibrary(named) !== lib) problems.push(`${answer.uri} names ${named} in another library`);
  }
  return problems;
}

describe("random scopes × random addresses over generated shelves", () => {
  test("no read answers a file the scope or the ceiling does not admit, and nothing throws", () => {
    fc.assert(
      fc.property(caseArb(25), ({ input, ceiling, request, uris }) => {
        const shelf = buildInput(input);
        const compiled = compileScope(shelf, ceiling, request);
        if (!compiled.ok) {
          expect(compiled.message).toMatch(/^Scope refused: .*\.$/);
          return;
        }
        const scope = compiled.scope;
        // A request only narrows: the library is the request's or the ceiling's, and every plugin fits both.
        expect(scope.library).toBe(request.library ?? ceiling?.library ?? null);
        if (ceiling?.library !== undefined) expect(scope.library).toBe(ceiling.library);
        for (const id of scope.plugins ?? []) {
          const meta = shelf.plugins.get(id)?.meta;
          expect(meta !== undefined && matches(ceiling, meta) && matches(request, meta), id).toBe(true);
        }
        const problems: string[] = [];
        for (const uri of [...uris, ...listingRows(shelf, scope, true).map((row) => row.uri)])
          problems.push(...problemsOf(shelf, ceiling, scope, resolve(shelf, scope, uri)));
        expect(problems).toEqual([]);
      }),
      { seed: 20261130, numRuns: 800 },
    );
  });

  test("directory reads list only children the same scope can read", () => {
    fc.assert(
      fc.property(caseArb(15), ({ input, ceiling, request, uris }) => {
        const shelf = buildInput(input);
        const compiled = compileScope(shelf, ceiling, request);
        if (!compiled.ok) return;
        const scope = compiled.scope;
        const problems: string[] = [];
        const dirs = [...uris, ...LIBRARIES.map((lib) => `skill://${lib}`)];
        for (const uri of dirs) {
          const answer = readDirectory(shelf, scope, uri);
          if (answer.kind === "notFound") continue;
          for (const entry of answer.entries) {
            const child =
              entry.mimeType === "inode/directory" ? readDirectory(shelf, scope, entry.uri).kind : resolve(shelf, scope, entry.uri).kind;
            if (child === "notFound") problems.push(`${uri} lists ${entry.uri}, which the scope cannot read`);
            if (addressedLibrary(entry.uri) !== addressedLibrary(uri)) problems.push(`${uri} lists ${entry.uri} in another library`);
          }
        }
        expect(problems).toEqual([]);
      }),
      { seed: 20261201, numRuns: 300 },
    );
  });
});

/** A union ceiling (what a signed-in user's matching rules grant): 0 to 3 scopes, each anchored like a ceiling. */
const unionCaseArb = inputArb.chain((input) =>
  fc.array(specArb(input, ["zz"], null), { maxLength: 3 }).chain((grants) =>
    fc.record({
      input: fc.constant(input),
      grants: fc.constant(grants),
      request: fc.oneof(
        { weight: 2, arbitrary: fc.constant<ScopeSpec>({}) },
        { weight: 3, arbitrary: specArb(input, ["zz"], grants[0] ?? null) },
      ),
      uris: fc.array(uriArb, { minLength: 1, maxLength: 15 }),
    }),
  ),
);

describe("union ceilings over generated shelves", () => {
  test("a union admits exactly what one of its scopes admits in that library, and a request narrows inside it", () => {
    fc.assert(
      fc.property(unionCaseArb, ({ input, grants, request, uris }) => {
        const shelf = buildInput(input);
        const compiled = compileScope(shelf, { anyOf: grants }, request);
        if (!compiled.ok) {
          expect(compiled.message).toMatch(/^Scope refused: .*\.$/);
          return;
        }
        const scope = compiled.scope;
        const granted = (lib: string, id: string): boolean => {
          const meta = shelf.plugins.get(id)?.meta;
          if (meta === undefined) return false;
          const byGrant = grants.some((g) => (g.library === undefined || g.library === lib) && matches(g, meta));
          return byGrant && (request.library === undefined || request.library === lib) && matches(request, meta);
        };
        // Every skill listed is granted in its library, and every granted skill is listed.
        const listed = listingRows(shelf, scope, true)
          .map((row) => row.uri)
          .filter((uri) => uri.endsWith("/SKILL.md"))
          .sort();
        const expected = [...shelf.libraries.values()]
          .flatMap((lib) =>
            [...lib.skills.values()].filter((skill) => granted(lib.name, skill.plugin)).map((skill) => `${skill.uri}/SKILL.md`),
          )
          .sort();
        expect(listed).toEqual(expected);
        // No read answers a file of a plugin the union does not grant in the library addressed.
        const problems: string[] = [];
        for (const uri of uris) {
          const answer = resolve(shelf, scope, uri);
          if (answer.kind !== "file" && answer.kind !== "fallback") continue;
          const owner = ownerOf(answer.kind === "file" ? answer.file.disk.abs : answer.disk.abs);
          const lib = addressedLibrary(answer.uri) ?? "";
          if (!granted(lib, owner)) problems.push(`${answer.uri}: a file of ${owner}, not granted in ${lib}`);
        }
        expect(problems).toEqual([]);
      }),
      { seed: 20261202, numRuns: 400 },
    );
  });
});
