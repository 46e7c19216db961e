// buildShelf over harvests written in the test body (no disk): the exact rows a library is made of when plugins
// are missing, overlap three deep, keep SKILL.md bytes for lenient naming or placeholders, or were never parsed.
import { describe, expect, test } from "vitest";
import type { SkipRow } from "../../src/address/index.js";
import type { HarvestedFile, HarvestedPlugin, HarvestedSkill } from "../../src/harvest/index.js";
import type { ParsedPrompt } from "../../src/prompts/index.js";
import { buildShelf, type LibraryPlan } from "../../src/shelf/build.js";
import { parsePluginPrompts } from "../../src/shelf/prompts.js";
import { compileSelector } from "../../src/shelf/select.js";
import type { Library } from "../../src/shelf/types.js";
import { sha256 } from "../support/digest.js";

const ENCODER = new TextEncoder();
const DECODER = new TextDecoder();
const sha = sha256;

function diskFile(path: string, content: string | Uint8Array, options: { keep?: boolean; binary?: boolean } = {}): HarvestedFile {
  const bytes = typeof content === "string" ? ENCODER.encode(content) : content;
  return {
    path,
    abs: `/plugins/${path}`,
    size: bytes.byteLength,
    mtimeMs: 1,
    digest: sha(bytes),
    text: options.binary !== true,
    ...(options.keep === true ? { bytes } : {}),
  };
}

interface SkillShape {
  readonly dir: string;
  readonly address: readonly string[];
  /** The SKILL.md text; a `name:` / `description:` head by default. */
  readonly text?: string;
  /** The SKILL.md bytes when they are not UTF-8, with the offset of the body. */
  readonly raw?: { readonly bytes: Uint8Array; readonly bodyOffset: number };
  readonly frontmatter?: Readonly<Record<string, unknown>>;
  readonly files?: readonly HarvestedFile[];
  readonly placeholders?: boolean;
  readonly keep?: boolean;
  readonly servedName?: string;
  readonly servedDescription?: string;
}

function skill(shape: SkillShape): HarvestedSkill {
  const name = shape.address[shape.address.length - 1] ?? "";
  const text = shape.text ?? `---\nname: ${name}\ndescription: The ${name} skill.\n---\n# ${name}\n`;
  const bodyOffset = shape.raw?.bodyOffset ?? ENCODER.encode(text.slice(0, text.indexOf("\n---\n") + 5)).byteLength;
  return {
    dir: shape.dir,
    address: shape.address,
    name,
    description: `The ${name} skill.`,
    frontmatter: shape.frontmatter ?? { name, description: `The ${name} skill.` },
    skillMd: diskFile(`${shape.dir}/SKILL.md`, shape.raw?.bytes ?? text, { keep: shape.keep === true }),
    bodyOffset,
    cites: [],
    placeholders: shape.placeholders === true,
    files: shape.files ?? [],
    ...(shape.servedName === undefined ? {} : { servedName: shape.servedName }),
    ...(shape.servedDescription === undefined ? {} : { servedDescription: shape.servedDescription }),
  };
}

function prompt(stem: string): ParsedPrompt {
  return {
    stem,
    path: `commands/${stem}.md`,
    dialect: "skillshelf",
    description: stem,
    arguments: [],
    defaults: new Map(),
    segments: [{ kind: "text", text: stem }],
  };
}

interface PluginShape {
  readonly skills?: readonly HarvestedSkill[];
  readonly files?: readonly HarvestedFile[];
  readonly skillDirs?: readonly string[];
  /** Stems of parsed prompts; absent: the plugin's prompts were never parsed. */
  readonly prompts?: readonly string[];
}

function plugin(id: string, shape: PluginShape): HarvestedPlugin {
  const skills = shape.skills ?? [];
  return {
    id,
    meta: { description: "", tags: [], keywords: [] },
    fetch: id,
    root: "",
    status: "ok",
    skills,
    libraryFiles: shape.files ?? [],
    tree: new Map(),
    skillDirs: shape.skillDirs ?? skills.map((s) => s.dir),
    prompts: [],
    skipped: [],
    ...(shape.prompts === undefined ? {} : { parsedPrompts: shape.prompts.map(prompt) }),
  };
}

function library(plugins: HarvestedPlugin[], plan: Partial<LibraryPlan> = {}): Library {
  const shelf = buildShelf({
    generation: 1,
    built: "2026-11-30T00:00:00.000Z",
    libraries: [{ name: "lib", description: "", plugins: plugins.map((p) => p.id), ...plan }],
    plugins,
    fetches: new Map(),
  });
  return shelf.libraries.get("lib") as Library;
}

