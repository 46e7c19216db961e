// A cache directory that cannot be written: the default one is one warning naming the path and the way out, then
// the server runs without a record; one the operator gave is refused before anything is harvested. (A file where a
// directory should be is unwritable even for root.)
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { send } from "../support/http.js";
import { EXAMPLE_CONFIG, killStragglers, runCli, startHttpServer } from "../support/process.js";
import { tempDir } from "../support/temp.js";

let blocked: string;
beforeAll(() => {
  blocked = path.join(tempDir("skillshelf-cache-dir-"), "not-a-directory");
  writeFileSync(blocked, "");
});
afterAll(() => {
  killStragglers();
  rmSync(blocked, { force: true });
});

const WARNING =
  "cache directory not writable: running without a harvest record; set --cache-dir or SKILLSHELF_CACHE_DIR to a writable directory";

describe("an unwritable default cache directory", () => {
  it("serve warns once, naming the path and the flag, and serves", async () => {
    const server = await startHttpServer(["--config", EXAMPLE_CONFIG, "--log-format", "json"], { env: { XDG_CACHE_HOME: blocked } });
    try {
      const health = await send(server.origin, { path: "/health" });
      expect([health.status, (JSON.parse(health.text) as { status: string }).status]).toEqual([200, "warnings"]);
      expect((await send(server.origin, { method: "POST", path: "/reindex" })).status).toBe(200);
    } finally {
      await server.stop();
    }
    const warnings = server
      .stderr()
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line["level"] === "warn" && line["msg"] !== "skipped")
      .map(({ time: _time, ...rest }) => rest);
    expect(warnings).toEqual([{ level: "warn", msg: WARNING, path: path.join(blocked, "skillshelf"), error: "ENOTDIR" }]);
  });

  it("check warns once on stderr and reports as usual", async () => {
    const result = await runCli(["check", "--config", EXAMPLE_CONFIG], { env: { XDG_CACHE_HOME: blocked } });
    expect(result.code).toBe(1);
    expect(result.stdout.split("\n")[0]).toBe("8 skills and 4 prompts in 3 libraries (warnings: 1 skipped)");
    expect(result.stderr).toBe(`skillshelf check: warning: ${WARNING} (${path.join(blocked, "skillshelf")}: ENOTDIR)\n`);
  });
});

describe("an unwritable --cache-dir", () => {
  it("is refused with exit 2", async () => {
    const result = await runCli(["check", "--config", EXAMPLE_CONFIG, "--cache-dir", path.join(blocked, "cache")]);
    expect(result.code).toBe(2);
    expect(result.stderr.split("\n")[0]).toBe(
      `skillshelf check: --cache-dir: the directory ${path.join(blocked, "cache")} cannot be written (ENOTDIR)`,
    );
  });
});
