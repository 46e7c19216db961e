// Every ref form against a real repository served through git+file: the right bytes, one clone for all of them.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ShelfService } from "../../src/live/shelf-service.js";
import { buildHealth } from "../../src/health/index.js";
import { configOf, gitSource, readText } from "../live/helpers.js";
import { commitFiles, git, makeRepo, makeTemp, removeTemps, skillMd } from "./git-fixture.js";

let service: ShelfService;
let cache: string;
let first: string;
let second: string;

const body = (text: string) => skillMd("alpha", "The alpha skill.", `${text}\n`);

beforeAll(async () => {
  const base = makeTemp();
  const repo = makeRepo(base, "kit", { "skills/alpha/SKILL.md": body("first"), "docs/guide/SKILL.md": skillMd("guide") });
  first = git(repo, "rev-parse", "HEAD");
  git(repo, "tag", "light");
  git(repo, "tag", "-a", "annotated", "-m", "an annotated tag");
  git(repo, "tag", "both");
  git(repo, "checkout", "-q", "-b", "feature");
  commitFiles(repo, { "skills/alpha/SKILL.md": body("feature") }, "feature");
  git(repo, "checkout", "-q", "main");
  second = commitFiles(repo, { "skills/alpha/SKILL.md": body("second") }, "second");
  // `both` is a tag on the first commit and a branch on the feature commit: the branch wins.
  git(repo, "branch", "both", "feature");

  const forms: Record<string, string> = {
    default: "local://kit",
    main: "local://kit?ref=main",
    feature: "local://kit?ref=feature",
    light: "local://kit?ref=light",
    annotated: "local://kit?ref=annotated",
    both: "local://kit?ref=both",
    pinned: `local://kit?ref=${first}`,
    unknown: "local://kit?ref=nope",
    docs: "local://kit//docs?ref=main",
  };
  const yaml = [
    gitSource(base),
    "plugins:",
    ...Object.entries(forms).map(
      ([name, source]) => `  - {name: ${name}, source: "${source}"${name === "docs" ? ', skills: ["*/SKILL.md"]' : ""}}`,
    ),
    "libraries:",
    ...Object.keys(forms).map((name) => `  - {name: ${name}, plugins: [${name}]}`),
  ].join("\n");
  cache = makeTemp();
  service = await ShelfService.start(configOf(yaml, base), () => new Date(0), { cacheDir: cache });
});

afterAll(async () => {
  await service.close();
  removeTemps();
});

describe("each ref form serves the right bytes", () => {
  test.each([
    { library: "default", expect: "second" },
    { library: "main", expect: "second" },
    { library: "feature", expect: "feature" },
    { library: "light", expect: "first" },
    { library: "annotated", expect: "first" },
    { library: "both", expect: "feature" },
    { library: "pinned", expect: "first" },
  ])("$library → $expect", async ({ library, expect: text }) => {
    expect(await readText(service.current, `skill://${library}/alpha/SKILL.md`)).toBe(body(text));
  });

  test("a subdirectory of the fetch is the plugin root", async () => {
    expect(await readText(service.current, "skill://docs/guide/SKILL.md")).toBe(skillMd("guide"));
    expect(buildHealth(service.current).plugins.docs).toMatchObject({ status: "ok", fetch: "local://kit?ref=main", root: "docs" });
  });
});

test("an unknown ref fails that fetch only, with a message naming the ref", () => {
  const health = buildHealth(service.current);
  expect(health.fetches["local://kit?ref=nope"]).toEqual({
    status: "failed",
    error: "ref 'nope' is neither a branch nor a tag of the repository",
  });
  expect(health.plugins.unknown).toMatchObject({
    status: "failed",
    error: "Fetch local://kit?ref=nope failed: ref 'nope' is neither a branch nor a tag of the repository",
  });
  expect(health.plugins.main?.status).toBe("ok");
  expect(health.status).toBe("degraded");
});

test("fetch keys are the addresses as written minus the subdirectory; plugins on one ref share one fetch", () => {
  expect(Object.keys(buildHealth(service.current).fetches).sort()).toEqual(
    [
      "local://kit",
      "local://kit?ref=main",
      "local://kit?ref=feature",
      "local://kit?ref=light",
      "local://kit?ref=annotated",
      "local://kit?ref=both",
      `local://kit?ref=${first}`,
      "local://kit?ref=nope",
    ].sort(),
  );
});

test("one bare clone serves every ref, and each commit is exported once", () => {
  expect(fs.readdirSync(path.join(cache, "repos"))).toHaveLength(1);
  const [id] = fs.readdirSync(path.join(cache, "trees"));
  const commits = fs.readdirSync(path.join(cache, "trees", id as string)).sort();
  expect(commits).toHaveLength(3);
  expect(commits).toContain(first);
  expect(commits).toContain(second);
});

test("no path in the report is absolute or names the cache", () => {
  const text = JSON.stringify(buildHealth(service.current));
  expect(text.includes(cache)).toBe(false);
  expect(text.includes("/tmp")).toBe(false);
});
