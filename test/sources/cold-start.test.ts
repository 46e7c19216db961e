// Cold start from the cache record: a restart with an unchanged config serves without the network (here: with the
// repository gone), a changed config discards the record, a pinned commit never needs the network again.
import fs from "node:fs";
import path from "node:path";
import { afterEach, expect, test } from "vitest";
import { ShelfService } from "../../src/live/shelf-service.js";
import { buildHealth } from "../../src/health/index.js";
import { RECORD_FILE } from "../../src/sources/index.js";
import { configOf, gitSource, keptLog, readText } from "../live/helpers.js";
import { git, makeRepo, makeTemp, removeTemps, skillMd } from "./git-fixture.js";

const services: ShelfService[] = [];
afterEach(async () => {
  for (const service of services.splice(0)) await service.close();
  removeTemps();
});

async function start(yaml: string, base: string, cache: string) {
  const log = keptLog();
  const service = await ShelfService.start(configOf(yaml, base), () => new Date(), { cacheDir: cache, log });
  services.push(service);
  return { service, log };
}

function fixture() {
  const base = makeTemp();
  const repo = makeRepo(base, "kit", { "skills/alpha/SKILL.md": skillMd("alpha") });
  const pinned = git(repo, "rev-parse", "HEAD");
  const yaml = `${gitSource(base)}plugins:
  - {name: kit, source: "local://kit"}
  - {name: pinned, source: "local://kit?ref=${pinned}"}
libraries:
  - {name: kit, plugins: [kit]}
  - {name: pinned, plugins: [pinned]}
`;
  return { base, repo, yaml, cache: makeTemp() };
}

test("a restart with an unchanged config serves from the cache record without the network", async () => {
  const { base, repo, yaml, cache } = fixture();
  const first = await start(yaml, base, cache);
  await first.service.close();
  const record = JSON.parse(fs.readFileSync(path.join(cache, RECORD_FILE), "utf8")) as { fetches: Record<string, unknown> };
  expect(Object.keys(record.fetches).sort()).toEqual(["local://kit", expect.stringMatching(/^local:\/\/kit\?ref=[0-9a-f]{40}$/)]);

  // No repository to reach: only the record can serve now.
  fs.rmSync(repo, { recursive: true });
  const second = await start(yaml, base, cache);
  const health = buildHealth(second.service.current);
  expect(Object.values(health.fetches).map((f) => f.status)).toEqual(["ok", "ok"]);
  expect(await readText(second.service.current, "skill://kit/alpha/SKILL.md")).toBe(skillMd("alpha"));
  expect(second.log.lines.some((line) => line.includes('"level":"error"') || line.includes('"level":"warn"'))).toBe(false);
});

test("a changed config discards the record; a pinned commit still serves from its export", async () => {
  const { base, repo, yaml, cache } = fixture();
  await (await start(yaml, base, cache)).service.close();
  fs.rmSync(repo, { recursive: true });
  const changed = yaml.replace("libraries:\n", "libraries:\n  - {name: extra, description: changed, plugins: [kit]}\n");
  const { service } = await start(changed, base, cache);
  const health = buildHealth(service.current);
  expect(health.fetches["local://kit"]?.status).toBe("failed");
  const pinned = Object.entries(health.fetches).find(([key]) => key.includes("?ref="));
  expect(pinned?.[1].status).toBe("ok");
  expect(await readText(service.current, "skill://pinned/alpha/SKILL.md")).toBe(skillMd("alpha"));
});

test("a record written by hand cannot point outside the cache", async () => {
  const { base, yaml, cache } = fixture();
  await (await start(yaml, base, cache)).service.close();
  const file = path.join(cache, RECORD_FILE);
  const record = JSON.parse(fs.readFileSync(file, "utf8")) as { fetches: Record<string, { commit: string }> };
  for (const entry of Object.values(record.fetches)) entry.commit = "../../../etc";
  fs.writeFileSync(file, JSON.stringify(record));
  const { service } = await start(yaml, base, cache);
  // The tampered entries are ignored: the fetch goes to the repository again.
  expect(await readText(service.current, "skill://kit/alpha/SKILL.md")).toBe(skillMd("alpha"));
});
