// Zero-config directories (§8): one holding a marketplace file is served through it, one without as a single
// convention plugin; the choice is made again on every rebuild.
import path from "node:path";
import { afterAll, expect, test } from "vitest";
import { configFromDirectories } from "../../src/config/index.js";
import { ShelfService } from "../../src/live/shelf-service.js";
import { buildHealth } from "../../src/health/index.js";
import { makeTemp, removeTemps, skillMd, writeFiles } from "../sources/git-fixture.js";

const services: ShelfService[] = [];
afterAll(async () => {
  for (const service of services.splice(0)) await service.close();
  removeTemps();
});

test("a directory with a marketplace file is served through it; one without, by the conventions", async () => {
  const base = makeTemp();
  writeFiles(path.join(base, "Team Market"), {
    ".claude-plugin/marketplace.json": JSON.stringify({
      plugins: [
        { name: "writing", source: "./plugins/writing", category: "docs" },
        { name: "remote", source: { source: "github", repo: "o/r" } },
      ],
    }),
    "plugins/writing/skills/style/SKILL.md": skillMd("style"),
    "skills/not-an-entry/SKILL.md": skillMd("not-an-entry"),
  });
  writeFiles(path.join(base, "plain"), { "skills/solo/SKILL.md": skillMd("solo") });
  const config = configFromDirectories(["Team Market", "plain"], base);
  if (!config.ok) throw new Error("zero-config refused");
  const service = await ShelfService.start(config.config, () => new Date());
  services.push(service);
  let health = buildHealth(service.current);
  // The SKILL.md no entry serves is served by the directory's discovery plugin, after the entries.
  expect(health.libraries["team-market"]).toMatchObject({
    plugins: ["writing@team-market", "team-market"],
    skills: 2,
    skipped: [{ plugin: "remote@team-market", reason: "Its repository is on https://github.com, which no declared git source serves." }],
  });
  expect(health.plugins["writing@team-market"]).toMatchObject({ fetch: "team-market", root: "plugins/writing", category: "docs" });
  expect(health.libraries.plain).toMatchObject({ plugins: ["plain"], skills: 1 });
  expect(Object.keys(health.fetches).sort()).toEqual(["plain", "team-market"]);

  // A marketplace file appears in the plain directory: the next rebuild serves through it.
  writeFiles(path.join(base, "plain"), {
    ".claude-plugin/marketplace.json": JSON.stringify({ plugins: [{ name: "solo-kit", source: "./" }] }),
  });
  await service.rescan();
  health = buildHealth(service.current);
  expect(health.libraries.plain).toMatchObject({ plugins: ["solo-kit@plain", "plain"], skills: 1 });
  expect(health.plugins.plain).toMatchObject({ skills: 0 });
  expect(health.plugins.plain?.skipped).toBeUndefined();
});

test("a marketplace whose plugins list their skills elsewhere still serves every SKILL.md of the directory", async () => {
  // The layout of a collection whose plugin folders hold only a Copilot manifest listing skills that are copied in
  // at release: the skills live in the repository's own skills/ folder.
  const base = makeTemp();
  const manifest = (skills: string[]): string => JSON.stringify({ name: "x", description: "A plugin.", skills });
  writeFiles(path.join(base, "copilot"), {
    ".github/plugin/marketplace.json": JSON.stringify({
      metadata: { pluginRoot: "./plugins" },
      plugins: [
        { name: "azure", source: "azure" },
        { name: "docs", source: "docs" },
      ],
    }),
    "plugins/azure/.github/plugin/plugin.json": manifest(["./skills/az-cost/", "./skills/az-health/"]),
    "plugins/docs/.github/plugin/plugin.json": manifest(["./skills/readme/", "./skills/missing/"]),
    "plugins/docs/skills/readme/SKILL.md": skillMd("readme"),
    "plugins/docs/skills/broken/SKILL.md": "---\nname: broken\n---\nno description\n",
    "skills/az-cost/SKILL.md": skillMd("az-cost"),
    "skills/az-health/SKILL.md": skillMd("az-health"),
    "skills/lonely/SKILL.md": skillMd("lonely"),
  });
  const config = configFromDirectories(["copilot"], base);
  if (!config.ok) throw new Error("zero-config refused");
  const service = await ShelfService.start(config.config, () => new Date());
  services.push(service);
  const health = buildHealth(service.current);
  expect(health.libraries.copilot).toMatchObject({ plugins: ["azure@copilot", "docs@copilot", "copilot"], skills: 4, prompts: 0 });
  expect([...(service.current.libraries.get("copilot")?.skills.keys() ?? [])].sort()).toEqual(["az-cost", "az-health", "lonely", "readme"]);
  expect(service.current.libraries.get("copilot")?.skills.get("readme")?.plugin).toBe("docs@copilot");
  expect(service.current.libraries.get("copilot")?.skills.get("az-cost")?.plugin).toBe("copilot");
  // Listed paths that are absent are named; one that exists is served by its plugin, and the plugin's unlisted
  // SKILL.md is served by discovery rather than hidden.
  expect(health.plugins["azure@copilot"]?.warnings).toEqual([
    {
      path: ".github/plugin/plugin.json",
      reason: "Its skills paths ./skills/az-cost/, ./skills/az-health/ are not in the plugin, so nothing is served from them.",
    },
  ]);
  expect(health.plugins["docs@copilot"]).toMatchObject({ skills: 1 });
  expect(health.plugins["docs@copilot"]?.skipped).toBeUndefined();
  expect(health.plugins["docs@copilot"]?.warnings).toEqual([
    {
      path: ".github/plugin/plugin.json",
      reason: "Its skills paths ./skills/missing/ are not in the plugin, so nothing is served from them.",
    },
  ]);
  expect(health.plugins.copilot).toMatchObject({ skills: 3 });
  expect(health.plugins.copilot?.skipped).toEqual([{ path: "plugins/docs/skills/broken", reason: expect.stringContaining("description") }]);
  expect(health.libraries.copilot?.conflicts).toBeUndefined();
});

