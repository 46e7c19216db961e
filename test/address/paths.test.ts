import { describe, expect, test } from "vitest";
import { isHiddenPath, skillAddress } from "../../src/address/index.js";

describe("skillAddress", () => {
  test.each([
    { dir: "skills/grafana-lgtm/loki", address: ["grafana-lgtm", "loki"] },
    { dir: "skills/loki", address: ["loki"] },
    { dir: "docs/x", address: ["docs", "x"] },
    { dir: ".github/skills/x", address: ["x"] },
    { dir: ".claude/skills/a/b", address: ["a", "b"] },
    { dir: ".agents/skills/x", address: ["x"] },
    { dir: "skills/.curated/gh-fix-ci", address: [".curated", "gh-fix-ci"] },
    { dir: "skills", address: ["skills"] },
    { dir: "my-skills/x", address: ["my-skills", "x"] },
    { dir: "plugins/skills/x", address: ["plugins", "skills", "x"] },
    { dir: "", address: [] },
  ])("$dir -> $address", ({ dir, address }) => {
    expect(skillAddress(dir)).toEqual(address);
  });
});

describe("isHiddenPath", () => {
  test.each([
    { path: "a/b.md", hidden: false },
    { path: ".env", hidden: true },
    { path: "a/.git/config", hidden: true },
    { path: ".github/workflows/ci.yml", hidden: false },
    { path: "x/.claude/skills/a", hidden: false },
    { path: ".agents/x", hidden: false },
    { path: ".githubx/a", hidden: true },
    { path: "do..ts.md", hidden: false },
    { path: "a/..data/x", hidden: true },
    { path: "name.d/x", hidden: false },
  ])("$path -> $hidden", ({ path, hidden }) => {
    expect(isHiddenPath(path)).toBe(hidden);
  });
});
