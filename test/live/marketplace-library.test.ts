// A marketplace library served from real repositories through git+file: relative entries on the marketplace's own
// fetch, a `url` and a `git-subdir` entry on a second repository, strict:false entries sharing `./` with their own
// skill lists, plugin.json filling in metadata, every skip reason under the library, `x@lib` references, and the
// marketplace re-read on every rebuild.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ShelfService } from "../../src/live/shelf-service.js";
import { buildHealth, type HealthReport } from "../../src/health/index.js";
import { commitFiles, git, makeRepo, makeTemp, removeTemps, skillMd } from "../sources/git-fixture.js";
import { configOf, gitSource, readText } from "./helpers.js";

let base: string;
let market: string;
let cache: string;
let service: ShelfService;
let health: HealthReport;

function marketplace(base: string, extra: object[] = []): string {
  return JSON.stringify({
    name: "team-market",
    metadata: { pluginRoot: "./plugins" },
    plugins: [
      {
        name: "alpha",
        source: "./plugins/alpha",
        description: "Alpha, from the marketplace.",
        category: "eng",
        tags: ["t1"],
        keywords: ["k1"],
        version: "1.0.0",
      },
      { name: "bare", source: "bare" },
      { name: "part-a", source: "./", strict: false, skills: ["./shared-skills/one"] },
      { name: "part-b", source: "./", strict: false, skills: ["./shared-skills/two"], commands: ["./cmds/hello.md"] },
      { name: "remote", source: { source: "url", url: `file://${base}/second` }, description: "From the second repository." },
      { name: "remote-sub", source: { source: "git-subdir", url: `file://${base}/second`, path: "nested", ref: "v2" } },
      { name: "broken", source: "./plugins/broken" },
      { name: "packaged", source: { source: "npm", package: "@team/skills" } },
      { name: "escapes", source: "../outside" },
      { name: "elsewhere", source: { source: "github", repo: "someone/else" } },
      { name: "zipped", source: { source: "url", url: `file://${base}/bundle.zip` } },
      ...extra,
    ],
  });
}

beforeAll(async () => {
  base = makeTemp();
  const second = makeRepo(base, "second", { "skills/r1/SKILL.md": skillMd("r1") });
  commitFiles(second, { "nested/skills/n1/SKILL.md": skillMd("n1") }, "nested");
  git(second, "tag", "v2");
  commitFiles(second, { "nested/skills/n2/SKILL.md": skillMd("n2") }, "after the tag");
  market = makeRepo(base, "market", {
    ".claude-plugin/marketplace.json": marketplace(base),
    "plugins/alpha/skills/a1/SKILL.md": skillMd("a1"),
    "plugins/bare/.claude-plugin/plugin.json": JSON.stringify({
      description: "Bare, from its plugin.json.",
      version: "2.0.0",
      keywords: ["mk"],
      skills: ["./custom"],
    }),
    "plugins/bare/custom/b1/SKILL.md": skillMd("b1"),
    "plugins/bare/skills/ignored/SKILL.md": skillMd("ignored"),
    "plugins/broken/.claude-plugin/plugin.json": "{ not json",
    "plugins/broken/skills/x1/SKILL.md": skillMd("x1"),
    "shared-skills/one/SKILL.md": skillMd("one"),
    "shared-skills/two/SKILL.md": skillMd("two"),
    "cmds/hello.md": "---\ndescription: Say hello.\n---\nHello from ${CLAUDE_PLUGIN_ROOT}.\n",
  });
  const yaml = `${gitSource(base)}libraries:
  - {name: market, source: "local://market"}
  - {name: picks, plugins: ["alpha@market", "missing@market", "packaged@market"]}
  - {name: eng, pluginSelector: {categories: [eng]}}
`;
  cache = makeTemp();
  service = await ShelfService.start(configOf(yaml, base), () => new Date(), { cacheDir: cache, exportGraceMs: 0 });
  health = buildHealth(service.current);
});

afterAll(async () => {
  await service.close();
  removeTemps();
});

test("entries become plugins <entry>@<library>, in marketplace order", () => {
  expect(health.libraries.market?.plugins).toEqual([
    "alpha@market",
    "bare@market",
    "part-a@market",
    "part-b@market",
    "remote@market",
    "remote-sub@market",
    "broken@market",
  ]);
  expect(health.libraries.market?.skills).toBe(6);
});

test("every entry that cannot be served is a skipped row under the library", () => {
  expect(health.libraries.market?.skipped).toEqual([
    { plugin: "packaged@market", reason: "Its source is an npm package: skillshelf never installs packages." },
    { plugin: "escapes@market", reason: 'Its source path "../outside" escapes the marketplace.' },
    { plugin: "elsewhere@market", reason: "Its repository is on https://github.com, which no declared git source serves." },
    { plugin: "zipped@market", reason: "Its source is an archive, which skillshelf does not fetch." },
  ]);
});

