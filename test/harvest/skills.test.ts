import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";

import { REASONS, rewrites } from "../../src/harvest/index.js";
import { harvest, makeTree, removeTrees, skillMd, skillsOf, type Tree } from "./fixture.js";
import { sha256 } from "../support/digest.js";

afterAll(removeTrees);

const MiB = 1024 * 1024;
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0xfe]);

describe("skills by convention, with adversarial names", () => {
  const tree: Tree = {
    "skills/pdf/SKILL.md": skillMd("pdf"),
    "skills/pdf/references/a b ü.md": "spaces and unicode",
    "skills/pdf/scripts/do..ts.md": "two dots are not a parent segment",
    "skills/pdf/assets/logo.png": PNG,
    "skills/pdf/assets/huge.bin": { sparse: 9 * MiB },
    "skills/pdf/.env": "SECRET=1",
    "skills/pdf/.cache/x.md": "hidden directory",
    "skills/pdf/.github/ci.yml": "on: push",
    "skills/pdf/node_modules/x/index.js": "never",
    "skills/pdf/_manifest": "shadowed",
    "skills/grafana-lgtm/loki/SKILL.md": skillMd("loki"),
    "skills/name.d/x/SKILL.md": skillMd("x"),
    "skills/name.dir/x/SKILL.md": skillMd("x"),
    "skills/ünï/SKILL.md": skillMd("ünï"),
    "skills/crlf/SKILL.md": "---\r\nname: crlf\r\ndescription: Windows line ends.\r\n---\r\n# crlf\r\n",
    "skills/bom/SKILL.md": "\uFEFF---\nname: bom\ndescription: A byte order mark.\n---\n# bom\n",
    "skills/lower/skill.md": skillMd("lower"),
    "skills/nofm/SKILL.md": "# no frontmatter\n",
    "skills/mismatch/SKILL.md": skillMd("other"),
    "skills/outer/SKILL.md": skillMd("outer"),
    "skills/outer/notes.md": "outer notes",
    "skills/outer/inner/SKILL.md": skillMd("inner"),
    "skills/outer/inner/ref.md": "inner ref",
    "skills/.hidden/SKILL.md": skillMd("hidden"),
    ".github/skills/gh/SKILL.md": skillMd("gh"),
    "docs/x/SKILL.md": skillMd("x"),
    ".git/config": "[core]",
    "node_modules/skills/y/SKILL.md": skillMd("y"),
  };

  test("serves each skill at its address with its files, nested skills' files included in the outer one", async () => {
    const plugin = await harvest(makeTree(tree));
    expect(plugin.status).toBe("ok");
    expect(skillsOf(plugin)).toEqual({
      ".github/skills/gh": { address: "gh", files: [] },
      "skills/bom": { address: "bom", files: [] },
      "skills/crlf": { address: "crlf", files: [] },
      "skills/grafana-lgtm/loki": { address: "grafana-lgtm/loki", files: [] },
      "skills/name.d/x": { address: "name.d/x", files: [] },
      "skills/name.dir/x": { address: "name.dir/x", files: [] },
      "skills/outer": { address: "outer", files: ["inner/SKILL.md", "inner/ref.md", "notes.md"] },
      "skills/outer/inner": { address: "outer/inner", files: ["ref.md"] },
      "skills/pdf": { address: "pdf", files: [".github/ci.yml", "assets/logo.png", "references/a b ü.md", "scripts/do..ts.md"] },
    });
    expect(plugin.skills.map((s) => s.address)).toEqual([
      ["gh"],
      ["bom"],
      ["crlf"],
      ["grafana-lgtm", "loki"],
      ["name.d", "x"],
      ["name.dir", "x"],
      ["outer"],
      ["outer", "inner"],
      ["pdf"],
    ]);
  });

  test("every skill directory found, served or skipped, sorted in code-unit order", async () => {
    const plugin = await harvest(makeTree(tree));
    expect(plugin.skillDirs).toEqual([
      ".github/skills/gh",
      "skills/bom",
      "skills/crlf",
      "skills/grafana-lgtm/loki",
      "skills/lower",
      "skills/mismatch",
      "skills/name.d/x",
      "skills/name.dir/x",
      "skills/nofm",
      "skills/outer",
      "skills/outer/inner",
      "skills/pdf",
      "skills/ünï",
    ]);
  });

  test("each skip has its exact row, sorted by path", async () => {
    const plugin = await harvest(makeTree(tree));
    expect(plugin.skipped).toEqual([
      // Never silent: a SKILL.md in a hidden folder the globs do not spell out is named, with the glob that serves it.
      {
        path: "skills/.hidden",
        reason:
          'The skill is in a hidden folder, which is never served unless a skills glob spells it out: add "skills/.hidden" to the plugin\'s skills (in a config file) to serve it.',
      },
      { path: "skills/lower", reason: "The skill file is named skill.md, but the name is case-sensitive: it must be SKILL.md." },
      { path: "skills/mismatch", reason: `The name "other" differs from its directory name "mismatch".` },
      { path: "skills/nofm", reason: "SKILL.md has no frontmatter: it must start with a '---' line and close it with another '---' line." },
      { path: "skills/pdf/_manifest", reason: "A file named _manifest at a skill's root is shadowed by the skill's generated _manifest." },
      { path: "skills/pdf/assets/huge.bin", reason: "The file is 9437184 bytes, over limits.fileBytes (8388608)." },
      { path: "skills/ünï", reason: REASONS.badName("ünï") },
    ]);
  });

  test("bodyOffset points past the closing fence (CRLF, BOM); a SKILL.md without placeholders keeps no bytes", async () => {
    const plugin = await harvest(makeTree(tree));
    const byDir = new Map(plugin.skills.map((s) => [s.dir, s]));
    const crlf = byDir.get("skills/crlf");
    const bom = byDir.get("skills/bom");
    expect(crlf?.bodyOffset).toBe(Buffer.byteLength("---\r\nname: crlf\r\ndescription: Windows line ends.\r\n---\r\n"));
    expect(crlf?.skillMd.size).toBe(Buffer.byteLength(tree["skills/crlf/SKILL.md"] as string));
    expect(crlf?.frontmatter).toEqual({ name: "crlf", description: "Windows line ends." });
    expect(crlf?.skillMd.bytes).toBeUndefined();
    expect(crlf?.placeholders).toBe(false);
    expect(bom?.bodyOffset).toBe(53);
    expect(bom?.skillMd.path).toBe("SKILL.md");
    expect(bom?.description).toBe("A byte order mark.");
  });

  test("a body with placeholders keeps SKILL.md's raw bytes for substitution; citations are found at harvest", async () => {
    const text =
      "---\nname: ph\ndescription: Placeholders.\n---\nRun ${CLAUDE_SKILL_DIR}/run.sh, read [ref](ref.md) and [web](https://x.test).\n";
    const plugin = await harvest(makeTree({ "skills/ph/SKILL.md": text, "skills/ph/ref.md": "r\n" }));
    const ph = plugin.skills[0];
    expect(ph?.placeholders).toBe(true);
    expect(new TextDecoder().decode(ph?.skillMd.bytes)).toBe(text);
    expect(ph?.cites).toEqual(["ref.md", "https://x.test", "${CLAUDE_SKILL_DIR}/run.sh"]);
    expect(ph?.files.map((f) => [f.path, f.bytes])).toEqual([["ref.md", undefined]]);
  });

  test("a binary file is served as a blob (text: false)", async () => {
    const plugin = await harvest(makeTree(tree));
    const logo = plugin.skills.find((s) => s.dir === "skills/pdf")?.files.find((f) => f.path === "assets/logo.png");
    expect(logo?.text).toBe(false);
    expect(logo?.size).toBe(PNG.length);
    expect(logo?.digest).toBe(sha256(PNG));
  });
});

