// Every top-level key of the config, changed in the file of a running server and reloaded with SIGHUP: the server
// either follows it (checked by what a caller then gets) or names it as needing a restart (a warning and /health),
// and never says "config reloaded" while running something other than the file. A key added to the schema without a
// row here fails the first test.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { CONFIG_SCHEMA } from "../../src/config/index.js";
import { MCP_HEADERS, send } from "../support/http.js";
import { killStragglers, runCli, startHttpServer, type ServerProcess } from "../support/process.js";
import { tempDir } from "../support/temp.js";
import { waitFor } from "../support/wait.js";

afterAll(killStragglers);

const base = tempDir("skillshelf-reload-keys-");
const configFile = path.join(base, "skillshelf.yaml");
const TOKEN = "reload-keys-client-token-0123456789";
const ADMIN = "reload-keys-admin-token-0123456789";

function put(rel: string, text: string, mode = 0o644): void {
  const file = path.join(base, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text, { mode });
}
const skill = (name: string): string => `---\nname: ${name}\ndescription: Use ${name}.\n---\n# ${name}\n`;

// alpha: a plain skill with one file over 100 bytes, and a skill with an executable outside scripts/ (a medium
// finding: warned about by default, quarantined when the policy lists medium).
put("alpha/skills/plain/SKILL.md", skill("plain"));
put("alpha/skills/plain/big.md", `${"x".repeat(500)}\n`);
put("alpha/skills/tool/SKILL.md", skill("tool"));
put("alpha/skills/tool/run.sh", "#!/bin/sh\necho hi\n", 0o755);
put("beta/skills/b-skill/SKILL.md", skill("b-skill"));
// A git repository the `sources` key can name.
put("repo/skills/k-skill/SKILL.md", skill("k-skill"));
const git = (...args: string[]): void => void execFileSync("git", args, { cwd: path.join(base, "repo"), stdio: "ignore" });
git("init", "-q", "-b", "main");
git("-c", "user.name=t", "-c", "user.email=t@example.com", "add", ".");
git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "kit");

interface Keys {
  sources?: string;
  plugins?: string;
  libraries?: string;
  clients?: string;
  anonymous?: string;
  oauth?: string;
  feeds?: string;
  usage?: string;
  guard?: string;
  ttl?: string;
  limits?: string;
}
const START: Required<Pick<Keys, "plugins" | "libraries" | "anonymous">> = {
  plugins: "  - {name: alpha, source: ./alpha}\n",
  libraries: "  - {name: one, plugins: [alpha]}\n",
  anonymous: "true",
};
const render = (keys: Keys): string =>
  Object.entries(keys)
    .map(([key, value]) => (value.startsWith("  ") ? `${key}:\n${value}` : `${key}: ${value}\n`))
    .join("");

let server: ServerProcess;
let keys: Keys = { ...START };

const reloads = (): number =>
  server
    .stderr()
    .split("\n")
    .filter((line) => / info config reloaded/.test(line)).length;
/** Writes the config with `change` applied and waits for the server to say it read it. */
async function reload(change: Keys): Promise<void> {
  keys = { ...keys, ...change };
  const before = reloads();
  fs.writeFileSync(configFile, render(keys));
  server.child.kill("SIGHUP");
  await waitFor(() => reloads() > before);
}
const status = async (route: string, token?: string): Promise<number> =>
  (await fetch(`${server.origin}${route}`, token === undefined ? {} : { headers: { Authorization: `Bearer ${token}` } })).status;
const health = async (): Promise<{ config?: { matchesFile: boolean; restartNeeded: string[] }; libraries: object }> =>
  (await (await fetch(`${server.origin}/health`, { headers: { Authorization: `Bearer ${ADMIN}` } })).json()) as {
    config?: { matchesFile: boolean; restartNeeded: string[] };
    libraries: object;
  };
/** A 2026-07-28 `resources/read` (stateless): the answer's result or error. */
async function read(uri: string): Promise<{ result?: { ttlMs?: number; contents?: { text?: string }[] }; error?: { message: string } }> {
  const answer = await send(server.origin, {
    method: "POST",
    path: "/mcp",
    headers: { ...MCP_HEADERS, "Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "resources/read", "Mcp-Name": uri },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "resources/read",
      params: {
        uri,
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientCapabilities": {},
          "io.modelcontextprotocol/clientInfo": { name: "reload-keys", version: "1" },
        },
      },
    }),
  });
  return JSON.parse(answer.text) as { result?: { ttlMs?: number }; error?: { message: string } };
}

