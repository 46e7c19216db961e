// The built CLI with a WebDAV source on a real WebDAV server: `serve` answers a read of an edited file from the share
// at once (cache: live), shows the fetch cooling on /health while the server is down, and picks edits, new files
// and recovery up on POST /reindex; `check` exits 3 on refused credentials, naming the fetch and never the password.
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, expect, test } from "vitest";
import { buildCli, childEnv, spawnCli, waitForListening, type BuiltCli } from "../scopes/cli.js";
import { tempDir } from "../support/temp.js";
import { DavServer } from "../sources/webdav-server.js";
import { waitFor } from "./helpers.js";

const PASSWORD = "dav-FAKE-cli-pa55-3e4f";
const skillMd = (name: string, body: string) => `---\nname: ${name}\ndescription: The ${name} skill.\n---\n${body}\n`;

let cli: BuiltCli;
let root: string;
let server: DavServer;
let base: string;

beforeAll(async () => {
  cli = await buildCli();
  root = tempDir("skillshelf-cli-dav-share-");
  fs.mkdirSync(path.join(root, "Team Skills", "skills", "alpha"), { recursive: true });
  fs.writeFileSync(path.join(root, "Team Skills", "skills", "alpha", "SKILL.md"), skillMd("alpha", "one"));
  fs.utimesSync(path.join(root, "Team Skills", "skills", "alpha", "SKILL.md"), 1_000_000, 1_000_000);
  server = await DavServer.start(root, { users: { bot: PASSWORD } });
  base = tempDir("skillshelf-cli-dav-conf-");
}, 120_000);

afterAll(async () => {
  await server.stop();
  cli.remove();
});

function configFile(name: string, extra: string): string {
  const file = path.join(base, name);
  fs.writeFileSync(
    file,
    `sources:\n  - name: team\n    url: webdav+${server.origin}\n    auth: {username: bot, password: {env: TEAM_DAV_PASSWORD}}\n${extra}plugins:\n  - {name: kit, source: "team://Team Skills"}\nlibraries:\n  - {name: kit, plugins: [kit]}\n`,
  );
  return file;
}

async function readAlpha(origin: string): Promise<string> {
  const client = new Client({ name: "webdav-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${origin}/mcp`)));
  try {
    const result = await client.readResource({ uri: "skill://kit/alpha/SKILL.md" });
    const content = result.contents[0] as { text?: string };
    return content.text ?? "";
  } finally {
    await client.close();
  }
}

/** Reads alpha until it reads `expected` (polling, bounded), answering the last read. */
async function readUntil(origin: string, expected: string, boundMs = 15_000): Promise<string> {
  const until = Date.now() + boundMs;
  let text = await readAlpha(origin);
  while (text !== expected && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    text = await readAlpha(origin);
  }
  return text;
}

test("serve: a live read sees an edit at once; /health shows cooling while the share is down; /reindex lists again", async () => {
  const child = spawnCli(
    cli.path,
    [
      "serve",
      "--config",
      configFile("live.yaml", "    cache: live\n"),
      "--port",
      "0",
      "--cache-dir",
      tempDir("skillshelf-cli-dav-cache-"),
      "--log-format",
      "json",
    ],
    childEnv({ TEAM_DAV_PASSWORD: PASSWORD }),
    base,
  );
  try {
    const origin = await waitForListening(child);
    expect(await readAlpha(origin)).toBe(skillMd("alpha", "one"));
    const file = path.join(root, "Team Skills", "skills", "alpha", "SKILL.md");
    fs.writeFileSync(file, skillMd("alpha", "two"));
    fs.utimesSync(file, 2_000_000, 2_000_000);
    // The tag read on the first read is trusted for a while (2 s): once that ends, a read asks the share again.
    expect(await readUntil(origin, skillMd("alpha", "two"))).toBe(skillMd("alpha", "two"));

    await server.stop();
    // With the share down, the next read that asks it falls back to the export.
    expect(await readUntil(origin, skillMd("alpha", "one"))).toBe(skillMd("alpha", "one"));
    await waitFor(() => child.stderr.some((line) => line.includes('"fetch cooling"')));
    const cooling = (await (await fetch(`${origin}/health`)).json()) as { status: string; fetches: Record<string, unknown> };
    expect(cooling.status).toBe("degraded");
    expect(cooling.fetches["team://Team Skills"]).toEqual({
      status: "ok",
      built: expect.any(String),
      cooling: true,
      error: expect.stringMatching(
        /^a live read failed: the share could not be reached \(ECONN(REFUSED|RESET)\); reads come from the export for 30 s$/,
      ),
    });

    expect(await (await fetch(`${origin}/metrics`)).text()).toContain('skillshelf_fetch_cooling{fetch="team://Team Skills"} 1\n');

    await server.listen();
    fs.mkdirSync(path.join(root, "Team Skills", "skills", "beta"));
    fs.writeFileSync(path.join(root, "Team Skills", "skills", "beta", "SKILL.md"), skillMd("beta", "b"));
    const reindexed = (await (await fetch(`${origin}/reindex`, { method: "POST" })).json()) as { skills: number; rebuilt: string[] };
    expect(reindexed.rebuilt).toEqual(["team://Team Skills"]);
    expect(reindexed.skills).toBe(2);
    expect(child.stderr.filter((line) => line.includes(PASSWORD))).toEqual([]);
  } finally {
    child.process.kill("SIGTERM");
    expect(await child.exited).toBe(0);
  }
});

test("check exits 3 on refused credentials, naming the fetch, never the password", async () => {
  const run = async (password: string) => {
    try {
      const { stdout, stderr } = await promisify(execFile)(
        process.execPath,
        [cli.path, "check", "--config", configFile("check.yaml", ""), "--cache-dir", tempDir("skillshelf-cli-dav-cache-")],
        { cwd: base, env: childEnv({ TEAM_DAV_PASSWORD: password }) },
      );
      return { code: 0, stdout, stderr };
    } catch (error) {
      return error as { code: number; stdout: string; stderr: string };
    }
  };
  const refused = await run("not-the-FAKE-password");
  expect(refused.code).toBe(3);
  expect(refused.stderr).toContain("skillshelf check: fetch team://Team Skills: the credentials were refused\n");
  expect(refused.stdout + refused.stderr).not.toContain("not-the-FAKE-password");
  const accepted = await run(PASSWORD);
  expect(accepted.code).toBe(0);
});