describe("skills globs", () => {
  test("a glob naming directories picks every SKILL.md beneath them, never through a hidden name", async () => {
    const root = makeTree({
      "scientific-skills/a/SKILL.md": skillMd("a"),
      "scientific-skills/b/nested/SKILL.md": skillMd("nested"),
      "scientific-skills/.c/SKILL.md": skillMd("c"),
      "scientific-skills/d/.e/SKILL.md": skillMd("e"),
      "skills/f/SKILL.md": skillMd("f"),
    });
    const plugin = await harvest(root, { skills: ["scientific-skills/*"] });
    expect(skillsOf(plugin)).toEqual({
      "scientific-skills/a": { address: "scientific-skills/a", files: [] },
      "scientific-skills/b/nested": { address: "scientific-skills/b/nested", files: [] },
    });
    expect(plugin.skillDirs).toEqual(["scientific-skills/a", "scientific-skills/b/nested"]);
  });

  test("dir/** means dir/**/*, so it picks dir's own SKILL.md and every one beneath", async () => {
    const root = makeTree({
      "docs/SKILL.md": skillMd("docs"),
      "docs/x/SKILL.md": skillMd("x"),
      "skills/y/SKILL.md": skillMd("y"),
    });
    const plugin = await harvest(root, { skills: ["docs/**"] });
    expect(skillsOf(plugin)).toEqual({
      docs: { address: "docs", files: ["x/SKILL.md"] },
      "docs/x": { address: "docs/x", files: [] },
    });
  });

  test("a spelled-out hidden segment opts in to exactly that segment, which is part of the address", async () => {
    const root = makeTree({
      "skills/.curated/gh-fix-ci/SKILL.md": skillMd("gh-fix-ci"),
      "skills/.curated/gh-fix-ci/references/x.md": "x",
      "skills/.curated/gh-fix-ci/.hidden.md": "never served",
      "skills/.curated/.y/SKILL.md": skillMd("y"),
      "skills/.other/z/SKILL.md": skillMd("z"),
      "skills/plain/SKILL.md": skillMd("plain"),
    });
    const plugin = await harvest(root, { skills: ["skills/.curated/*", "skills/*"] });
    expect(skillsOf(plugin)).toEqual({
      "skills/.curated/gh-fix-ci": { address: ".curated/gh-fix-ci", files: ["references/x.md"] },
      "skills/plain": { address: "plain", files: [] },
    });
    // Hidden paths stay out of the fallback tree even when a skill lives there.
    expect([...plugin.tree.keys()]).toEqual(["skills/plain/SKILL.md"]);
  });

  test('skills: ["SKILL.md"] makes the whole plugin one skill, addressed by its frontmatter name', async () => {
    const root = makeTree({
      "SKILL.md": skillMd("whole-kit"),
      "references/a.md": "a",
      "skills/x/SKILL.md": skillMd("x"),
      ".claude-plugin/plugin.json": "{}",
    });
    const plugin = await harvest(root, { skills: ["SKILL.md"] });
    expect(skillsOf(plugin)).toEqual({ "": { address: "whole-kit", files: ["references/a.md", "skills/x/SKILL.md"] } });
    expect(plugin.skills[0]?.name).toBe("whole-kit");
    expect(plugin.skillDirs).toEqual([""]);
  });

  test("skills: [] turns skills off", async () => {
    const plugin = await harvest(makeTree({ "skills/x/SKILL.md": skillMd("x") }), { skills: [] });
    expect(plugin.skills).toEqual([]);
    expect(plugin.skillDirs).toEqual([]);
    expect([...plugin.tree.keys()]).toEqual(["skills/x/SKILL.md"]);
  });
});