test("an entry's metadata lands in its plugin; plugin.json fills what the entry left out", () => {
  expect(health.plugins["alpha@market"]).toMatchObject({
    fetch: "local://market",
    root: "plugins/alpha",
    category: "eng",
    tags: ["t1"],
    keywords: ["k1"],
    version: "1.0.0",
    skills: 1,
  });
  expect(service.current.plugins.get("alpha@market")?.meta.description).toBe("Alpha, from the marketplace.");
  // pluginRoot resolved the bare source; its plugin.json's skills path replaced the convention.
  expect(health.plugins["bare@market"]).toMatchObject({ root: "plugins/bare", keywords: ["mk"], version: "2.0.0", skills: 1 });
  expect(service.current.plugins.get("bare@market")?.meta.description).toBe("Bare, from its plugin.json.");
  expect(service.current.plugins.get("bare@market")?.skills.map((s) => s.dir)).toEqual(["custom/b1"]);
});

test("a plugin.json that is not JSON fails that plugin only, naming the file", () => {
  expect(health.plugins["broken@market"]).toMatchObject({
    status: "failed",
    error: "The plugin manifest .claude-plugin/plugin.json is not valid JSON.",
  });
  expect(health.fetches["local://market"]?.status).toBe("ok");
});

test("strict:false entries share ./ with their own skill lists and commands", async () => {
  expect(health.plugins["part-a@market"]).toMatchObject({ root: "", skills: 1, prompts: 0 });
  expect(health.plugins["part-b@market"]).toMatchObject({ root: "", skills: 1, prompts: 1 });
  expect(service.current.plugins.get("part-a@market")?.skills.map((s) => s.name)).toEqual(["one"]);
  expect(service.current.plugins.get("part-b@market")?.skills.map((s) => s.name)).toEqual(["two"]);
  expect(health.libraries.market?.conflicts).toBeUndefined();
  expect(await readText(service.current, "skill://market/shared-skills/two/SKILL.md")).toBe(skillMd("two"));
});

test("url and git-subdir entries go through the declared git source that prefixes them", async () => {
  expect(health.plugins["remote@market"]).toMatchObject({ status: "ok", fetch: "local://second", root: "", skills: 1 });
  expect(health.plugins["remote-sub@market"]).toMatchObject({ status: "ok", fetch: "local://second?ref=v2", root: "nested", skills: 1 });
  expect(await readText(service.current, "skill://market/r1/SKILL.md")).toBe(skillMd("r1"));
  expect(await readText(service.current, "skill://market/n1/SKILL.md")).toBe(skillMd("n1"));
  expect(await readText(service.current, "skill://market/n2/SKILL.md")).toBe(null);
});

test("one bare clone per repository, however many plugins and refs read it", () => {
  expect(Object.keys(health.fetches).sort()).toEqual(["local://market", "local://second", "local://second?ref=v2"]);
  expect(fs.readdirSync(path.join(cache, "repos"))).toHaveLength(2);
});

describe("other libraries naming entries", () => {
  test("x@lib naming a missing entry is a library error listing what the marketplace publishes", () => {
    expect(health.libraries.picks).toMatchObject({
      plugins: ["alpha@market"],
      skills: 1,
      error:
        "Plugin 'missing@market' names no entry of the marketplace of library 'market'; it publishes: alpha, bare, part-a, part-b, remote, remote-sub, broken. " +
        "Plugin 'packaged@market' is a skipped entry of library 'market': Its source is an npm package: skillshelf never installs packages.",
    });
  });

  test("a selector sees marketplace plugins by their category", () => {
    expect(health.libraries.eng?.plugins).toEqual(["alpha@market"]);
    expect(health.plugins["alpha@market"]?.libraries).toEqual(["market", "picks", "eng"]);
  });
});

test("the marketplace is re-read on every rebuild; unchanged entries keep their harvest", async () => {
  const before = service.current.plugins;
  commitFiles(
    market,
    {
      ".claude-plugin/marketplace.json": marketplace(base, [{ name: "late", source: "./plugins/late" }]),
      "plugins/late/skills/l1/SKILL.md": skillMd("l1"),
    },
    "a new entry",
  );
  await service.refresh();
  const after = buildHealth(service.current);
  expect(after.libraries.market?.plugins.at(-1)).toBe("late@market");
  expect(after.libraries.picks?.error).toContain("it publishes: alpha, bare, part-a, part-b, remote, remote-sub, broken, late.");
  expect(await readText(service.current, "skill://market/l1/SKILL.md")).toBe(skillMd("l1"));
  // The second repository did not move: its plugins are the same harvest.
  expect(service.current.plugins.get("remote@market")).toBe(before.get("remote@market"));
  expect(service.current.plugins.get("alpha@market")).not.toBe(before.get("alpha@market"));
});
