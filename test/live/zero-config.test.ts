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
  expect(health.libraries["team-market"]).toMatchObject({
    plugins: ["writing@team-market"],
    skills: 1,
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
  expect(health.libraries.plain).toMatchObject({ plugins: ["solo-kit@plain"], skills: 1 });
  expect(health.plugins.plain).toBeUndefined();
});
