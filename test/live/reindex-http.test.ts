// POST /reindex over a real HTTP server on port 0: a branch that advanced is picked up at once, the answer is the
// health body plus every fetch key rebuilt, a second call with nothing new keeps the generation, and a stale fetch
// shows in the very answer.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { ShelfService } from "../../src/live/shelf-service.js";
import { commitFiles, makeRepo, makeTemp, removeTemps, skillMd } from "../sources/git-fixture.js";
import { serveApp, type ServedApp } from "../support/http-app.js";
import { configOf, gitSource, readText } from "./helpers.js";

let service: ShelfService;
let server: ServedApp;
let url: string;
let base: string;
let repo: string;
const errors: unknown[] = [];

beforeAll(async () => {
  base = makeTemp();
  repo = makeRepo(base, "kit", { "skills/alpha/SKILL.md": skillMd("alpha", "First.") });
  makeRepo(base, "notes", { "skills/notes/SKILL.md": skillMd("notes") });
  const yaml = `${gitSource(base)}plugins:
  - {name: kit, source: "local://kit?ref=main"}
  - {name: notes, source: "local://notes"}
libraries:
  - {name: kit, plugins: [kit, notes]}
`;
  service = await ShelfService.start(configOf(yaml, base), () => new Date(), { cacheDir: makeTemp() });
  server = await serveApp(service, { version: "test", ttlMs: 60_000, onError: (error) => errors.push(error) });
  url = server.origin;
});

afterAll(async () => {
  await server.close();
  await service.close();
  removeTemps();
});

async function reindex(): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${url}/reindex`, { method: "POST" });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

test("a branch that advanced is served after POST /reindex, which answers health plus the fetch keys", async () => {
  commitFiles(repo, { "skills/alpha/SKILL.md": skillMd("alpha", "Second.") }, "second");
  const { status, body } = await reindex();
  expect(status).toBe(200);
  expect(body.rebuilt).toEqual(["local://kit?ref=main", "local://notes"]);
  expect(body).toMatchObject({ status: "ok", generation: 2, skills: 2 });
  expect(await readText(service.current, "skill://kit/alpha/SKILL.md")).toBe(skillMd("alpha", "Second."));
});

test("a second /reindex with nothing new keeps the generation", async () => {
  const { body } = await reindex();
  expect(body.generation).toBe(2);
});

test("a repository gone since: the answer shows the fetch stale, and the old tree still serves", async () => {
  fs.renameSync(repo, path.join(base, "gone"));
  const { status, body } = await reindex();
  expect(status).toBe(200);
  expect(body).toMatchObject({ status: "degraded", generation: 3 });
  expect((body.fetches as Record<string, { status: string }>)["local://kit?ref=main"]?.status).toBe("stale");
  expect(await readText(service.current, "skill://kit/alpha/SKILL.md")).toBe(skillMd("alpha", "Second."));
  expect(errors).toEqual([]);
});