describe("skipped skills", () => {
  test("two skills at one address: the first in sorted path order wins", async () => {
    const root = makeTree({
      ".claude/skills/pdf/SKILL.md": skillMd("pdf", "From .claude."),
      "skills/pdf/SKILL.md": skillMd("pdf", "From skills."),
    });
    const plugin = await harvest(root);
    expect(plugin.skills.map((s) => [s.dir, s.description])).toEqual([[".claude/skills/pdf", "From .claude."]]);
    expect(plugin.skipped).toEqual([
      { path: "skills/pdf", reason: `Another skill has the address "pdf": ".claude/skills/pdf" comes first in path order and is served.` },
    ]);
    expect(plugin.skillDirs).toEqual([".claude/skills/pdf", "skills/pdf"]);
  });

  test("512 files is the limit: SKILL.md counts, one more file skips the skill", async () => {
    const tree: Record<string, string> = { "skills/many/SKILL.md": skillMd("many"), "skills/toomany/SKILL.md": skillMd("toomany") };
    for (let i = 0; i < 511; i++) tree[`skills/many/f/${i}.md`] = "x";
    for (let i = 0; i < 512; i++) tree[`skills/toomany/f/${i}.md`] = "x";
    const plugin = await harvest(makeTree(tree));
    expect(plugin.skills.map((s) => [s.dir, s.files.length])).toEqual([["skills/many", 511]]);
    expect(plugin.skipped).toEqual([
      { path: "skills/toomany", reason: "The skill has 513 files, over the limit of 512 (nested skills' files count toward it)." },
    ]);
  });

  test("16 MiB in total is the limit, nested skills' files counted toward the outer skill", async () => {
    const md = skillMd("heavy");
    const inner = skillMd("inner");
    const root = makeTree({
      "skills/heavy/SKILL.md": md,
      "skills/heavy/a.bin": { sparse: 6 * MiB },
      "skills/heavy/b.bin": { sparse: 6 * MiB },
      "skills/heavy/inner/SKILL.md": inner,
      "skills/heavy/inner/c.bin": { sparse: 6 * MiB },
    });
    const plugin = await harvest(root);
    expect(skillsOf(plugin)).toEqual({ "skills/heavy/inner": { address: "heavy/inner", files: ["c.bin"] } });
    const total = md.length + inner.length + 18 * MiB;
    expect(plugin.skipped).toEqual([
      { path: "skills/heavy", reason: `The skill holds ${total} bytes, over the limit of 16 MiB (nested skills' files count toward it).` },
    ]);
  });

  test("a SKILL.md over limits.fileBytes skips its skill", async () => {
    const plugin = await harvest(makeTree({ "skills/x/SKILL.md": skillMd("x", "y".repeat(200)) }), { limits: { fileBytes: 100 } });
    expect(plugin.skills).toEqual([]);
    expect(plugin.skipped).toEqual([{ path: "skills/x", reason: "SKILL.md is 234 bytes, over limits.fileBytes (100)." }]);
  });

  test("files an outer skill cannot serve because a nested skill's generated documents sit at their address", async () => {
    const root = makeTree({
      "skills/outer/SKILL.md": skillMd("outer"),
      "skills/outer/_index.md": "shadowed by the folder index of outer (it holds outer/inner)",
      "skills/outer/_index-2.md": "shadowed too: the name of a page of that index",
      "skills/outer/inner/SKILL.md": skillMd("inner"),
      "skills/outer/inner/_manifest": "shadowed by inner's manifest",
      "skills/outer/inner/a.md": "a",
      "skills/lone/SKILL.md": skillMd("lone"),
      "skills/lone/_index.md": "served: lone holds no skill",
    });
    const plugin = await harvest(root);
    expect(skillsOf(plugin)).toEqual({
      "skills/lone": { address: "lone", files: ["_index.md"] },
      "skills/outer": { address: "outer", files: ["inner/SKILL.md", "inner/a.md"] },
      "skills/outer/inner": { address: "outer/inner", files: ["a.md"] },
    });
    expect(plugin.skipped).toEqual([
      { path: "skills/outer/_index-2.md", reason: REASONS.indexShadowed("_index-2.md") },
      { path: "skills/outer/_index.md", reason: REASONS.indexShadowed("_index.md") },
      { path: "skills/outer/inner/_manifest", reason: REASONS.manifestShadowed },
    ]);
    expect(REASONS.indexShadowed("_index.md")).toBe(
      "A file named _index.md in a folder that holds a skill is shadowed by the folder's generated _index.md and its pages.",
    );
  });

  test("every frontmatter rule yields its row at the skill directory", async () => {
    const root = makeTree({
      "skills/no-name/SKILL.md": "---\ndescription: d\n---\n",
      "skills/no-desc/SKILL.md": "---\nname: no-desc\n---\n",
      "skills/empty-desc/SKILL.md": "---\nname: empty-desc\ndescription: ''\n---\n",
      "skills/long-desc/SKILL.md": `---\nname: long-desc\ndescription: ${"d".repeat(1025)}\n---\n`,
      "skills/bad-yaml/SKILL.md": "---\nname: [unclosed\n---\n",
      "skills/list/SKILL.md": "---\n- a\n---\n",
      "skills/bad--name/SKILL.md": skillMd("bad--name"),
    });
    const plugin = await harvest(root);
    expect(plugin.skills).toEqual([]);
    expect(plugin.skipped).toEqual([
      { path: "skills/bad--name", reason: REASONS.badName("bad--name") },
      {
        path: "skills/bad-yaml",
        reason:
          "The frontmatter is not valid YAML: Flow sequence in block collection must be sufficiently indented and end with a ] at line 3, column 1 of SKILL.md.",
      },
      { path: "skills/empty-desc", reason: "The description must be a non-empty string." },
      { path: "skills/list", reason: "The frontmatter is not a YAML mapping." },
      { path: "skills/long-desc", reason: "The description is 1025 characters long, over the limit of 1024." },
      { path: "skills/no-desc", reason: "The frontmatter has no description." },
      { path: "skills/no-name", reason: "The frontmatter has no name." },
    ]);
  });
});