/** Each served address => the plugin serving it, sorted by address. */
const owners = (map: ReadonlyMap<string, { readonly plugin?: string }>): [string, string | undefined][] =>
  [...map].map(([key, value]): [string, string | undefined] => [key, value.plugin]).sort((a, b) => (a[0] < b[0] ? -1 : 1));

describe("what a library is made of", () => {
  test("a plan naming a plugin that was not harvested serves the others", () => {
    const kit = plugin("kit", { skills: [skill({ dir: "skills/one", address: ["one"] })], prompts: [] });
    const lib = library([kit], { plugins: ["ghost", "kit"] });
    expect(lib.plugins).toEqual(["ghost", "kit"]);
    expect(lib.served).toEqual(["kit"]);
    expect(lib.conflicts).toEqual([]);
    expect([...lib.skills.keys()]).toEqual(["one"]);
  });

  test("skill addresses: every skill directory's (served or not) and every served skill's, joined by '/'", () => {
    const kit = plugin("kit", {
      // Served under its frontmatter name, so its address is not its directory's.
      skills: [skill({ dir: "skills/ops/loki-dir", address: ["ops", "loki"] })],
      skillDirs: ["skills/ops/loki-dir", "skills/ops/broken/deep"],
    });
    expect([...library([kit]).skillAddresses].sort()).toEqual(["ops/broken/deep", "ops/loki", "ops/loki-dir"]);
  });

  test("plugins whose prompts were never parsed serve none and claim none", () => {
    const a = plugin("a", { skills: [skill({ dir: "skills/one", address: ["one"] })] });
    const b = plugin("b", { skills: [skill({ dir: "skills/two", address: ["two"] })] });
    const lib = library([a, b], { conflicts: "drop-plugin" });
    expect(lib.served).toEqual(["a", "b"]);
    expect(lib.conflicts).toEqual([]);
    expect(lib.prompts.size).toBe(0);
  });
});

describe("keep-first over three plugins: what a later plugin lost stays with the plugin that holds it", () => {
  const first = plugin("first", {
    skills: [
      skill({ dir: "skills/a", address: ["a"] }),
      skill({ dir: "skills/a/inner", address: ["a", "inner"] }),
      skill({ dir: "skills/f/x", address: ["f", "x"] }),
    ],
    files: [diskFile("shared/guide.md", "first guide")],
    prompts: ["review"],
  });
  const second = plugin("second", {
    skills: [
      skill({ dir: "skills/a", address: ["a"] }),
      skill({ dir: "skills/f", address: ["f"] }),
      skill({ dir: "skills/g/y", address: ["g", "y"] }),
    ],
    files: [
      diskFile("a/inner/x.md", "inside the inner skill"),
      diskFile("a/notes.md", "inside skill a"),
      diskFile("f/z.md", "beside f/x"),
      diskFile("shared/guide.md", "second guide"),
    ],
    prompts: ["review", "ship"],
  });
  const third = plugin("third", {
    skills: [
      skill({ dir: "skills/a", address: ["a"] }),
      skill({ dir: "skills/f", address: ["f"] }),
      skill({ dir: "skills/g", address: ["g"] }),
    ],
    files: [diskFile("a/notes.md", "again"), diskFile("shared/guide.md", "third guide")],
    prompts: ["review"],
  });
  test("each plugin's clashes name the plugin that holds the address, never one that lost it", () => {
    const lib = library([first, second, third]);
    const rest = "serves the rest in library 'lib' without what collides: ";
    expect(lib.conflicts).toEqual([
      {
        plugin: "second",
        message:
          rest +
          "prompt lib_review is already served by plugin 'first' (the same command); " +
          "skill://lib/a/SKILL.md is already served by plugin 'first'; " +
          "skill://lib/f would hold addresses plugin 'first' serves; " +
          "skill://lib/a/inner/x.md lies inside skill skill://lib/a of plugin 'first'; " +
          "skill://lib/a/notes.md lies inside skill skill://lib/a of plugin 'first'; " +
          "skill://lib/shared/guide.md is already served by plugin 'first'",
      },
      {
        plugin: "third",
        message:
          rest +
          "prompt lib_review is already served by plugin 'first' (the same command); " +
          "skill://lib/a/SKILL.md is already served by plugin 'first'; " +
          "skill://lib/f would hold addresses plugin 'first' serves; " +
          "skill://lib/g would hold addresses plugin 'second' serves; " +
          "skill://lib/a/notes.md lies inside skill skill://lib/a of plugin 'first'; " +
          "skill://lib/shared/guide.md is already served by plugin 'first'",
      },
    ]);
  });

  test("the served rows: a lost file inside another plugin's skill is not served", () => {
    const lib = library([first, second, third]);
    expect(lib.served).toEqual(["first", "second", "third"]);
    expect(owners(lib.skills)).toEqual([
      ["a", "first"],
      ["a/inner", "first"],
      ["f/x", "first"],
      ["g/y", "second"],
    ]);
    expect(owners(lib.files)).toEqual([
      ["f/z.md", "second"],
      ["shared/guide.md", "first"],
    ]);
    expect(owners(lib.prompts)).toEqual([
      ["lib_review", "first"],
      ["lib_ship", "second"],
    ]);
  });
});

