// The config is read again while serving: SIGHUP, POST /reindex and an edit of the file itself. A config that does
// not load keeps the current shelf serving and is shown on /health with its file, line and JSON path.
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { initializeBody, MCP_HEADERS, type RawResponse, send } from "../support/http.js";
import { killStragglers, startHttpServer, type ServerProcess } from "../support/process.js";
import { tempDir } from "../support/temp.js";
import { waitFor } from "../support/wait.js";

afterAll(killStragglers);

const base = tempDir("skillshelf-reload-");
const configFile = path.join(base, "config", "skillshelf.yaml");

function write(rel: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(base, rel)), { recursive: true });
  fs.writeFileSync(path.join(base, rel), text);
}

const skill = (name: string): string => `---\nname: ${name}\ndescription: Use ${name}.\n---\n# ${name}\n`;
const ONE = "plugins:\n  - {name: alpha, source: ../alpha}\nlibraries:\n  - {name: one, plugins: [alpha]}\n";
const TWO = `${ONE.replace("libraries:", "  - {name: beta, source: ../beta}\nlibraries:")}  - {name: two, plugins: [beta]}\n`;

write("alpha/skills/a-skill/SKILL.md", skill("a-skill"));
write("beta/skills/b-skill/SKILL.md", skill("b-skill"));

async function libraries(server: ServerProcess): Promise<string[]> {
  const health = (await (await fetch(`${server.origin}/health`)).json()) as { libraries: Record<string, unknown> };
  return Object.keys(health.libraries).sort();
}

describe("reading the config again while serving", () => {
  test("SIGHUP serves a library added to the file; a broken file keeps the shelf and shows on /health; POST /reindex reads it too", async () => {
    write("config/skillshelf.yaml", ONE);
    const server = await startHttpServer(["--config", configFile, "--cache-dir", tempDir("skillshelf-reload-cache-")]);
    try {
      expect(await libraries(server)).toEqual(["one"]);

      // The file watch would notice too; SIGHUP asks at once.
      write("config/skillshelf.yaml", TWO);
      server.child.kill("SIGHUP");
      await waitFor(async () => (await libraries(server)).length === 2);
      expect(await libraries(server)).toEqual(["one", "two"]);
      await waitFor(async () => /info config reloaded/.test(server.stderr()));

      // A broken config: the shelf keeps serving, the error is on /health with its line and JSON path.
      write("config/skillshelf.yaml", `${TWO}  - {name: three}\n`);
      const reindexed = await fetch(`${server.origin}/reindex`, { method: "POST" });
      expect(reindexed.status).toBe(200);
      const health = (await (await fetch(`${server.origin}/health`)).json()) as {
        libraries: Record<string, unknown>;
        config?: { errors: { path: string; line?: number; rule: string }[] };
      };
      expect(Object.keys(health.libraries).sort()).toEqual(["one", "two"]);
      expect(health.config?.errors).toEqual([
        expect.objectContaining({ path: "/libraries/2", line: 7, rule: expect.stringContaining("a library needs at least one of") }),
      ]);
      await waitFor(async () => /error config not reloaded: the current shelf keeps serving/.test(server.stderr()));

      // Mended and edited in place: the file's own watch reloads it, and the error is gone.
      write("config/skillshelf.yaml", ONE);
      await waitFor(async () => (await libraries(server)).length === 1);
      const mended = (await (await fetch(`${server.origin}/health`)).json()) as { config?: unknown };
      expect(mended.config).toBeUndefined();

      // A SIGHUP that finds nothing changed says so; a stop says it stopped, last.
      server.child.kill("SIGHUP");
      await waitFor(async () => /info config unchanged: nothing to reload why=SIGHUP/.test(server.stderr()));
    } finally {
      await server.stop();
    }
    expect(server.stderr().trimEnd().split("\n").at(-1)).toMatch(/ info stopped$/);
  });
});

