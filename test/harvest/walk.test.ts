import fs from "node:fs";
import net from "node:net";
import path from "node:path";

import { afterAll, describe, expect, test } from "vitest";

import { harvest, makeTree, removeTrees, skillMd, skillsOf } from "./fixture.js";
import { sha256 } from "../support/digest.js";

afterAll(removeTrees);

const LEAVES = "A symlink that leaves the root is never followed.";

describe("the walk", () => {
  test("the tree holds every visible regular file within the limit; hidden names and node_modules stay out", async () => {
    const root = makeTree({
      "README.md": "readme",
      ".env": "SECRET=1",
      ".git/config": "[core]",
      ".github/workflows/ci.yml": "on: push",
      ".claude/settings.json": "{}",
      ".agents/notes.md": "n",
      "a/.claude-plugin/plugin.json": "{}",
      "a/node_modules/x/index.js": "never",
      "node_modules/y.js": "never",
      "name.d/x.md": "1",
      "name.dir/x.md": "2",
      "docs/do..ts.md": "3",
      "docs/a b ü.md": "4",
      "big.bin": { sparse: 200 },
      "empty/": { dir: true },
    });
    const plugin = await harvest(root, { limits: { fileBytes: 100 } });
    expect([...plugin.tree.keys()]).toEqual([
      ".agents/notes.md",
      ".claude/settings.json",
      ".github/workflows/ci.yml",
      "README.md",
      "docs/a b ü.md",
      "docs/do..ts.md",
      "name.d/x.md",
      "name.dir/x.md",
    ]);
    const readme = plugin.tree.get("README.md");
    expect(readme).toEqual({ path: "README.md", abs: path.join(root, "README.md"), size: 6, mtimeMs: expect.any(Number) as unknown });
    // Files over the limit are in nothing servable, and reported only where they would have been served.
    expect(plugin.skipped).toEqual([]);
  });

  test("a socket is not a regular file", async () => {
    const root = makeTree({ "skills/x/SKILL.md": skillMd("x") });
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(path.join(root, "skills", "x", "s.sock"), resolve));
    try {
      const plugin = await harvest(root);
      expect(skillsOf(plugin)).toEqual({ "skills/x": { address: "x", files: [] } });
      expect([...plugin.tree.keys()]).toEqual(["skills/x/SKILL.md"]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("symlinks", () => {
  test("links inside the root are followed and keep their names; links leaving it are dropped with a row; loops end", async () => {
    const outside = makeTree({ "secret.md": "outside the root", "skilldir/SKILL.md": skillMd("skilldir"), "dir/x.md": "x" });
    const root = makeTree({
      "real/doc.md": "real doc",
      "real/sub/deep.md": "deep",
      "skills/a/SKILL.md": skillMd("a"),
      "skills/a/link.md": { symlink: "../../real/doc.md" },
      "skills/a/shared": { symlink: "../../real" },
      "skills/a/escape.md": { symlink: path.join(outside, "secret.md") },
      "skills/a/escape-dir": { symlink: path.join(outside, "dir") },
      "skills/a/up": { symlink: ".." },
      "skills/a/root": { symlink: "../.." },
      "skills/a/self": { symlink: "self" },
      "skills/a/ping": { symlink: "pong" },
      "skills/a/pong": { symlink: "ping" },
      "skills/a/dangling.md": { symlink: "nowhere.md" },
      "skills/a/.hidden-escape": { symlink: path.join(outside, "secret.md") },
      "skills/ext": { symlink: path.join(outside, "skilldir") },
      unrelated: { symlink: outside },
    });
    const plugin = await harvest(root);
    expect(skillsOf(plugin)).toEqual({
      "skills/a": { address: "a", files: ["link.md", "shared/doc.md", "shared/sub/deep.md"] },
    });
    expect([...plugin.tree.keys()]).toEqual([
      "real/doc.md",
      "real/sub/deep.md",
      "skills/a/SKILL.md",
      "skills/a/link.md",
      "skills/a/shared/doc.md",
      "skills/a/shared/sub/deep.md",
    ]);
    // Read through the real path inside the root, served under the name it was reached by.
    const link = plugin.skills[0]?.files[0];
    expect(link?.abs).toBe(path.join(root, "real", "doc.md"));
    expect(link?.digest).toBe(sha256("real doc"));
    expect(plugin.skipped).toEqual([
      { path: "skills/a/escape-dir", reason: LEAVES },
      { path: "skills/a/escape.md", reason: LEAVES },
      { path: "skills/ext", reason: LEAVES },
    ]);
  });

  test("a Kubernetes ConfigMap mount: visible links into the hidden ..data directory are served by their visible names", async () => {
    // kubelet's layout: ..2024_01_01/ holds the data, ..data -> ..2024_01_01, and every visible name -> ..data/<name>.
    const root = makeTree({
      "..2024_01_01/README.md": "readme",
      "..2024_01_01/skills/x/SKILL.md": skillMd("x"),
      "..2024_01_01/skills/x/references/r.md": "r",
      "..data": { symlink: "..2024_01_01" },
      "README.md": { symlink: "..data/README.md" },
      skills: { symlink: "..data/skills" },
    });
    const plugin = await harvest(root, { files: ["README.md"] });
    expect(skillsOf(plugin)).toEqual({ "skills/x": { address: "x", files: ["references/r.md"] } });
    expect([...plugin.tree.keys()]).toEqual(["README.md", "skills/x/SKILL.md", "skills/x/references/r.md"]);
    expect(plugin.libraryFiles.map((f) => [f.path, f.abs])).toEqual([["README.md", path.join(root, "..2024_01_01", "README.md")]]);
    expect(plugin.skipped).toEqual([]);
  });

  test("a flat ConfigMap as one whole-plugin skill", async () => {
    const root = makeTree({
      "..2024_01_01/SKILL.md": skillMd("from-configmap"),
      "..2024_01_01/ref.md": "ref",
      "..data": { symlink: "..2024_01_01" },
      "SKILL.md": { symlink: "..data/SKILL.md" },
      "ref.md": { symlink: "..data/ref.md" },
    });
    const plugin = await harvest(root, { skills: ["SKILL.md"] });
    expect(skillsOf(plugin)).toEqual({ "": { address: "from-configmap", files: ["ref.md"] } });
  });

  test("a root reached through a symlink is contained by its real path", async () => {
    const real = makeTree({ "skills/x/SKILL.md": skillMd("x"), "skills/x/in.md": { symlink: "../../other.md" }, "other.md": "o" });
    const holder = makeTree({ link: { symlink: real } });
    const plugin = await harvest(path.join(holder, "link"));
    expect(skillsOf(plugin)).toEqual({ "skills/x": { address: "x", files: ["in.md"] } });
  });
});

describe("folders never walked", () => {
  test("dependency and version-control folders stay out even when a glob spells them out", async () => {
    const names = ["node_modules", ".git", ".hg", ".svn", ".bzr", "_darcs", "CVS"];
    const tree: Record<string, string> = { "skills/ok/SKILL.md": skillMd("ok") };
    for (const name of names) {
      tree[`${name}/s/SKILL.md`] = skillMd("s");
      tree[`skills/${name}/t/SKILL.md`] = skillMd("t");
      tree[`lib/${name}/x.md`] = "x";
    }
    const plugin = await harvest(makeTree(tree), {
      skills: ["skills/**", ...names.map((name) => `${name}/*`)],
      files: ["lib/**", ...names.map((name) => `lib/${name}/*`)],
    });
    expect(skillsOf(plugin)).toEqual({ "skills/ok": { address: "ok", files: [] } });
    expect([...plugin.tree.keys()]).toEqual(["skills/ok/SKILL.md"]);
    expect(plugin.libraryFiles).toEqual([]);
    expect(plugin.skipped).toEqual([]);
  });

  test("a name that only starts like one is walked", async () => {
    const root = makeTree({ "CVSx/a.md": "a", "node_modules2/b.md": "b", "_darcs_/c.md": "c" });
    expect([...(await harvest(root)).tree.keys()]).toEqual(["CVSx/a.md", "_darcs_/c.md", "node_modules2/b.md"]);
  });
});

describe("containment, adversarial", () => {
  test("a link into a sibling folder whose name starts with the root's leaves the root", async () => {
    const root = makeTree({ "skills/x/SKILL.md": skillMd("x") });
    const sibling = `${root}-sibling`;
    fs.mkdirSync(sibling);
    try {
      fs.writeFileSync(path.join(sibling, "s.md"), "sibling");
      fs.symlinkSync(path.join(sibling, "s.md"), path.join(root, "skills", "x", "s.md"));
      const plugin = await harvest(root);
      expect(skillsOf(plugin)).toEqual({ "skills/x": { address: "x", files: [] } });
      expect(plugin.skipped).toEqual([{ path: "skills/x/s.md", reason: LEAVES }]);
    } finally {
      fs.rmSync(sibling, { recursive: true, force: true });
    }
  });

  test("a link to a socket inside the root is not a file", async () => {
    const root = makeTree({ "skills/x/SKILL.md": skillMd("x"), "skills/x/link": { symlink: "s.sock" } });
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(path.join(root, "skills", "x", "s.sock"), resolve));
    try {
      expect([...(await harvest(root)).tree.keys()]).toEqual(["skills/x/SKILL.md"]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