describe("served files", () => {
  const ref = diskFile("ref.md", "ref");
  const script = diskFile("run.py", "print(1)");
  const logo = diskFile("logo.png", "\u0089PNG", { binary: true });
  const upper = diskFile("A.md", "A");
  const under = diskFile("_x.md", "x");
  const nested = diskFile("inner/SKILL.md", "---\nname: inner\ndescription: The inner skill.\n---\n# inner\n");
  const guide = diskFile("docs/guide.txt", "guide");
  const outer = skill({ dir: "skills/outer", address: ["outer"], files: [ref, script, logo, upper, under, nested] });
  const inner = skill({ dir: "skills/outer/inner", address: ["outer", "inner"] });
  // Built in each test body, where a mutation run sees the code each test reaches.
  const build = () => library([plugin("kit", { skills: [outer, inner], files: [guide] })]);

  test("each file is served with its harvested size, digest and text flag, its media type, and the harvested file", () => {
    const lib = build();
    const files = lib.skills.get("outer")?.files;
    expect(files?.get("ref.md")).toStrictEqual({ size: 3, digest: ref.digest, mimeType: "text/markdown", text: true, disk: ref });
    expect(files?.get("ref.md")?.disk).toBe(ref);
    expect(files?.get("run.py")).toStrictEqual({ size: 8, digest: script.digest, mimeType: "text/x-python", text: true, disk: script });
    expect(files?.get("logo.png")).toStrictEqual({ size: 5, digest: logo.digest, mimeType: "image/png", text: false, disk: logo });
    expect(lib.files.get("docs/guide.txt")).toStrictEqual({
      plugin: "kit",
      path: "docs/guide.txt",
      file: { size: 5, digest: guide.digest, mimeType: "text/plain", text: true, disk: guide },
    });
  });

  test("SKILL.md is Markdown served from disk; a nested one in the outer skill is the nested skill's", () => {
    const lib = build();
    const skillMd = outer.skillMd;
    expect(lib.skills.get("outer")?.files.get("SKILL.md")).toStrictEqual({
      size: skillMd.size,
      digest: skillMd.digest,
      mimeType: "text/markdown",
      text: true,
      disk: skillMd,
    });
    expect(lib.skills.get("outer")?.files.get("inner/SKILL.md")).toBe(lib.skills.get("outer/inner")?.files.get("SKILL.md"));
  });

  test("paths are in code-unit order whatever order harvest gave", () => {
    const lib = build();
    expect(lib.skills.get("outer")?.paths).toEqual(["A.md", "SKILL.md", "_x.md", "inner/SKILL.md", "logo.png", "ref.md", "run.py"]);
  });

  test("the skill row: its URI, library, plugin, address, names, directory, and the frontmatter object itself", () => {
    const lib = build();
    const served = lib.skills.get("outer/inner");
    expect(served).toMatchObject({
      uri: "skill://lib/outer/inner",
      library: "lib",
      plugin: "kit",
      address: ["outer", "inner"],
      name: "inner",
      description: "The inner skill.",
      dir: "skills/outer/inner",
      paths: ["SKILL.md"],
    });
    // Nothing to rewrite: the harvested mapping is shared, not copied per library.
    expect(served?.frontmatter).toBe(inner.frontmatter);
  });
});

interface SkillMdRow {
  readonly title: string;
  readonly text: string;
  readonly keep: boolean;
  readonly placeholders?: boolean;
  readonly servedName?: string;
  readonly servedDescription?: string;
  /** The served bytes; absent: served from disk as harvested. */
  readonly served?: string;
  readonly frontmatter: Readonly<Record<string, unknown>>;
}

