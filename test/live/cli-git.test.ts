// The built CLI with git sources: --cache-dir, SKILLSHELF_CACHE_DIR and the XDG default place the cache; a
// credential refused at cold start exits 3 naming the fetch and never the token; serve refreshes on its timer.
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { RECORD_FILE } from "../../src/sources/index.js";
import { buildCli, childEnv, spawnCli, waitForListening, type BuiltCli } from "../scopes/cli.js";
import { commitFiles, git, makeRepo, makeTemp, removeTemps, skillMd } from "../sources/git-fixture.js";
import { startGitHttpServer, type GitHttpServer } from "../sources/git-http-server.js";
import { waitFor } from "./helpers.js";

const TOKEN = "ghp_FAKE0CLI0TOKEN0zyxwv";
let cli: BuiltCli;
let base: string;
let repo: string;
let configFile: string;
let server: GitHttpServer;

beforeAll(async () => {
  cli = await buildCli();
  base = makeTemp();
  repo = makeRepo(base, "kit", { "skills/alpha/SKILL.md": skillMd("alpha") });
  configFile = path.join(base, "skillshelf.yaml");
  fs.writeFileSync(
    configFile,
    `sources:\n  - {name: local, url: "git+file://${base}", refresh: 100ms}\nplugins:\n  - {name: kit, source: "local://kit?ref=main"}\nlibraries:\n  - {name: kit, plugins: [kit]}\n`,
  );
  git(base, "clone", "-q", "--bare", repo, path.join(base, "kit.git"));
  server = await startGitHttpServer(base, "x-access-token", TOKEN);
}, 120_000);

afterAll(async () => {
  await server.close();
  cli.remove();
  removeTemps();
});

async function run(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [cli.path, ...args], { cwd: base, env: childEnv(env) });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe("where the cache lives", () => {
  test.each([
    { name: "--cache-dir", args: (dir: string) => ["--cache-dir", dir], env: (_dir: string) => ({}), at: (dir: string) => dir },
    { name: "SKILLSHELF_CACHE_DIR", args: () => [], env: (dir: string) => ({ SKILLSHELF_CACHE_DIR: dir }), at: (dir: string) => dir },
    {
      name: "the XDG default",
      args: () => [],
      env: (dir: string) => ({ XDG_CACHE_HOME: dir }),
      at: (dir: string) => path.join(dir, "skillshelf"),
    },
  ])("$name", async ({ args, env, at }) => {
    const dir = makeTemp();
    const result = await run(["check", "--config", configFile, "--json", ...args(dir)], env(dir));
    expect(result.code).toBe(0);
    expect((JSON.parse(result.stdout) as { fetches: unknown }).fetches).toEqual({
      "local://kit?ref=main": { status: "ok", built: expect.any(String) },
    });
    expect(fs.existsSync(path.join(at(dir), RECORD_FILE))).toBe(true);
  });
});

test("check exits 3 on a credential refused at cold start, naming the fetch, never the token", async () => {
  const file = path.join(base, "http.yaml");
  fs.writeFileSync(
    file,
    `sources:\n  - name: host\n    url: git+${server.url}\n    auth: {password: {env: SKILLSHELF_TEST_TOKEN}}\nplugins:\n  - {name: kit, source: "host://kit.git"}\nlibraries:\n  - {name: kit, plugins: [kit]}\n`,
  );
  const refused = await run(["check", "--config", file, "--cache-dir", makeTemp()], {
    SKILLSHELF_TEST_TOKEN: "not-the-token",
  });
  expect(refused.code).toBe(3);
  expect(refused.stderr).toContain("skillshelf check: fetch host://kit.git: the git host refused the credentials\n");
  expect(refused.stderr.includes("not-the-token")).toBe(false);
  const accepted = await run(["check", "--config", file, "--cache-dir", makeTemp()], { SKILLSHELF_TEST_TOKEN: TOKEN });
  expect(accepted.code).toBe(0);
  expect(accepted.stdout + accepted.stderr).not.toContain(TOKEN);
});

test("serve re-resolves the branch on the source's refresh interval and logs the move", async () => {
  const child = spawnCli(
    cli.path,
    ["serve", "--config", configFile, "--port", "0", "--cache-dir", makeTemp(), "--log-format", "json"],
    childEnv({}),
    base,
  );
  try {
    const origin = await waitForListening(child);
    const next = commitFiles(repo, { "skills/alpha/SKILL.md": skillMd("alpha", "Moved.") }, "moved");
    await waitFor(() => child.stderr.some((line) => line.includes('"shelf rebuilt"')));
    expect(child.stderr.some((line) => line.includes('"fetch serves"') && line.includes(next.slice(0, 12)))).toBe(true);
    const health = (await (await fetch(`${origin}/health`)).json()) as { generation: number };
    expect(health.generation).toBe(2);
  } finally {
    child.process.kill("SIGTERM");
    expect(await child.exited).toBe(0);
  }
});
