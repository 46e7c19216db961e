// Refresh and staleness against a real repository: a branch that advances is picked up by a refresh, by the
// refresh timer and by a rebuild (/reindex); a repository that disappears leaves its fetch stale while the last
// good tree keeps serving; it recovers on the next good refresh; superseded exports go after the grace period.
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { ShelfService } from "../../src/live/shelf-service.js";
import { buildHealth } from "../../src/health/index.js";
import { configOf, gitSource, keptLog, readText, waitFor } from "../live/helpers.js";
import { commitFiles, makeRepo, makeTemp, removeTemps, skillMd } from "./git-fixture.js";

const services: ShelfService[] = [];
afterEach(async () => {
  for (const service of services.splice(0)) await service.close();
  removeTemps();
});

const body = (text: string) => skillMd("alpha", "The alpha skill.", `${text}\n`);
const ALPHA = "skill://kit/alpha/SKILL.md";

async function setup(sourceExtra = "", graceMs = 0) {
  const base = makeTemp();
  const repo = makeRepo(base, "kit", { "skills/alpha/SKILL.md": body("one") });
  const other = makeRepo(base, "other", { "skills/beta/SKILL.md": skillMd("beta") });
  const yaml = `${gitSource(base, sourceExtra)}plugins:
  - {name: kit, source: "local://kit?ref=main"}
  - {name: other, source: "local://other"}
libraries:
  - {name: kit, plugins: [kit]}
  - {name: other, plugins: [other]}
`;
  const cache = makeTemp();
  const log = keptLog();
  const service = await ShelfService.start(configOf(yaml, base), () => new Date(), { cacheDir: cache, log, exportGraceMs: graceMs });
  services.push(service);
  return { base, repo, other, cache, log, service };
}

function exportsOf(cache: string): string[] {
  const trees = path.join(cache, "trees");
  return fs.readdirSync(trees).flatMap((id) => fs.readdirSync(path.join(trees, id)).map((commit) => `${id}/${commit}`));
}

describe("a branch that advances", () => {
  test("a refresh with nothing new keeps the generation", async () => {
    const { service } = await setup();
    expect(await service.refresh()).toEqual(["local://kit?ref=main", "local://other"]);
    expect(service.current.generation).toBe(1);
  });

  test("is picked up by a refresh of its source, and the superseded export is removed", async () => {
    const { repo, cache, service } = await setup();
    expect(exportsOf(cache)).toHaveLength(2);
    commitFiles(repo, { "skills/alpha/SKILL.md": body("two") }, "two");
    // Another source's refresh does not look.
    await service.refresh("elsewhere");
    expect(await readText(service.current, ALPHA)).toBe(body("one"));
    await service.refresh("local");
    expect(service.current.generation).toBe(2);
    expect(await readText(service.current, ALPHA)).toBe(body("two"));
    await waitFor(() => exportsOf(cache).length === 2);
  });

  test("is picked up by a rebuild (/reindex), which answers every fetch key", async () => {
    const { repo, service } = await setup();
    commitFiles(repo, { "skills/alpha/SKILL.md": body("three") }, "three");
    expect(await service.rebuild()).toEqual(["local://kit?ref=main", "local://other"]);
    expect(service.current.generation).toBe(2);
    expect(await readText(service.current, ALPHA)).toBe(body("three"));
    // Rebuilding again with nothing new changes nothing.
    await service.rebuild();
    expect(service.current.generation).toBe(2);
  });

  test("is picked up by the source's refresh timer", async () => {
    const { repo, service } = await setup("    refresh: 50ms\n");
    service.startRefreshTimers();
    commitFiles(repo, { "skills/alpha/SKILL.md": body("timer") }, "timer");
    await waitFor(() => service.current.generation === 2);
    expect(await readText(service.current, ALPHA)).toBe(body("timer"));
  });

  test("a rebuild re-harvests only the plugins whose fetch moved", async () => {
    const { repo, service } = await setup();
    const before = service.current.plugins;
    commitFiles(repo, { "skills/alpha/SKILL.md": body("moved") }, "moved");
    await service.refresh();
    expect(service.current.plugins.get("other")).toBe(before.get("other"));
    expect(service.current.plugins.get("kit")).not.toBe(before.get("kit"));
  });
});

describe("a repository that disappears", () => {
  test("leaves its fetch stale while the old content serves, and recovers on the next good refresh", async () => {
    const { base, repo, log, service } = await setup();
    fs.renameSync(repo, path.join(base, "moved-away"));
    await service.refresh();
    const health = buildHealth(service.current);
    expect(health.status).toBe("degraded");
    expect(health.fetches["local://kit?ref=main"]).toMatchObject({
      status: "stale",
      error: "refresh failed: the repository could not be reached: it may not exist, or its host is down; serving the last good tree",
    });
    expect(health.fetches["local://other"]?.status).toBe("ok");
    expect(health.plugins.kit?.status).toBe("ok");
    expect(await readText(service.current, ALPHA)).toBe(body("one"));
    expect(service.current.generation).toBe(2);
    expect(log.lines.filter((line) => line.includes('"fetch stale"'))).toHaveLength(1);

    // Still gone: still stale, nothing new to announce.
    await service.refresh();
    expect(service.current.generation).toBe(2);

    fs.renameSync(path.join(base, "moved-away"), repo);
    commitFiles(repo, { "skills/alpha/SKILL.md": body("back") }, "back");
    await service.refresh();
    expect(buildHealth(service.current).fetches["local://kit?ref=main"]).toEqual({ status: "ok", built: expect.any(String) });
    expect(await readText(service.current, ALPHA)).toBe(body("back"));
    expect(log.lines.filter((line) => line.includes('"fetch recovered"'))).toHaveLength(1);
  });

  test("a cold start with no tree is failed, and the other fetches serve", async () => {
    const base = makeTemp();
    makeRepo(base, "other", { "skills/beta/SKILL.md": skillMd("beta") });
    const yaml = `${gitSource(base)}plugins:
  - {name: gone, source: "local://gone"}
  - {name: other, source: "local://other"}
libraries:
  - {name: lib, plugins: [gone, other]}
`;
    const service = await ShelfService.start(configOf(yaml, base), () => new Date(), { cacheDir: makeTemp() });
    services.push(service);
    const health = buildHealth(service.current);
    expect(health.fetches["local://gone"]).toEqual({
      status: "failed",
      error: "the repository could not be reached: it may not exist, or its host is down",
    });
    expect(health.libraries.lib?.skills).toBe(1);
    expect(await readText(service.current, "skill://lib/beta/SKILL.md")).toBe(skillMd("beta"));
  });
});