const HEAD = "---\nname: Loki Tools\ndescription: Uses ${CLAUDE_PLUGIN_ROOT} here.\n---\n";
const FM = { name: "Loki Tools", description: "Uses ${CLAUDE_PLUGIN_ROOT} here." };

describe("SKILL.md as one library serves it", () => {
  test.each<SkillMdRow>([
    { title: "nothing to change", text: `${HEAD}# Loki\n`, keep: false, frontmatter: FM },
    { title: "bytes kept but nothing to change", text: `${HEAD}# Loki\n`, keep: true, frontmatter: FM },
    {
      title: "placeholders without kept bytes",
      text: `${HEAD}See \${CLAUDE_SKILL_DIR}/a.md\n`,
      keep: false,
      placeholders: true,
      frontmatter: FM,
    },
    {
      title: "placeholders",
      text: `${HEAD}See \${CLAUDE_SKILL_DIR}/a.md and \${CLAUDE_PLUGIN_ROOT}/b.md\n`,
      keep: true,
      placeholders: true,
      served: `${HEAD}See skill://lib/ops/loki/a.md and skill://lib/b.md\n`,
      frontmatter: FM,
    },
    {
      title: "a served name",
      text: `${HEAD}# Loki\n`,
      keep: true,
      servedName: "loki-tools",
      served: "---\nname: loki-tools\ndescription: Uses ${CLAUDE_PLUGIN_ROOT} here.\n---\n# Loki\n",
      frontmatter: { ...FM, name: "loki-tools" },
    },
    {
      title: "a served description",
      text: `${HEAD}# Loki\n`,
      keep: true,
      servedDescription: "Short.",
      served: '---\nname: Loki Tools\ndescription: "Short."\n---\n# Loki\n',
      frontmatter: { ...FM, description: "Short." },
    },
    {
      title: "a served name and placeholders: the body moved by the new name is still the one substituted",
      text: `${HEAD}See \${CLAUDE_SKILL_DIR}/a.md\n`,
      keep: true,
      placeholders: true,
      servedName: "loki",
      served: "---\nname: loki\ndescription: Uses ${CLAUDE_PLUGIN_ROOT} here.\n---\nSee skill://lib/ops/loki/a.md\n",
      frontmatter: { ...FM, name: "loki" },
    },
    {
      title: "a served name the file gives no place for: the bytes as on disk",
      text: "---\ntitle: Loki Tools\n---\n# Loki\n",
      keep: true,
      servedName: "loki",
      served: "---\ntitle: Loki Tools\n---\n# Loki\n",
      frontmatter: { ...FM, name: "loki" },
    },
  ])("$title", ({ text, keep, placeholders, servedName, servedDescription, served, frontmatter }) => {
    const harvested = skill({
      dir: "skills/ops/loki",
      address: ["ops", "loki"],
      text,
      frontmatter: FM,
      keep,
      placeholders: placeholders === true,
      ...(servedName === undefined ? {} : { servedName }),
      ...(servedDescription === undefined ? {} : { servedDescription }),
    });
    const row = library([plugin("kit", { skills: [harvested] })]).skills.get("ops/loki");
    const skillMd = harvested.skillMd;
    if (served === undefined) {
      expect(row?.files.get("SKILL.md")).toStrictEqual({
        size: skillMd.size,
        digest: skillMd.digest,
        mimeType: "text/markdown",
        text: true,
        disk: skillMd,
      });
    } else {
      const bytes = ENCODER.encode(served);
      const file = row?.files.get("SKILL.md");
      expect(DECODER.decode(file?.bytes)).toBe(served);
      expect(file).toStrictEqual({
        size: bytes.byteLength,
        digest: sha(bytes),
        mimeType: "text/markdown",
        text: true,
        disk: skillMd,
        bytes,
      });
    }
    expect(row?.frontmatter).toEqual(frontmatter);
  });
});

/** The UTF-8 bytes of each string part, and each number as one byte: `bytes("caf", 0xe9)` is Latin-1 "café". */
function bytes(...parts: (string | number)[]): Uint8Array {
  return Uint8Array.from(parts.flatMap((part) => (typeof part === "number" ? [part] : [...ENCODER.encode(part)])));
}

