// The four status words, one definition: what decides each, the HTTP status /health answers with it, the `check`
// summary and exit code — the last two against the built CLI on real folders.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpStatusOf, statusOf } from "../../src/health/index.js";
import { send } from "../support/http.js";
import { REPO_ROOT, killStragglers, runCli, startHttpServer } from "../support/process.js";

const NONE = {
  skipped: 0,
  conflicts: 0,
  dangling: 0,
  failedPlugins: 0,
  plugins: 2,
  failedLibraries: 0,
  staleFetches: 0,
  failedFetches: 0,
  unwatched: 0,
  cooling: 0,
  quarantined: 0,
  served: 3,
};

describe("statusOf", () => {
  it.each([
    [{}, "ok"],
    [{ skipped: 1 }, "warnings"],
    [{ conflicts: 1 }, "warnings"],
    [{ dangling: 3 }, "warnings"],
    [{ quarantined: 1 }, "warnings"],
    [{ staleFetches: 1, skipped: 1 }, "degraded"],
    [{ cooling: 1 }, "degraded"],
    [{ failedFetches: 1 }, "degraded"],
    [{ unwatched: 1 }, "degraded"],
    [{ failedLibraries: 1 }, "degraded"],
    [{ failedPlugins: 1 }, "degraded"],
    [{ failedPlugins: 2, failedFetches: 2 }, "failed"],
    [{ plugins: 0 }, "ok"],
    [{ served: 0 }, "warnings"],
  ])("%j is %s", (counts, status) => {
    expect(statusOf({ ...NONE, ...counts })).toBe(status);
  });

  it("answers /health with 503 only when failed", () => {
    expect(["ok", "warnings", "degraded", "failed"].map((s) => httpStatusOf(s as never))).toEqual([200, 200, 200, 503]);
  });
});

describe("the CLI's status, summary line and exit code agree", () => {
  let dir: string;
  const LIBRARIES = (plugins: string): string => `libraries:\n  - name: lib\n    description: d\n    plugins: [${plugins}]\n`;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), "skillshelf-status-"));
    cpSync(path.join(REPO_ROOT, "examples", "engineering-kit"), path.join(dir, "eng"), { recursive: true });
    writeFileSync(path.join(dir, "ok.yaml"), `plugins:\n  - name: eng\n    source: ./eng\n${LIBRARIES("eng")}`);
    writeFileSync(
      path.join(dir, "degraded.yaml"),
      `plugins:\n  - name: eng\n    source: ./eng\n  - name: gone\n    source: ./nope\n${LIBRARIES("eng, gone")}`,
    );
    writeFileSync(path.join(dir, "failed.yaml"), `plugins:\n  - name: gone\n    source: ./nope\n${LIBRARIES("gone")}`);
  });
  afterAll(() => {
    killStragglers();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    ["ok", 0, "(ok)", 200],
    ["degraded", 1, "(degraded: 1 plugin failed, 1 fetch failed)", 200],
    ["failed", 1, "(failed: 1 plugin failed, 1 fetch failed)", 503],
  ])("%s: check exits %i with %s; /health answers %i", async (name, code, summary, http) => {
    const config = path.join(dir, `${name}.yaml`);
    const cacheDir = path.join(dir, `cache-${name}`);
    const check = await runCli(["check", "--config", config, "--cache-dir", cacheDir]);
    expect(check.code).toBe(code);
    expect(check.stdout.split("\n")[0]).toMatch(new RegExp(` in 1 library ${summary.replace(/[()]/g, "\\$&")}$`));
    const server = await startHttpServer(["--config", config, "--cache-dir", cacheDir]);
    try {
      const health = await send(server.origin, { path: "/health" });
      expect([health.status, (JSON.parse(health.text) as { status: string }).status]).toEqual([http, name]);
    } finally {
      await server.stop();
    }
  });
});
