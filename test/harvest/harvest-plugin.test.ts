// One plugin's harvest as a whole: warnings for globs that match nothing, hidden skills named, the fallback tree's
// limit, and when a previous harvest stands.
import fs from "node:fs";
import path from "node:path";

import { afterAll, describe, expect, test } from "vitest";

import { REASONS } from "../../src/harvest/index.js";
import { harvest, makeTree, removeTrees, skillMd } from "./fixture.js";

afterAll(removeTrees);

describe("globs the config wrote that match nothing", () => {
  test("each is a warning row naming its kind; negated globs and globs that match are not", async () => {
    const root = makeTree({
      "skills/x/SKILL.md": skillMd("x"),
      "docs/a.md": "a",
      "prompts/p.md": "p",
    });
    const written = {
      skills: ["skills/x", "skills/missing", " !skills/x/drafts"],
      files: ["docs/**", "shared"],
      prompts: ["prompts/*.md", "nothing/*.md", "!prompts/old.md"],
    };
    const plugin = await harvest(root, { ...written, reportUnmatched: written });
    expect(plugin.warnings).toEqual([
      { path: "nothing/*.md", reason: REASONS.unmatchedGlob("kit", "prompts", "nothing/*.md") },
      { path: "shared", reason: REASONS.unmatchedGlob("kit", "files", "shared") },
      { path: "skills/missing", reason: REASONS.unmatchedGlob("kit", "skills", "skills/missing") },
    ]);
    expect(REASONS.unmatchedGlob("kit", "files", "shared")).toBe(
      'The files glob "shared" of plugin "kit" matches nothing under the plugin root: check the path, or remove it.',
    );
    // Without reportUnmatched, nothing is said.
    expect((await harvest(root, written)).warnings).toBeUndefined();
  });

  test("a skills glob naming a directory matches through the SKILL.md beneath it; a literal files directory through its files", async () => {
    const root = makeTree({ "a/b/c/SKILL.md": skillMd("c"), "lib/deep/x.txt": "x" });
    const written = { skills: ["a"], files: ["lib"], prompts: ["lib/deep/*.txt"] };
    expect((await harvest(root, { ...written, reportUnmatched: written })).warnings).toBeUndefined();
  });
});

describe("SKILL.md files in hidden folders no glob spells out", () => {
  test("each is named at its folder, however deep; links, node_modules, VCS and ..data folders are not searched", async () => {
    const root = makeTree({
      "skills/.drafts/a/SKILL.md": skillMd("a"),
      "skills/.drafts/a/b/SKILL.md": skillMd("b"),
      ".cache/SKILL.md": skillMd("c"),
      ".cache/node_modules/m/SKILL.md": skillMd("m"),
      ".cache/.git/g/SKILL.md": skillMd("g"),
      ".cache/link/SKILL.md": { symlink: "../SKILL.md" },
      ".cache/dir/SKILL.md/x": "a directory named SKILL.md",
      "..data/skills/d/SKILL.md": skillMd("d"),
      ".cache/notes/skill.md": skillMd("lower"),
    });
    const plugin = await harvest(root);
    expect(plugin.skills).toEqual([]);
    expect(plugin.skipped).toEqual([
      { path: ".cache", reason: REASONS.hiddenSkill(".cache") },
      { path: "skills/.drafts/a", reason: REASONS.hiddenSkill("skills/.drafts/a") },
      { path: "skills/.drafts/a/b", reason: REASONS.hiddenSkill("skills/.drafts/a/b") },
    ]);
  });

  test("a glob that spells the hidden folder out serves the skill, and the row goes", async () => {
    const root = makeTree({ "skills/.drafts/a/SKILL.md": skillMd("a"), "skills/.drafts/a/r.md": "r" });
    const plugin = await harvest(root, { skills: ["skills/.drafts/*"] });
    expect(plugin.skills.map((s) => [s.dir, s.address.join("/"), s.files.map((f) => f.path)])).toEqual([
      ["skills/.drafts/a", ".drafts/a", ["r.md"]],
    ]);
    expect(plugin.skipped).toEqual([]);
    // A hidden path is in no fallback tree, even where a glob opened it.
    expect([...plugin.tree.keys()]).toEqual([]);
  });

  test("a files glob that spells a hidden folder out still serves nothing from it", async () => {
    const root = makeTree({ ".config/a.md": "a", "docs/.notes/b.md": "b", "docs/c.md": "c" });
    const plugin = await harvest(root, { files: [".config/*", "docs/.notes/*", "docs/*"] });
    expect(plugin.libraryFiles.map((f) => f.path)).toEqual(["docs/c.md"]);
    expect(plugin.skipped).toEqual([]);
  });
});

describe("the fallback tree", () => {
  test("holds files up to limits.fileBytes inclusive", async () => {
    const root = makeTree({ "a.md": "123", "b.md": "1234", "c.md": "" });
    const plugin = await harvest(root, { limits: { fileBytes: 3 } });
    expect([...plugin.tree.keys()]).toEqual(["a.md", "c.md"]);
  });
});

describe("when a previous harvest stands", () => {
  test("rows that are not read failures do not force a new harvest; a directory that could not be read does", async () => {
    const root = makeTree({ "skills/x/SKILL.md": skillMd("x") });
    const first = await harvest(root);
    const withRow = { ...first, skipped: [{ path: "skills/y", reason: REASONS.noName }] };
    expect(await harvest(root, { previous: withRow })).toBe(withRow);
    const withDirectory = { ...first, skipped: [{ path: "skills", reason: REASONS.unreadableDirectory("EACCES") }] };
    const again = await harvest(root, { previous: withDirectory });
    expect(again).not.toBe(withDirectory);
    expect(again.skipped).toEqual([]);
    // A reason that only mentions the words is not a read failure.
    const lookalike = { ...first, skipped: [{ path: "a", reason: `x ${REASONS.unreadable("EIO")}` }] };
    expect(await harvest(root, { previous: lookalike })).toBe(lookalike);
  });

  test("a failed previous harvest never stands, even over the same walk", async () => {
    const root = makeTree({ "skills/x/SKILL.md": skillMd("x") });
    const first = await harvest(root);
    const failed = { ...first, status: "failed" as const };
    const again = await harvest(root, { previous: failed });
    expect(again).not.toBe(failed);
    expect(again.status).toBe("ok");
  });

  test("a new hidden SKILL.md or a new escaping link changes the walk, so the harvest runs again", async () => {
    const outside = makeTree({ "o.md": "o" });
    const root = makeTree({ "skills/x/SKILL.md": skillMd("x") });
    const first = await harvest(root);
    fs.mkdirSync(path.join(root, "skills", ".y"));
    fs.writeFileSync(path.join(root, "skills", ".y", "SKILL.md"), skillMd("y"));
    const second = await harvest(root, { previous: first });
    expect(second).not.toBe(first);
    expect(second.walkKey).not.toBe(first.walkKey);
    expect(second.skipped.map((row) => row.path)).toEqual(["skills/.y"]);
    fs.symlinkSync(path.join(outside, "o.md"), path.join(root, "skills", "x", "o.md"));
    const third = await harvest(root, { previous: second });
    expect(third).not.toBe(second);
    expect(third.skipped.map((row) => row.path)).toEqual(["skills/.y", "skills/x/o.md"]);
  });
});