describe("SKILL.md bytes that are not UTF-8 stay as on disk wherever nothing is rewritten", () => {
  test.each([
    {
      title: "placeholders substituted: the frontmatter is the file's bytes",
      head: bytes("---\nname: loki\n# caf", 0xe9, "\ndescription: d\n---\n"),
      body: "See ${CLAUDE_SKILL_DIR}/a.md\n",
      placeholders: true,
      served: bytes("---\nname: loki\n# caf", 0xe9, "\ndescription: d\n---\n", "See skill://lib/ops/loki/a.md\n"),
    },
    {
      title: "a served name without placeholders: the body is the file's bytes",
      head: bytes("---\nname: Loki Tools\ndescription: d\n---\n"),
      body: bytes("caf", 0xe9, "\n"),
      servedName: "loki",
      served: bytes("---\nname: loki\ndescription: d\n---\n", "caf", 0xe9, "\n"),
    },
  ])("$title", ({ head, body, placeholders, servedName, served }) => {
    const tail = typeof body === "string" ? ENCODER.encode(body) : body;
    const harvested = skill({
      dir: "skills/ops/loki",
      address: ["ops", "loki"],
      raw: { bytes: Uint8Array.from([...head, ...tail]), bodyOffset: head.byteLength },
      keep: true,
      placeholders: placeholders === true,
      ...(servedName === undefined ? {} : { servedName }),
    });
    const file = library([plugin("kit", { skills: [harvested] })])
      .skills.get("ops/loki")
      ?.files.get("SKILL.md");
    expect(file?.bytes).toEqual(served);
    expect(file?.size).toBe(served.byteLength);
    expect(file?.digest).toBe(sha(served));
  });
});

describe("parsePluginPrompts", () => {
  const base = plugin("kit", {});
  const file = (path: string, text: string) => ({ path, text, command: false });

  test("without a dialect a plugin's prompts are read as auto: a command without frontmatter is its whole body", () => {
    const parsed = parsePluginPrompts({ ...base, prompts: [file("commands/fix.md", "Fix $ARGUMENTS now.\n")] });
    expect(parsed.parsedPrompts?.map((p) => [p.stem, p.dialect])).toEqual([["fix", "claude"]]);
    expect(parsed.skipped).toEqual([]);
  });

  test("a configured dialect is the one every prompt file is read in", () => {
    const text = "---\narguments:\n  - name: topic\n---\nFix {{ topic }}.\n";
    const parsed = parsePluginPrompts({ ...base, dialect: "skillshelf", prompts: [file("commands/fix.md", text)] });
    expect(parsed.parsedPrompts?.map((p) => [p.stem, p.dialect])).toEqual([["fix", "skillshelf"]]);
    expect(parsed.skipped).toEqual([]);
  });

  test("prompt skip rows join the harvest's in path order; without any, the harvest's rows are kept as they are", () => {
    const skipped: SkipRow[] = [
      { path: "a.md", reason: "first" },
      { path: "z.md", reason: "last" },
    ];
    const bad = file("commands/bad.md", "---\ndescription: [unclosed\n---\nBad.\n");
    const merged = parsePluginPrompts({ ...base, skipped, prompts: [bad] }).skipped;
    expect(merged.map((row) => row.path)).toEqual(["a.md", "commands/bad.md", "z.md"]);
    const clean = parsePluginPrompts({ ...base, skipped, prompts: [file("commands/ok.md", "OK.\n")] });
    expect(clean.skipped).toBe(skipped);
  });
});

describe("compileSelector", () => {
  const meta = (category?: string, tags: string[] = []) => ({
    description: "",
    tags,
    keywords: [],
    ...(category === undefined ? {} : { category }),
  });
  test.each([
    { spec: { categories: ["eng"] }, category: "eng", tags: [], matches: true },
    { spec: { categories: ["eng"] }, category: "docs", tags: [], matches: false },
    { spec: { categories: ["docs", "eng"] }, category: "eng", tags: [], matches: true },
    { spec: { categories: ["eng"] }, category: undefined, tags: [], matches: false },
    { spec: { tags: ["oncall"] }, category: undefined, tags: ["oncall"], matches: true },
    { spec: { tags: ["oncall"] }, category: "eng", tags: ["runbooks"], matches: false },
    { spec: {}, category: undefined, tags: [], matches: true },
  ])("$spec over category $category, tags $tags => $matches", ({ spec, category, tags, matches }) => {
    expect(compileSelector(spec)(meta(category, tags))).toBe(matches);
  });
});
