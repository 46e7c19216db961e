// The systemd unit: `systemd-analyze verify` accepts it (and does flag a misspelt key), and its ExecStart run with
// its Environment= lines (paths mapped to temporary ones, %C to a temporary cache root) serves, answers /readyz
// and exits 0 on its KillSignal.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, expect, test } from "vitest";
import { childEnv, spawnCli, waitForListening } from "../scopes/cli.js";
import { send } from "../support/http.js";
import { REPO_ROOT, assertBuilt } from "../support/process.js";
import { freePorts, waitFor } from "../replicas/harness.js";

const UNIT = path.join(REPO_ROOT, "deploy", "systemd", "skillshelf.service");
const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) fs.rmSync(dir, { recursive: true, force: true });
});

function temp(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "skillshelf-systemd-"));
  temps.push(dir);
  return dir;
}

async function verify(file: string): Promise<{ code: number; stderr: string }> {
  return promisify(execFile)("systemd-analyze", ["verify", file]).then(
    ({ stderr }) => ({ code: 0, stderr }),
    (e: { code: number; stderr: string }) => ({ code: e.code, stderr: e.stderr }),
  );
}

/** `Key=value` lines of the [Service] section, in order. */
function serviceLines(): [string, string][] {
  const text = fs.readFileSync(UNIT, "utf8");
  const service = text.slice(text.indexOf("[Service]\n"), text.indexOf("[Install]\n"));
  return service
    .split("\n")
    .filter((line) => /^[A-Za-z]+=/.test(line))
    .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]);
}

test("systemd-analyze verify accepts the unit, and flags a misspelt key", async () => {
  expect(await verify(UNIT)).toEqual({ code: 0, stderr: "" });
  const bad = path.join(temp(), "skillshelf.service");
  fs.writeFileSync(bad, fs.readFileSync(UNIT, "utf8").replace("KillSignal=", "KilSignal="));
  expect((await verify(bad)).stderr).toContain("Unknown key 'KilSignal' in section [Service], ignoring.");
});

test("ExecStart with the unit's environment serves, is ready, and exits 0 on the KillSignal", async () => {
  assertBuilt();
  const lines = serviceLines();
  const value = (key: string): string[] => lines.filter(([k]) => k === key).map(([, v]) => v);
  expect(value("DynamicUser")).toEqual(["yes"]);
  expect(value("CacheDirectory")).toEqual(["skillshelf"]);
  const dir = temp();
  const [port] = await freePorts(1);
  const config = path.join(dir, "etc", "config.yaml");
  fs.mkdirSync(path.dirname(config), { recursive: true });
  const examples = path.join(REPO_ROOT, "examples", "engineering-kit");
  fs.writeFileSync(
    config,
    `plugins:\n  - {name: eng-kit, source: "${examples}"}\nlibraries:\n  - {name: engineering, plugins: [eng-kit]}\n`,
  );
  const map = (v: string): string =>
    v.replace("%C", path.join(dir, "cache")).replace("/etc/skillshelf/config.yaml", config).replace("/opt/skillshelf", REPO_ROOT);
  const env: Record<string, string> = {};
  for (const assignment of value("Environment")) {
    const [key, ...rest] = assignment.split("=");
    env[key!] = map(rest.join("="));
  }
  expect(Object.keys(env)).toEqual(["SKILLSHELF_CONFIG", "SKILLSHELF_CACHE_DIR", "SKILLSHELF_HOST", "SKILLSHELF_PORT"]);
  env.SKILLSHELF_PORT = String(port);
  const [node, cli, ...args] = value("ExecStart")[0]!.split(" ").map(map);
  expect(node).toBe("/usr/bin/node");
  const child = spawnCli(cli!, args, childEnv(env), dir);
  try {
    const origin = await waitForListening(child);
    expect(origin).toBe(`http://127.0.0.1:${port}`);
    const ready = await send(origin, { path: "/readyz" });
    expect([ready.status, ready.text]).toEqual([200, "ready\n"]);
    // The harvest record lands in the cache directory the unit names.
    await waitFor(
      () => fs.existsSync(path.join(dir, "cache", "skillshelf", "harvest.json")),
      () => child.stderr.join("\n"),
    );
  } finally {
    expect(value("KillSignal")).toEqual(["SIGTERM"]);
    child.process.kill("SIGTERM");
    expect(await child.exited).toBe(0);
  }
});