beforeAll(async () => {
  fs.writeFileSync(configFile, render(keys));
  server = await startHttpServer(["--config", configFile, "--cache-dir", tempDir("skillshelf-reload-keys-cache-")], {
    env: { RELOAD_KEYS_TOKEN: TOKEN, RELOAD_KEYS_ADMIN: ADMIN, RELOAD_KEYS_FEED_SECRET: "f".repeat(48) },
  });
});
afterAll(async () => {
  await server?.stop();
});

describe("a reload of each config key", () => {
  test("every top-level key of the schema has a row below", () => {
    expect(Object.keys(CONFIG_SCHEMA.properties).sort()).toEqual(
      ["anonymous", "clients", "feeds", "guard", "libraries", "limits", "oauth", "plugins", "sources", "ttl", "usage"].sort(),
    );
  });

  test("ttl: the next answers carry the new cache hint", async () => {
    expect((await read("skill://one/plain/SKILL.md")).result?.ttlMs).toBe(60_000);
    await reload({ ttl: "5s" });
    expect((await read("skill://one/plain/SKILL.md")).result?.ttlMs).toBe(5_000);
  });

  test("limits: a file over the new fileBytes leaves the shelf", async () => {
    expect((await read("skill://one/plain/big.md")).result?.contents?.[0]?.text).toBe(`${"x".repeat(500)}\n`);
    await reload({ limits: "{fileBytes: 100}" });
    expect((await read("skill://one/plain/big.md")).error?.message).toMatch(/^Not found: skill:\/\/one\/plain\/big\.md/);
  });

  test("guard: a policy that quarantines medium findings takes the skill with an executable off the shelf", async () => {
    expect((await read("skill://one/tool/SKILL.md")).result?.contents?.[0]?.text).toBe(skill("tool"));
    await reload({ guard: "{quarantine: [critical, medium]}" });
    expect((await read("skill://one/tool/SKILL.md")).error?.message).toMatch(/quarantined/);
    expect((await read("skill://one/plain/SKILL.md")).result?.contents?.[0]?.text).toBe(skill("plain"));
  });

  test("plugins and libraries: a new library is served", async () => {
    expect(await status("/libraries/two")).toBe(404);
    await reload({
      plugins: `${START.plugins}  - {name: beta, source: ./beta}\n`,
      libraries: `${START.libraries}  - {name: two, plugins: [beta]}\n`,
    });
    expect(await status("/libraries/two")).toBe(200);
    expect((await read("skill://two/b-skill/SKILL.md")).result?.contents?.[0]?.text).toBe(skill("b-skill"));
  });

  test("sources: a plugin from a new git source is served", async () => {
    await reload({
      sources: `  - {name: local, url: "git+file://${base}"}\n`,
      plugins: `${keys.plugins ?? ""}  - {name: kit, source: "local://repo?ref=main"}\n`,
      libraries: `${keys.libraries ?? ""}  - {name: kit, plugins: [kit]}\n`,
    });
    expect((await read("skill://kit/k-skill/SKILL.md")).result?.contents?.[0]?.text).toBe(skill("k-skill"));
  });

  test("clients: a new client's token is accepted, scoped as the file says", async () => {
    expect(await status("/libraries/one", TOKEN)).toBe(401);
    await reload({
      clients:
        "  - {name: narrow, token: {env: RELOAD_KEYS_TOKEN}, scope: {library: two}}\n  - {name: ops, token: {env: RELOAD_KEYS_ADMIN}, admin: true}\n",
    });
    expect(await status("/libraries/two", TOKEN)).toBe(200);
    expect(await status("/libraries/one", TOKEN)).toBe(404);
  });

  test("anonymous: turned off, a request without a token is refused at once", async () => {
    expect(await status("/libraries/one")).toBe(200);
    await reload({ anonymous: "false" });
    expect(await status("/libraries/one")).toBe(401);
    expect(await status("/libraries/two", TOKEN)).toBe(200);
    await reload({ anonymous: "true" });
  });

  test("oauth, feeds and usage: read at start, so each is named as needing a restart while the rest is taken over", async () => {
    expect(await health()).not.toHaveProperty("config");
    await reload({
      oauth: "  issuer: https://login.example.com/realms/eng\n  resource: https://skills.example.com/mcp\n",
      feeds: "{secret: {env: RELOAD_KEYS_FEED_SECRET}}",
      usage: "{}",
      ttl: "7s",
    });
    expect((await health()).config).toEqual({
      matchesFile: false,
      restartNeeded: [
        "oauth (the issuer, its rules and secrets are read at start)",
        "feeds (the link secret and lifetime are read at start)",
        "usage (the usage store is opened at start)",
      ],
    });
    for (const key of ["oauth", "feeds", "usage"])
      expect(server.stderr()).toMatch(new RegExp(`warn config reloaded in part: needs a restart: ${key} \\(`));
    expect(server.stderr()).toMatch(/info config reloaded in part: the running server is not the file's/);
    // The rest of the file is taken over all the same.
    expect((await read("skill://one/plain/SKILL.md")).result?.ttlMs).toBe(7_000);
    // Back to what the server started with: /health no longer says so.
    const { oauth: _oauth, feeds: _feeds, usage: _usage, ...rest } = keys;
    keys = rest;
    await reload({});
    expect(await health()).not.toHaveProperty("config");
  });
});

describe("a reload of feeds.revoked", () => {
  test("a link listed under revoked stops working at once; a changed lifetime is named as needing a restart", async () => {
    const dir = tempDir("skillshelf-reload-feeds-");
    const file = path.join(dir, "skillshelf.yaml");
    fs.cpSync(path.join(base, "alpha"), path.join(dir, "alpha"), { recursive: true });
    const env = { RELOAD_KEYS_TOKEN: TOKEN, RELOAD_KEYS_ADMIN: ADMIN, RELOAD_KEYS_FEED_SECRET: "f".repeat(48) };
    const config = (feeds: string): string =>
      `${render(START)}clients:\n  - {name: bot, token: {env: RELOAD_KEYS_TOKEN}}\n  - {name: ops, token: {env: RELOAD_KEYS_ADMIN}, admin: true}\nfeeds: ${feeds}\n`;
    fs.writeFileSync(file, config("{secret: {env: RELOAD_KEYS_FEED_SECRET}}"));
    const made = await runCli(["link", "--config", file, "--client", "bot", "--url", "http://127.0.0.1/"], { env });
    expect(made.code).toBe(0);
    const [link, idLine] = made.stdout.trimEnd().split("\n") as [string, string];
    const token = link.slice(link.lastIndexOf("/") + 1);
    const id = idLine.slice("id: ".length);
    const feeds = await startHttpServer(["--config", file, "--cache-dir", tempDir("skillshelf-reload-feeds-cache-")], { env });
    try {
      const index = async (): Promise<number> => (await fetch(`${feeds.origin}/feeds/${token}/.well-known/agent-skills/index.json`)).status;
      const restartNeeded = async (): Promise<unknown> =>
        ((await (await fetch(`${feeds.origin}/health`, { headers: { Authorization: `Bearer ${ADMIN}` } })).json()) as { config?: unknown })
          .config;
      const reloaded = (): number =>
        feeds
          .stderr()
          .split("\n")
          .filter((line) => / info config reloaded/.test(line)).length;
      const sighup = async (text: string): Promise<void> => {
        const before = reloaded();
        fs.writeFileSync(file, text);
        feeds.child.kill("SIGHUP");
        await waitFor(() => reloaded() > before);
      };
      expect(await index()).toBe(200);
      await sighup(config(`{secret: {env: RELOAD_KEYS_FEED_SECRET}, revoked: [${id}]}`));
      expect(await index()).toBe(404);
      expect(await restartNeeded()).toBeUndefined();
      await sighup(config(`{secret: {env: RELOAD_KEYS_FEED_SECRET}, revoked: [${id}], lifetime: 7d}`));
      expect(await restartNeeded()).toEqual({
        matchesFile: false,
        restartNeeded: ["feeds (the link secret and lifetime are read at start)"],
      });
    } finally {
      await feeds.stop();
    }
  });
});