describe("a reload that changes who may read what", () => {
  const ADMIN = "reload-admin-secret";
  const READER = "reload-reader-secret";
  const env = { RELOAD_ADMIN_TOKEN: ADMIN, RELOAD_READER_TOKEN: READER };
  const withAccess = (anonymous: string, readerScope: string, extra = ""): string =>
    `${TWO}anonymous: ${anonymous}\nclients:\n` +
    `  - {name: ops, token: {env: RELOAD_ADMIN_TOKEN}, admin: true}\n` +
    `  - {name: reader, token: {env: RELOAD_READER_TOKEN}, scope: ${readerScope}}\n${extra}`;
  const page = async (server: ServerProcess, route: string, token?: string): Promise<number> =>
    (await fetch(`${server.origin}${route}`, token === undefined ? {} : { headers: { Authorization: `Bearer ${token}` } })).status;
  const initialize = (server: ServerProcess): Promise<RawResponse> =>
    send(server.origin, { method: "POST", path: "/mcp", headers: MCP_HEADERS, body: initializeBody() });
  const health = async (server: ServerProcess): Promise<{ config?: unknown }> =>
    (await (await fetch(`${server.origin}/health`, { headers: { Authorization: `Bearer ${ADMIN}` } })).json()) as { config?: unknown };
  const reloaded = (server: ServerProcess): number =>
    server
      .stderr()
      .split("\n")
      .filter((line) => / config reloaded/.test(line)).length;

  test("SIGHUP takes over anonymous access, its ceiling and a client's ceiling, closes the sessions opened under the old, and names what needs a restart", async () => {
    write("config/skillshelf.yaml", withAccess("{scope: {library: one}}", "{library: one}"));
    const server = await startHttpServer(["--config", configFile, "--cache-dir", tempDir("skillshelf-reload-cache-")], { env });
    try {
      expect(await page(server, "/libraries/one")).toBe(200);
      expect(await page(server, "/libraries/two")).toBe(404);
      expect(await page(server, "/libraries/two", READER)).toBe(404);
      const opened = await initialize(server);
      expect(opened.status).toBe(200);
      const sessionId = opened.headers["mcp-session-id"] as string;
      const ping = (): Promise<RawResponse> =>
        send(server.origin, {
          method: "POST",
          path: "/mcp",
          headers: { ...MCP_HEADERS, "Mcp-Session-Id": sessionId, "Mcp-Protocol-Version": "2025-11-25" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" }),
        });
      expect((await ping()).status).toBe(200);

      // Both ceilings move to the other library.
      let before = reloaded(server);
      write("config/skillshelf.yaml", withAccess("{scope: {library: two}}", "{library: two}"));
      server.child.kill("SIGHUP");
      await waitFor(async () => reloaded(server) > before);
      expect(await page(server, "/libraries/one")).toBe(404);
      expect(await page(server, "/libraries/two")).toBe(200);
      expect(await page(server, "/libraries/one", READER)).toBe(404);
      expect(await page(server, "/libraries/two", READER)).toBe(200);
      // The anonymous session opened under the old ceiling is gone: the client initializes again.
      expect((await ping()).status).toBe(404);
      expect(await health(server)).not.toHaveProperty("config");

      // Anonymous access off: a request without a token is refused at once.
      before = reloaded(server);
      write("config/skillshelf.yaml", withAccess("false", "{library: two}"));
      server.child.kill("SIGHUP");
      await waitFor(async () => reloaded(server) > before);
      expect((await initialize(server)).status).toBe(401);
      expect(await page(server, "/")).toBe(401);
      expect(await page(server, "/libraries/two", READER)).toBe(200);

      // An issuer and a client whose token variable the running server does not have: the rest is taken over,
      // and each of the two is named in a warning and on /health.
      before = reloaded(server);
      const oauth = "oauth:\n  issuer: https://login.example.com/realms/eng\n  resource: https://skills.example.com/mcp\n";
      write(
        "config/skillshelf.yaml",
        withAccess("true", "{library: one}", oauth).replace(
          "clients:\n",
          "clients:\n  - {name: newcomer, token: {env: RELOAD_NEW_TOKEN}}\n",
        ),
      );
      server.child.kill("SIGHUP");
      await waitFor(async () => reloaded(server) > before);
      expect((await initialize(server)).status).toBe(200);
      expect(await page(server, "/libraries/one", READER)).toBe(200);
      expect(await health(server)).toEqual(
        expect.objectContaining({
          config: {
            matchesFile: false,
            restartNeeded: [
              "oauth (the issuer, its rules and secrets are read at start)",
              "clients/newcomer (the environment variable RELOAD_NEW_TOKEN that holds its token is not set in the running server's environment; the client is not served)",
            ],
          },
        }),
      );
      expect(server.stderr()).toMatch(/warn config reloaded in part: needs a restart: oauth \(/);
      expect(server.stderr()).toMatch(/warn config reloaded in part: needs a restart: clients\/newcomer \(/);

      // Back to what runs: /health no longer says so.
      before = reloaded(server);
      write("config/skillshelf.yaml", withAccess("true", "{library: one}"));
      server.child.kill("SIGHUP");
      await waitFor(async () => reloaded(server) > before);
      expect(await health(server)).not.toHaveProperty("config");
    } finally {
      await server.stop();
    }
  });
});
