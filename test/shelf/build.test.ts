// The pure shelf build over real harvests of small trees: conflicts between plugins of one library, per-library
// placeholder substitution and digests, nested skills in the outer manifest, prompts, selectors and citations.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { type HarvestedPlugin, harvestPlugin, type PluginMeta } from "../../src/harvest/index.js";
import { buildShelf, type LibraryPlan } from "../../src/shelf/build.js";
import { auditCitations, buildHealth } from "../../src/health/index.js";
import { parsePluginPrompts } from "../../src/shelf/prompts.js";
import { selectLibraryPlugins } from "../../src/shelf/select.js";
import { sha256 } from "../support/digest.js";

const root = mkdtempSync(path.join(tmpdir(), "skillshelf-build-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const skillMd = (name: string, body = `# ${name}\n`): string => `---\nname: ${name}\ndescription: The ${name} skill.\n---\n${body}`;

async function plugin(
  id: string,
  files: Record<string, string>,
  options: { files?: string[]; meta?: Partial<PluginMeta> } = {},
): Promise<HarvestedPlugin> {
  const dir = path.join(root, id);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  const harvested = await harvestPlugin({
    id,
    meta: { description: "", tags: [], keywords: [], ...options.meta },
    fetch: `./${id}`,
    root: "",
    rootAbs: dir,
    ...(options.files === undefined ? {} : { files: options.files }),
    limits: { fileBytes: 1 << 20 },
  });
  return parsePluginPrompts(harvested);
}

function build(plugins: HarvestedPlugin[], libraries: LibraryPlan[]) {
  return buildShelf({ generation: 1, built: "2026-11-30T00:00:00.000Z", libraries, plugins, fetches: new Map() });
}

const sha = sha256;

interface ConflictRow {
  readonly title: string;
  readonly later: Record<string, string>;
  readonly laterFiles?: { readonly files?: string[]; readonly skills?: string[] };
  readonly message: string;
}

describe("conflicts between plugins of one library (§3.7)", () => {
  test.each<ConflictRow>([
    {
      title: "the same skill address",
      later: { "skills/loki/SKILL.md": skillMd("loki") },
      message: "dropped from library 'lib': skill://lib/loki/SKILL.md is already served by plugin 'first'",
    },
    {
      title: "a skill nested in another plugin's skill",
      later: { "skills/loki/inner/SKILL.md": skillMd("inner") },
      message: "dropped from library 'lib': skill://lib/loki/inner lies inside skill skill://lib/loki of plugin 'first'",
    },
    {
      title: "a skill that would hold another plugin's files",
      later: { "SKILL.md": skillMd("guides") },
      laterFiles: { skills: ["SKILL.md"] },
      message: "dropped from library 'lib': skill://lib/guides would hold addresses plugin 'first' serves",
    },
    {
      title: "a library file inside another plugin's skill",
      later: { "loki/notes.md": "notes" },
      laterFiles: { files: ["loki/**"] },
      message: "dropped from library 'lib': skill://lib/loki/notes.md lies inside skill skill://lib/loki of plugin 'first'",
    },
    {
      title: "the same library file",
      later: { "guides/intro.md": "other intro" },
      laterFiles: { files: ["guides/**"] },
      message: "dropped from library 'lib': skill://lib/guides/intro.md is already served by plugin 'first'",
    },
    {
      title: "the same prompt name",
      later: { "commands/review.md": "---\ndescription: again\n---\nReview again.\n" },
      message: "dropped from library 'lib': prompt lib_review is already served by plugin 'first'",
    },
  ])("$title drops the later plugin whole", async ({ title, later, laterFiles, message }) => {
    const slug = title.replace(/\W+/g, "-");
    const first = await plugin(
      `first-${slug}`.slice(0, 60).replace(/-$/, ""),
      {
        "skills/loki/SKILL.md": skillMd("loki"),
        "skills/guides-skill/SKILL.md": skillMd("guides-skill"),
        "guides/intro.md": "intro",
        "commands/review.md": "---\ndescription: Review\n---\nReview $ARGUMENTS\n",
      },
      { files: ["guides/**"] },
    );
    const firstId = first.id;
    const second = await plugin(
      `second-${slug}`.slice(0, 60).replace(/-$/, ""),
      { ...later, "skills/extra/SKILL.md": skillMd("extra") },
      laterFiles?.files ? { files: laterFiles.files } : {},
    );
    const withSkills = laterFiles?.skills
      ? await harvestPlugin({
          id: second.id,
          meta: second.meta,
          fetch: second.fetch,
          root: "",
          rootAbs: path.join(root, second.id),
          skills: laterFiles.skills,
          limits: { fileBytes: 1 << 20 },
        })
      : second;
    const shelf = build(
      [first, withSkills],
      [{ name: "lib", description: "", plugins: [firstId, withSkills.id], conflicts: "drop-plugin" }],
    );
    const library = shelf.libraries.get("lib");
    expect(library?.served).toEqual([firstId]);
    expect(library?.conflicts).toEqual([{ plugin: withSkills.id, message: message.replaceAll("'first'", `'${firstId}'`) }]);
    expect(library?.skills.has("extra")).toBe(false);
    // The same plugin still serves in a library of its own.
    const alone = build([first, withSkills], [{ name: "solo", description: "", plugins: [withSkills.id] }]);
    expect(alone.libraries.get("solo")?.served).toEqual([withSkills.id]);
  });
});

test("every colliding address of a dropped plugin is named, not only the first", async () => {
  const first = await plugin("first-many", {
    "skills/a/SKILL.md": skillMd("a"),
    "skills/b/SKILL.md": skillMd("b"),
    "commands/review.md": "---\ndescription: Review\n---\nReview.\n",
  });
  const second = await plugin("second-many", {
    "skills/a/SKILL.md": skillMd("a"),
    "skills/b/SKILL.md": skillMd("b"),
    "skills/unique/SKILL.md": skillMd("unique"),
    "commands/review.md": "---\ndescription: Again\n---\nAgain.\n",
  });
  const shelf = build([first, second], [{ name: "lib", description: "", plugins: [first.id, second.id], conflicts: "drop-plugin" }]);
  expect(shelf.libraries.get("lib")?.conflicts).toEqual([
    {
      plugin: "second-many",
      message:
        "dropped from library 'lib': prompt lib_review is already served by plugin 'first-many'; " +
        "skill://lib/a/SKILL.md is already served by plugin 'first-many'; skill://lib/b/SKILL.md is already served by plugin 'first-many'",
    },
  ]);
  expect(shelf.libraries.get("lib")?.skills.has("unique")).toBe(false);
});

test("keep-first (the default): the earlier plugin keeps each contested address and the later one serves the rest", async () => {
  const first = await plugin(
    "first-keep",
    {
      "skills/a/SKILL.md": skillMd("a"),
      "skills/b/SKILL.md": skillMd("b"),
      "commands/review.md": "---\ndescription: Review\n---\nReview.\n",
      "shared/guide.md": "first guide",
    },
    { files: ["shared/**"] },
  );
  const second = await plugin(
    "second-keep",
    {
      "skills/a/SKILL.md": skillMd("a", "second's a"),
      "skills/b/inner/SKILL.md": skillMd("inner"),
      "skills/unique/SKILL.md": skillMd("unique"),
      "commands/review.md": "---\ndescription: Again\n---\nAgain.\n",
      "commands/ship.md": "---\ndescription: Ship\n---\nShip.\n",
      "shared/guide.md": "second guide",
      "shared/extra.md": "extra",
    },
    { files: ["shared/**"] },
  );
  const shelf = build([first, second], [{ name: "lib", description: "", plugins: [first.id, second.id] }]);
  const library = shelf.libraries.get("lib");
  expect(library?.served).toEqual(["first-keep", "second-keep"]);
  expect(library?.conflicts).toEqual([
    {
      plugin: "second-keep",
      message:
        "serves the rest in library 'lib' without what collides: prompt lib_review is already served by plugin 'first-keep', " +
        "so this plugin's different prompt is served as lib_second-keep.review; " +
        "skill://lib/a/SKILL.md is already served by plugin 'first-keep'; " +
        "skill://lib/b/inner lies inside skill skill://lib/b of plugin 'first-keep'; " +
        "skill://lib/shared/guide.md is already served by plugin 'first-keep'",
    },
  ]);
  expect([...(library?.skills.keys() ?? [])].sort()).toEqual(["a", "b", "unique"]);
  expect(library?.skills.get("a")?.plugin).toBe("first-keep");
  expect(library?.skills.get("unique")?.plugin).toBe("second-keep");
  // A different command of the same name still reaches the model, under a name that says whose it is.
  expect([...(library?.prompts.keys() ?? [])].sort()).toEqual(["lib_review", "lib_second-keep.review", "lib_ship"]);
  expect(library?.prompts.get("lib_review")?.plugin).toBe("first-keep");
  expect(library?.prompts.get("lib_second-keep.review")).toMatchObject({
    plugin: "second-keep",
    description: "Again",
    path: "commands/review.md",
  });
  expect(library?.files.get("shared/guide.md")?.plugin).toBe("first-keep");
  expect(library?.files.get("shared/extra.md")?.plugin).toBe("second-keep");
  // The contested addresses stay skill addresses of the library, so no fallback read uncovers the lost copies.
  expect(library?.skillAddresses.has("b/inner")).toBe(true);
});

describe("per-library SKILL.md substitution (§2.3)", () => {
  test("placeholders in the body become the library's addresses; the frontmatter is verbatim; digests follow the bytes", async () => {
    const body = "Read ${CLAUDE_PLUGIN_ROOT}/shared/a.md and ${CLAUDE_SKILL_DIR}/ref.md.\n";
    const raw = `---\nname: loki\ndescription: "Uses ${"${CLAUDE_PLUGIN_ROOT}"} in frontmatter"\n---\n${body}`;
    const kit = await plugin(
      "subst",
      { "skills/obs/loki/SKILL.md": raw, "skills/obs/loki/ref.md": "ref", "shared/a.md": "a" },
      { files: ["shared/**"] },
    );
    const shelf = build(
      [kit],
      [
        { name: "one", description: "", plugins: ["subst"] },
        { name: "two", description: "", plugins: ["subst"] },
      ],
    );
    for (const lib of ["one", "two"]) {
      const served = shelf.libraries.get(lib)?.skills.get("obs/loki")?.files.get("SKILL.md");
      const expected = `---\nname: loki\ndescription: "Uses \${CLAUDE_PLUGIN_ROOT} in frontmatter"\n---\nRead skill://${lib}/shared/a.md and skill://${lib}/obs/loki/ref.md.\n`;
      expect(new TextDecoder().decode(served?.bytes)).toBe(expected);
      expect(served?.size).toBe(Buffer.byteLength(expected));
      expect(served?.digest).toBe(sha(expected));
    }
    expect(auditCitations(shelf).size).toBe(0);
  });

  test("{baseDir} is substituted as the skill's folder, like ${CLAUDE_SKILL_DIR}, and its citations resolve", async () => {
    const body = "Read `{baseDir}/references/x.md`.\n\n```bash\npython3 {baseDir}/scripts/run.py\n```\nAnd {baseDir}/gone.md.\n";
    const kit = await plugin("basedir", {
      "skills/audit/SKILL.md": skillMd("audit", body),
      "skills/audit/references/x.md": "x",
      "skills/audit/scripts/run.py": "print(1)",
    });
    const shelf = build([kit], [{ name: "lib", description: "", plugins: ["basedir"] }]);
    const served = shelf.libraries.get("lib")?.skills.get("audit")?.files.get("SKILL.md");
    expect(new TextDecoder().decode(served?.bytes)).toBe(
      skillMd(
        "audit",
        "Read `skill://lib/audit/references/x.md`.\n\n```bash\npython3 skill://lib/audit/scripts/run.py\n```\nAnd skill://lib/audit/gone.md.\n",
      ),
    );
    expect(buildHealth(shelf).plugins["basedir"]?.dangling).toEqual([{ skill: "skill://lib/audit/SKILL.md", cites: "{baseDir}/gone.md" }]);
  });

  test("a plugin-root path into a served skill is read at the skill's address, and its citation resolves", async () => {
    const body = [
      "Read ${CLAUDE_PLUGIN_ROOT}/skills/pdf/references/x.md and ${CLAUDE_PLUGIN_ROOT}/skills/tools/xlsx/y.md.",
      "Shared: ${CLAUDE_PLUGIN_ROOT}/shared/a.md. Gone: ${CLAUDE_PLUGIN_ROOT}/skills/pdf/gone.md",
      "The variable `${CLAUDE_PLUGIN_ROOT}` names the plugin root.",
      "",
    ].join("\n");
    const kit = await plugin(
      "rooted",
      {
        "skills/pdf/SKILL.md": skillMd("pdf", body),
        "skills/pdf/references/x.md": "x",
        "skills/tools/xlsx/SKILL.md": skillMd("xlsx"),
        "skills/tools/xlsx/y.md": "y",
        "shared/a.md": "a",
      },
      { files: ["shared/**"] },
    );
    const shelf = build([kit], [{ name: "lib", description: "", plugins: ["rooted"] }]);
    const served = shelf.libraries.get("lib")?.skills.get("pdf")?.files.get("SKILL.md");
    const expected = [
      "Read skill://lib/pdf/references/x.md and skill://lib/tools/xlsx/y.md.",
      "Shared: skill://lib/shared/a.md. Gone: skill://lib/pdf/gone.md",
      "The variable `${CLAUDE_PLUGIN_ROOT}` names the plugin root.",
      "",
    ].join("\n");
    expect(new TextDecoder().decode(served?.bytes)).toBe(skillMd("pdf", expected));
    expect(buildHealth(shelf).plugins["rooted"]?.dangling).toEqual([
      { skill: "skill://lib/pdf/SKILL.md", cites: "${CLAUDE_PLUGIN_ROOT}/skills/pdf/gone.md" },
    ]);
  });

  test("a nested skill's SKILL.md in the outer skill is the nested skill's served bytes", async () => {
    const kit = await plugin("nested", {
      "skills/outer/SKILL.md": skillMd("outer"),
      "skills/outer/inner/SKILL.md": skillMd("inner", "See ${CLAUDE_SKILL_DIR}/x.md\n"),
      "skills/outer/inner/x.md": "x",
    });
    const shelf = build([kit], [{ name: "lib", description: "", plugins: ["nested"] }]);
    const skills = shelf.libraries.get("lib")?.skills;
    const inner = skills?.get("outer/inner")?.files.get("SKILL.md");
    expect(skills?.get("outer")?.files.get("inner/SKILL.md")).toBe(inner);
    expect(new TextDecoder().decode(inner?.bytes)).toContain("See skill://lib/outer/inner/x.md");
    expect(skills?.get("outer")?.paths).toEqual(["SKILL.md", "inner/SKILL.md", "inner/x.md"]);
  });
});

describe("citations (§3.6)", () => {
  test("every citation that answers not found is dangling, as written; URLs and anchors are not citations", async () => {
    const body = [
      "[ok](ref.md) [missing](nope.md) [anchor](#top) [web](https://example.com/x.md)",
      "[sibling](../other/SKILL.md) [gone](../ghost/SKILL.md)",
      "Run ${CLAUDE_SKILL_DIR}/run.sh, then read ${CLAUDE_PLUGIN_ROOT}/shared/missing.md.",
      "```",
      "[not a link](in-code.md)",
      "```",
      "",
    ].join("\n");
    const kit = await plugin("cites", {
      "skills/main/SKILL.md": skillMd("main", body),
      "skills/main/ref.md": "ref",
      "skills/main/run.sh": "echo",
      "skills/other/SKILL.md": skillMd("other"),
    });
    const shelf = build([kit], [{ name: "lib", description: "", plugins: ["cites"] }]);
    expect(buildHealth(shelf).plugins["cites"]?.dangling).toEqual([
      { skill: "skill://lib/main/SKILL.md", cites: "nope.md" },
      { skill: "skill://lib/main/SKILL.md", cites: "../ghost/SKILL.md" },
      { skill: "skill://lib/main/SKILL.md", cites: "${CLAUDE_PLUGIN_ROOT}/shared/missing.md" },
    ]);
  });
});

describe("library selection", () => {
  const metas = [
    { id: "a", meta: { description: "", category: "eng", tags: ["runbooks", "oncall"], keywords: [] } },
    { id: "b", meta: { description: "", category: "eng", tags: ["runbooks"], keywords: ["security"] } },
    { id: "c", meta: { description: "", category: "docs", tags: [], keywords: [] } },
  ];
  test.each([
    { plugins: ["c"], selector: undefined, expected: ["c"] },
    { plugins: [], selector: { categories: ["eng"], tags: [] }, expected: ["a", "b"] },
    { plugins: [], selector: { categories: [], tags: ["runbooks,oncall"] }, expected: ["a"] },
    { plugins: [], selector: { categories: [], tags: ["oncall", "security"] }, expected: ["a", "b"] },
    { plugins: ["c", "b"], selector: { categories: ["eng"], tags: [] }, expected: ["c", "b", "a"] },
  ])("plugins $plugins + selector $selector => $expected", ({ plugins, selector, expected }) => {
    expect(selectLibraryPlugins({ plugins, ...(selector === undefined ? {} : { pluginSelector: selector }) }, metas)).toEqual(expected);
  });
});

describe("rebuilding from the previous shelf", () => {
  test("a library whose plan and plugins' harvests are the same objects is kept; any other is built again", async () => {
    const a = await plugin("reuse-a", { "skills/one/SKILL.md": skillMd("one") });
    const b = await plugin("reuse-b", { "skills/two/SKILL.md": skillMd("two") });
    const plans: LibraryPlan[] = [
      { name: "first", description: "", plugins: ["reuse-a"] },
      { name: "second", description: "", plugins: ["reuse-b"] },
    ];
    const before = build([a, b], plans);
    const b2 = await plugin("reuse-b", { "skills/two/SKILL.md": skillMd("two", "# changed\n") });
    const after = buildShelf({
      generation: 2,
      built: "2026-11-30T00:00:01.000Z",
      libraries: plans,
      plugins: [a, b2],
      fetches: new Map(),
      previous: before,
    });
    expect(after.libraries.get("first")).toBe(before.libraries.get("first"));
    expect(after.libraries.get("second")).not.toBe(before.libraries.get("second"));
    // A changed plan (here the description) builds the library again even over the same harvests.
    const replanned = buildShelf({
      ...{ generation: 3, built: "x", plugins: [a, b2], fetches: new Map(), previous: after },
      libraries: [{ ...plans[0], description: "new" } as LibraryPlan, plans[1] as LibraryPlan],
    });
    expect(replanned.libraries.get("first")).not.toBe(after.libraries.get("first"));
    expect(replanned.libraries.get("first")?.description).toBe("new");
    expect(replanned.libraries.get("second")).toBe(after.libraries.get("second"));
    // A library of two plugins is built again when either one's harvest changed, not only when both did.
    const both: LibraryPlan[] = [{ name: "both", description: "", plugins: ["reuse-a", "reuse-b"] }];
    const first = build([a, b2], both);
    const b3 = await plugin("reuse-b", { "skills/two/SKILL.md": skillMd("two", "# changed again\n") });
    const next = buildShelf({ generation: 2, built: "y", libraries: both, plugins: [a, b3], fetches: new Map(), previous: first });
    expect(next.libraries.get("both")).not.toBe(first.libraries.get("both"));
    // A library the previous shelf did not have is built.
    const added = buildShelf({
      generation: 3,
      built: "y",
      libraries: [...both, { name: "fresh", description: "", plugins: ["reuse-a"] }],
      plugins: [a, b3],
      fetches: new Map(),
      previous: next,
    });
    expect(added.libraries.get("both")).toBe(next.libraries.get("both"));
    expect(added.libraries.get("fresh")?.skills.has("one")).toBe(true);
    // Without a previous shelf nothing is reused.
    expect(
      buildShelf({ generation: 1, built: "z", libraries: both, plugins: [a, b3], fetches: new Map() }).libraries.get("both"),
    ).toBeDefined();
  });
});

test("a plan's error and skipped entries are the library's; a plan without them has an empty skipped list", async () => {
  const a = await plugin("plan-carried", { "skills/one/SKILL.md": skillMd("one") });
  const skipped = [{ plugin: "x@market", reason: "Its repository is on https://example.com, which no declared git source serves." }];
  const shelf = build(
    [a],
    [
      {
        name: "broken",
        description: "",
        plugins: ["plan-carried"],
        error: "Plugin 'y@none' names library 'none', which has no marketplace.",
        skipped,
      },
      { name: "clean", description: "", plugins: ["plan-carried"] },
    ],
  );
  expect(shelf.libraries.get("broken")).toMatchObject({
    error: "Plugin 'y@none' names library 'none', which has no marketplace.",
    skipped,
  });
  expect(shelf.libraries.get("clean")?.skipped).toEqual([]);
  expect("error" in (shelf.libraries.get("clean") ?? {})).toBe(false);
  expect(shelf.libraries.get("clean")?.skills.has("one")).toBe(true);
});

test("parsePluginPrompts: prompt files that do not serve are skipped rows, merged with the harvest's in path order", async () => {
  const kit = await plugin("prompt-rows", {
    "skills/one/SKILL.md": skillMd("one"),
    "commands/good.md": "---\ndescription: Good\n---\nGood.\n",
    "commands/bad.md": "---\ndescription: [unclosed\n---\nBad.\n",
    "commands/zz.md": "---\ndescription: Later\n---\nLater.\n",
  });
  expect(kit.parsedPrompts?.map((prompt) => prompt.stem)).toEqual(["good", "zz"]);
  expect(kit.skipped.map((row) => row.path)).toEqual(["commands/bad.md"]);
  const clean = await plugin("prompt-clean", { "commands/good.md": "---\ndescription: Good\n---\nGood.\n" });
  expect(clean.skipped).toEqual([]);
  expect(parsePluginPrompts({ ...clean, dialect: undefined } as unknown as HarvestedPlugin).parsedPrompts?.length).toBe(1);
});