test("a marketplace plugin's prompts are its commands, not its worker templates; a different command of a taken name is renamed", async () => {
  const base = makeTemp();
  writeFiles(path.join(base, "audits"), {
    ".claude-plugin/marketplace.json": JSON.stringify({
      plugins: [
        { name: "c-review", source: "./plugins/c-review" },
        { name: "conductor", source: "./plugins/conductor" },
      ],
    }),
    "plugins/c-review/commands/setup.md": "---\ndescription: Set up the C review\n---\nSet up.\n",
    "plugins/c-review/prompts/clusters/memory.md": "---\ndescription: A worker template\n---\nCheck memory.\n",
    "plugins/c-review/skills/c-review/SKILL.md": skillMd("c-review"),
    "plugins/conductor/commands/setup.md": "---\ndescription: Set up the conductor\n---\nConduct.\n",
  });
  const config = configFromDirectories(["audits"], base);
  if (!config.ok) throw new Error("zero-config refused");
  const service = await ShelfService.start(config.config, () => new Date());
  services.push(service);
  const library = service.current.libraries.get("audits");
  expect([...(library?.prompts.keys() ?? [])].sort()).toEqual(["audits_conductor.setup", "audits_setup"]);
  expect(library?.prompts.get("audits_conductor.setup")?.description).toBe("Set up the conductor");
  expect(buildHealth(service.current).libraries.audits?.conflicts).toEqual({
    "conductor@audits":
      "serves the rest in library 'audits' without what collides: prompt audits_setup is already served by plugin 'c-review@audits', " +
      "so this plugin's different prompt is served as audits_conductor.setup",
  });
});

test("a directory's library takes its description from the plugin manifest when no config wrote one", async () => {
  const base = makeTemp();
  writeFiles(path.join(base, "kit"), {
    ".claude-plugin/plugin.json": JSON.stringify({ name: "kit", description: "Runbooks for the on-call engineer." }),
    "skills/page/SKILL.md": skillMd("page"),
  });
  writeFiles(path.join(base, "bare"), { "skills/solo/SKILL.md": skillMd("solo") });
  writeFiles(path.join(base, "Team Market"), {
    ".claude-plugin/marketplace.json": JSON.stringify({
      plugins: [{ name: "writing", source: "./plugins/writing", description: "Style guides for prose." }],
    }),
    "plugins/writing/skills/style/SKILL.md": skillMd("style"),
  });
  const config = configFromDirectories(["kit", "bare", "Team Market"], base);
  if (!config.ok) throw new Error("zero-config refused");
  const service = await ShelfService.start(config.config, () => new Date());
  services.push(service);
  const descriptions = Object.fromEntries([...service.current.libraries].map(([name, library]) => [name, library.description]));
  expect(descriptions).toEqual({ kit: "Runbooks for the on-call engineer.", bare: "", "team-market": "Style guides for prose." });
});