describe("skills, adversarial edges", () => {
  test("a wrong-case skill file is named only where a SKILL.md would be picked; the first in code-unit order is named", async () => {
    const root = makeTree({
      "skills/two/skill.md": skillMd("two"),
      "skills/two/Skill.md": skillMd("two"),
      "skills/both/SKILL.md": skillMd("both"),
      "skills/both/skill.md": "ignored: SKILL.md is there",
      "skills/long/skill.mdx": "not the same length",
      "docs/x/skill.md": skillMd("x"),
    });
    const plugin = await harvest(root);
    expect(skillsOf(plugin)).toEqual({ "skills/both": { address: "both", files: ["skill.md"] } });
    expect(plugin.skipped).toEqual([{ path: "skills/two", reason: REASONS.wrongCase("Skill.md") }]);
  });

  test("a SKILL.md reached through a link that leaves the root is named; one outside the globs is not", async () => {
    const outside = makeTree({ "SKILL.md": skillMd("y") });
    const root = makeTree({
      "skills/y/SKILL.md": { symlink: `${outside}/SKILL.md` },
      "docs/z/SKILL.md": { symlink: `${outside}/SKILL.md` },
      "skills/w": { symlink: outside },
      "skills/v/notes": { symlink: outside },
    });
    const plugin = await harvest(root);
    expect(plugin.skills).toEqual([]);
    expect(plugin.skipped).toEqual([
      { path: "skills/v/notes", reason: REASONS.symlinkLeavesRoot },
      { path: "skills/w", reason: REASONS.symlinkLeavesRoot },
      { path: "skills/y/SKILL.md", reason: REASONS.symlinkLeavesRoot },
    ]);
  });

  test("a SKILL.md and a skill file exactly at limits.fileBytes are served", async () => {
    const md = skillMd("x");
    const root = makeTree({ "skills/x/SKILL.md": md, "skills/x/same.md": "s".repeat(md.length) });
    const plugin = await harvest(root, { limits: { fileBytes: md.length } });
    expect(skillsOf(plugin)).toEqual({ "skills/x": { address: "x", files: ["same.md"] } });
    expect(plugin.skipped).toEqual([]);
  });

  test("an edited SKILL.md is parsed again; a touched one with the same bytes keeps its parse", async () => {
    const root = makeTree({ "skills/x/SKILL.md": skillMd("x", "One."), "skills/x/a.md": "a" });
    const md = path.join(root, "skills", "x", "SKILL.md");
    const first = await harvest(root);
    fs.utimesSync(md, 3000, 3000);
    const touched = await harvest(root, { previous: first });
    expect(touched).not.toBe(first);
    expect(touched.skills[0]?.frontmatter).toBe(first.skills[0]?.frontmatter);
    fs.writeFileSync(md, skillMd("x", "Two."));
    fs.utimesSync(md, 4000, 4000);
    const edited = await harvest(root, { previous: touched });
    expect(edited.skills[0]?.frontmatter).toEqual({ name: "x", description: "Two." });
    expect(edited.skills[0]?.description).toBe("Two.");
  });

  test("an unchanged SKILL.md whose bytes a previous harvest did not keep is read again when its body needs them", async () => {
    const text = "---\nname: ph\ndescription: d\n---\nRun ${CLAUDE_SKILL_DIR}/x.sh\n";
    const root = makeTree({ "skills/ph/SKILL.md": text });
    const first = await harvest(root);
    const skill = first.skills[0];
    if (skill === undefined) throw new Error("no skill");
    const { bytes: _bytes, ...withoutBytes } = skill.skillMd;
    // A previous harvest as restored from a cache, which keeps no bytes; a new file changes the walk.
    const previous = { ...first, skills: [{ ...skill, skillMd: withoutBytes }] };
    fs.writeFileSync(path.join(root, "other.md"), "o");
    const second = await harvest(root, { previous });
    expect(new TextDecoder().decode(second.skills[0]?.skillMd.bytes)).toBe(text);
  });
});

