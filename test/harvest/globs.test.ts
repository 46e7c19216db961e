import { describe, expect, test } from "vitest";

import { compileGlobs, compileHiddenOptIns, normalizeGlob, SKILL_CONVENTION } from "../../src/harvest/index.js";

describe("normalizeGlob", () => {
  test.each([
    { glob: "dir/**", out: "dir/**/*" },
    { glob: "**", out: "**/*" },
    { glob: "./skills/*/", out: "skills/*" },
    { glob: "SKILL.md", out: "SKILL.md" },
    { glob: "a/**/b", out: "a/**/b" },
  ])("$glob -> $out", ({ glob, out }) => {
    expect(normalizeGlob(glob)).toBe(out);
  });
});

describe("compileGlobs", () => {
  test.each([
    // wildcards never match a hidden name; a spelled-out hidden segment opts in to exactly that segment
    { globs: ["skills/*/SKILL.md"], path: "skills/.x/SKILL.md", match: false },
    { globs: ["skills/**/SKILL.md"], path: "skills/.x/y/SKILL.md", match: false },
    { globs: ["skills/.curated/*/SKILL.md"], path: "skills/.curated/a/SKILL.md", match: true },
    { globs: ["skills/.curated/*/SKILL.md"], path: "skills/.curated/.b/SKILL.md", match: false },
    { globs: ["skills/.curated/*/SKILL.md"], path: "skills/.other/a/SKILL.md", match: false },
    // .github, .claude, .agents are not hidden: wildcards match them, and they match when spelled out
    { globs: ["**/SKILL.md"], path: ".claude/skills/a/SKILL.md", match: true },
    { globs: ["skills/**/SKILL.md"], path: "skills/.github/a/SKILL.md", match: true },
    { globs: [".github/skills/*/SKILL.md"], path: ".github/skills/a/SKILL.md", match: true },
    { globs: ["{.github,.agents}/skills/*/SKILL.md"], path: ".agents/skills/a/SKILL.md", match: true },
    { globs: ["**/SKILL.md"], path: "a/.git/b/SKILL.md", match: false },
    // dir/** means dir/**/*
    { globs: ["shared/**"], path: "shared/a/b.md", match: true },
    { globs: ["shared/**"], path: "shared", match: false },
    { globs: ["shared/**"], path: "shared/.secret", match: false },
    // adversarial names are plain names
    { globs: ["*/SKILL.md"], path: "name.d/SKILL.md", match: true },
    { globs: ["name.d/*"], path: "name.dir/x", match: false },
    { globs: ["docs/*.md"], path: "docs/do..ts.md", match: true },
    { globs: ["docs/*"], path: "docs/a b ü.md", match: true },
    // `!` excludes
    { globs: ["shared/**", "!shared/drafts/**"], path: "shared/drafts/x.md", match: false },
    { globs: ["shared/**", "!shared/drafts/**"], path: "shared/x.md", match: true },
    { globs: [], path: "x", match: false },
  ])("$globs ~ $path -> $match", ({ globs, path, match }) => {
    expect(compileGlobs(globs).match(path)).toBe(match);
  });

  test.each([
    { path: "skills/a/SKILL.md", match: true },
    { path: "skills/SKILL.md", match: true },
    { path: "skills/a/b/c/SKILL.md", match: true },
    { path: ".github/skills/a/SKILL.md", match: true },
    { path: ".github/skills/a/b/SKILL.md", match: false },
    { path: ".claude/skills/a/SKILL.md", match: true },
    { path: ".agents/skills/a/SKILL.md", match: true },
    { path: "docs/a/SKILL.md", match: false },
    { path: "skills/a/skill.md", match: false },
  ])("convention ~ $path -> $match", ({ path, match }) => {
    expect(compileGlobs(SKILL_CONVENTION).match(path)).toBe(match);
  });
});

describe("normalizeGlob, adversarial shapes", () => {
  test.each([
    { glob: "  ./a/  ", out: "a" },
    { glob: "././a//", out: "a" },
    { glob: "a/**/", out: "a/**/*" },
    { glob: "./**", out: "**/*" },
    { glob: "./", out: "" },
    { glob: "/", out: "/" },
    { glob: "a/**b", out: "a/**b" },
  ])("$glob -> $out", ({ glob, out }) => {
    expect(normalizeGlob(glob)).toBe(out);
  });
});

describe("compileGlobs, adversarial sets", () => {
  test.each([
    // A glob that normalises to nothing, and negations alone, match nothing.
    { globs: ["./"], empty: true },
    { globs: ["!x"], empty: true },
    { globs: ["  "], empty: true },
    { globs: ["x"], empty: false },
    // A brace range too large to expand stays a glob of its own.
    { globs: ["a{1..1000000}"], empty: false },
  ])("$globs: empty $empty", ({ globs, empty }) => {
    expect(compileGlobs(globs).empty).toBe(empty);
  });

  test.each([
    // `!` after spaces still negates; the rest of the negated glob is normalised like any other.
    { globs: ["shared/**", "  !./shared/drafts/ "], path: "shared/drafts", match: false },
    { globs: ["shared/**", "  !./shared/drafts/** "], path: "shared/drafts/x.md", match: false },
    // A brace alternative that names a visible dot-folder is matched like that folder spelled out.
    { globs: ["{.claude,x}/a"], path: ".claude/a", match: true },
    { globs: ["{.claude,x}/a"], path: "x/a", match: true },
    { globs: ["!{.github,y}/a", "**/a"], path: ".github/a", match: false },
    // Only the three visible dot-names are visible: a longer name starting with one is still hidden.
    { globs: ["*/y"], path: ".githubx/y", match: false },
    { globs: ["*/y"], path: ".github/y", match: true },
    { globs: ["a/*/x"], path: "a/.agents/x", match: true },
    { globs: ["a/*"], path: "a/.agents", match: true },
    { globs: ["*"], path: ".claude", match: true },
    // A brace range too large to expand is left to micromatch rather than failing the plugin.
    { globs: ["a{1..1000000}", "b"], path: "b", match: true },
  ])("$globs ~ $path -> $match", ({ globs, path, match }) => {
    expect(compileGlobs(globs).match(path)).toBe(match);
  });
});

describe("compileHiddenOptIns", () => {
  const optIns = compileHiddenOptIns(["skills/.curated/*/SKILL.md", "**/.cache/x", "!.neg/x", ".github/a/.b/c", "{.x,y}/z"]);
  test.each([
    { path: "skills/.curated", match: true },
    { path: "skills/.curated/x", match: false },
    { path: "skills/.other", match: false },
    { path: ".cache", match: true },
    { path: "a/b/.cache", match: true },
    { path: ".neg", match: false },
    { path: ".github", match: false },
    { path: ".github/a/.b", match: true },
    { path: ".x", match: true },
  ])("$path -> $match", ({ path, match }) => {
    expect(optIns.match(path)).toBe(match);
  });

  test("globs without a hidden segment open nothing", () => {
    expect(compileHiddenOptIns(["skills/**/SKILL.md", ".github/skills/*/SKILL.md"]).empty).toBe(true);
  });
});
