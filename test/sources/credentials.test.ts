// Credentials: given to git through the environment of one child only, never written to the cache directory, a
// log line, an error or /health. Over smart HTTP (git http-backend behind Basic auth) the token is really used; a
// refused or missing one at cold start fails that fetch only: the rest of the shelf serves (`check` exits 3).
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { ShelfService } from "../../src/live/shelf-service.js";
import { buildHealth } from "../../src/health/index.js";
import { configOf, gitSource, keptLog, readText } from "../live/helpers.js";
import { commitFiles, git, listFiles, makeRepo, makeTemp, removeTemps, skillMd } from "./git-fixture.js";
import { startGitHttpServer, type GitHttpServer } from "./git-http-server.js";

const TOKEN = "ghp_FAKE0TOKEN0a1b2c3d4e5f6";
const AUTH = "    auth: {username: x-access-token, password: {env: SKILLSHELF_TEST_TOKEN}}\n";

const services: ShelfService[] = [];
const servers: GitHttpServer[] = [];
afterEach(async () => {
  for (const service of services.splice(0)) await service.close();
  for (const server of servers.splice(0)) await server.close();
  removeTemps();
});

/** Every file under `dir` (binary-safe) that holds `needle`, relative to `dir`. */
function filesHolding(dir: string, needle: string): string[] {
  const bytes = Buffer.from(needle);
  return listFiles(dir)
    .filter((file) => fs.readFileSync(file).includes(bytes))
    .map((file) => path.relative(dir, file));
}

describe("a token in an env var", () => {
  test("never reaches the cache directory, a log line, an error or /health (git+file)", async () => {
    const base = makeTemp();
    const repo = makeRepo(base, "kit", { "skills/alpha/SKILL.md": skillMd("alpha") });
    const yaml = `${gitSource(base, AUTH)}plugins:\n  - {name: kit, source: "local://kit?ref=main"}\nlibraries:\n  - {name: kit, plugins: [kit]}\n`;
    const cache = makeTemp();
    const log = keptLog();
    const service = await ShelfService.start(configOf(yaml, base), () => new Date(), {
      cacheDir: cache,
      log,
      env: { ...process.env, SKILLSHELF_TEST_TOKEN: TOKEN },
      exportGraceMs: 0,
    });
    services.push(service);
    commitFiles(repo, { "skills/alpha/SKILL.md": skillMd("alpha", "Changed.") }, "two");
    await service.refresh();
    await service.rebuild();
    fs.rmSync(repo, { recursive: true });
    await service.refresh(); // stale: an error is reported
    const health = JSON.stringify(buildHealth(service.current));
    expect(health).toContain("refresh failed");
    expect(health.includes(TOKEN)).toBe(false);
    expect(log.lines.length).toBeGreaterThan(2);
    expect(log.lines.filter((line) => line.includes(TOKEN))).toEqual([]);
    expect(filesHolding(cache, TOKEN)).toEqual([]);
    expect(listFiles(cache).length).toBeGreaterThan(5);
  });

  test("an unset variable at cold start names the fetch and the variable, never a value", async () => {
    const base = makeTemp();
    makeRepo(base, "kit", { "skills/alpha/SKILL.md": skillMd("alpha") });
    const yaml = `${gitSource(base, AUTH)}plugins:\n  - {name: kit, source: "local://kit"}\nlibraries:\n  - {name: kit, plugins: [kit]}\n`;
    const env = { ...process.env };
    delete env.SKILLSHELF_TEST_TOKEN;
    const service = await ShelfService.start(configOf(yaml, base), () => new Date(), { cacheDir: makeTemp(), env });
    services.push(service);
    const reason = "the credentials of source 'local' are unavailable: environment variable SKILLSHELF_TEST_TOKEN is not set";
    expect(service.refusedCredentials).toEqual([{ fetch: "local://kit", reason }]);
    expect(buildHealth(service.current).fetches["local://kit"]).toMatchObject({ status: "failed" });
  });
});

describe("over smart HTTP behind Basic auth", () => {
  async function serve(password: string | null, withLocal = false) {
    const base = makeTemp();
    const repo = makeRepo(base, "kit", { "skills/alpha/SKILL.md": skillMd("alpha") });
    git(base, "clone", "-q", "--bare", repo, path.join(base, "kit.git"));
    const server = await startGitHttpServer(base, "x-access-token", TOKEN);
    servers.push(server);
    const source = `sources:\n  - name: host\n    url: git+${server.url}\n${password === null ? "" : AUTH}`;
    // With a local plugin beside the git one, in a library of its own.
    const beside = withLocal ? "  - {name: beside, source: ./beside}\n" : "";
    if (withLocal) makeRepo(base, "beside", { "skills/beta/SKILL.md": skillMd("beta") });
    const libraries = withLocal
      ? "  - {name: kit, plugins: [kit]}\n  - {name: beside, plugins: [beside]}\n"
      : "  - {name: kit, plugins: [kit]}\n";
    const yaml = `${source}plugins:\n  - {name: kit, source: "host://kit.git"}\n${beside}libraries:\n${libraries}`;
    const env = { ...process.env, ...(password === null ? {} : { SKILLSHELF_TEST_TOKEN: password }) };
    const cache = makeTemp();
    const log = keptLog();
    return { server, cache, log, start: () => ShelfService.start(configOf(yaml, base), () => new Date(), { cacheDir: cache, env, log }) };
  }

  test("the right token is sent by git and the repository serves; nothing on disk or in the log holds it", async () => {
    const { server, cache, log, start } = await serve(TOKEN);
    const service = await start();
    services.push(service);
    expect(buildHealth(service.current).fetches["host://kit.git"]?.status).toBe("ok");
    expect(await readText(service.current, "skill://kit/alpha/SKILL.md")).toBe(skillMd("alpha"));
    expect(server.seen).toContain(`Basic ${Buffer.from(`x-access-token:${TOKEN}`).toString("base64")}`);
    expect(filesHolding(cache, TOKEN)).toEqual([]);
    expect(log.lines.filter((line) => line.includes(TOKEN))).toEqual([]);
  });

  test("a refused token at cold start fails that fetch only, and the plugin beside it serves", async () => {
    const { start, server } = await serve("wrong-token", true);
    const service = await start();
    services.push(service);
    expect(service.refusedCredentials).toEqual([{ fetch: "host://kit.git", reason: "the git host refused the credentials" }]);
    const health = buildHealth(service.current);
    expect(health.fetches["host://kit.git"]).toMatchObject({ status: "failed", error: "the git host refused the credentials" });
    expect(health.plugins["kit"]).toMatchObject({ status: "failed" });
    expect(await readText(service.current, "skill://beside/beta/SKILL.md")).toBe(skillMd("beta"));
    expect(JSON.stringify(health).includes("wrong-token")).toBe(false);
    expect(server.seen.length).toBeGreaterThan(0);
  });

  test("no auth declared: the fetch fails (it may be a typo), and the others still start", async () => {
    const { start } = await serve(null);
    const service = await start();
    services.push(service);
    expect(buildHealth(service.current).fetches["host://kit.git"]).toEqual({
      status: "failed",
      error: "the git host asked for credentials, and the source declares no auth (or the repository does not exist)",
    });
  });
});