describe("skills, more edges", () => {
  test("hidden files a files glob opens inside a skill stay out of it, links among them say nothing", async () => {
    const outside = makeTree({ "o.md": "o" });
    const root = makeTree({
      "skills/x/SKILL.md": skillMd("x"),
      "skills/x/.notes/a.md": "a",
      "skills/x/.notes/out.md": { symlink: `${outside}/o.md` },
      "skills/.c/y/SKILL.md": skillMd("y"),
      "skills/.c/y/out.md": { symlink: `${outside}/o.md` },
    });
    const plugin = await harvest(root, { skills: ["skills/x", "skills/.c/*"], files: ["skills/x/.notes/*"] });
    expect(skillsOf(plugin)).toEqual({
      "skills/.c/y": { address: ".c/y", files: [] },
      "skills/x": { address: "x", files: [] },
    });
    // Inside a skill in a hidden folder, the path relative to the skill decides.
    expect(plugin.skipped).toEqual([{ path: "skills/.c/y/out.md", reason: REASONS.symlinkLeavesRoot }]);
  });

  test("a glob naming SKILL.md names that file only, not SKILL.md files below a folder of that name", async () => {
    const root = makeTree({ "a/SKILL.md/b/SKILL.md": skillMd("b") });
    const plugin = await harvest(root, { skills: ["a/SKILL.md"] });
    expect(plugin.skillDirs).toEqual([]);
  });

  test("a SKILL.md link that leaves the root is named under a glob that names SKILL.md files", async () => {
    const outside = makeTree({ "SKILL.md": skillMd("y") });
    const root = makeTree({ "skills/y/SKILL.md": { symlink: `${outside}/SKILL.md` } });
    const plugin = await harvest(root, { skills: ["skills/*/SKILL.md"] });
    expect(plugin.skipped).toEqual([{ path: "skills/y/SKILL.md", reason: REASONS.symlinkLeavesRoot }]);
  });

  test("skill directories sort in code-unit order, not in the order their SKILL.md paths sort", async () => {
    const root = makeTree({ "skills/a-b/SKILL.md": skillMd("a-b"), "skills/a/SKILL.md": skillMd("a") });
    expect((await harvest(root)).skillDirs).toEqual(["skills/a", "skills/a-b"]);
  });

  test("a skipped nested skill's address holds library files off", async () => {
    const root = makeTree({ "skills/g/x/SKILL.md": "no frontmatter", "g/x/f.md": "f", "g/y.md": "y" });
    const plugin = await harvest(root, { files: ["g/**"] });
    expect(plugin.libraryFiles.map((f) => f.path)).toEqual(["g/y.md"]);
    expect(plugin.skipped).toEqual([
      { path: "g/x/f.md", reason: REASONS.libraryInsideSkill("g/x", "skills/g/x") },
      { path: "skills/g/x", reason: REASONS.noFrontmatter },
    ]);
  });

  test("no bytes, servedName or servedDescription key where there is none; lenient at exactly 1024 characters keeps no bytes", async () => {
    const root = makeTree({ "skills/x/SKILL.md": skillMd("x", "d".repeat(1024)) });
    const plugin = await harvest(root, { naming: "lenient" });
    const skill = plugin.skills[0];
    expect(skill === undefined ? [] : Object.keys(skill).filter((k) => k.startsWith("served"))).toEqual([]);
    expect(skill !== undefined && "bytes" in skill.skillMd).toBe(false);
  });

  test("an unchanged SKILL.md handed on keeps its file record", async () => {
    const root = makeTree({ "skills/x/SKILL.md": skillMd("x") });
    const first = await harvest(root);
    fs.writeFileSync(path.join(root, "new.md"), "changes the walk");
    const second = await harvest(root, { previous: first });
    expect(second).not.toBe(first);
    expect(second.skills[0]?.skillMd).toEqual(first.skills[0]?.skillMd);
  });

  test("lenient: a long description given through an alias cannot be cut in place, so the skill is skipped", async () => {
    const long = "word ".repeat(300).trim();
    const root = makeTree({ "skills/x/SKILL.md": `---\nname: x\nd: &d ${long}\ndescription: *d\n---\n` });
    const plugin = await harvest(root, { naming: "lenient" });
    expect(plugin.skills).toEqual([]);
    expect(plugin.skipped).toEqual([{ path: "skills/x", reason: REASONS.longDescription(long.length) }]);
  });

  test("rewrites lists only the values lenient naming serves", () => {
    expect(rewrites({ servedName: "a", servedDescription: "b" })).toEqual({ name: "a", description: "b" });
    expect(Object.keys(rewrites({}))).toEqual([]);
  });
});
