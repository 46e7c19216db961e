// §5.2 over the real thing: the built CLI serving the fixture's config over HTTP, with bearer-token clients.
// No token or a wrong one is 401 before any MCP processing; a client's scope is a ceiling a request cannot
// widen; only admin clients reach /health, /reindex and /; answers that depend on a client are cached
// privately; and no token value ever reaches a log line, even at debug level. Plus the startup error for an
// unset token variable, and the stdio ceiling flags.
import path from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { buildCli, childEnv, spawnCli, waitForListening, type BuiltCli, type Child } from "./cli.js";
import { TOKEN_ENV, TOKENS, writeFixture, type Fixture } from "./fixture.js";
import { connectHttp, listSkillUris, readResource, toFailure } from "./harness.js";

const WRONG_TOKEN = "tok-wrong-91d0c3b7ee";
const ALL_TOKENS = [...Object.values(TOKENS), WRONG_TOKEN];
const TOKEN_VARS = Object.fromEntries(Object.entries(TOKEN_ENV).map(([who, name]) => [name, TOKENS[who as keyof typeof TOKENS]]));

const DOCS_W = ["skill://docs/_index.md", "skill://docs/editing/_index.md", "skill://docs/_files.md"];
const DOCS_R = ["skill://docs/_index.md", "skill://docs/quality/_index.md", "skill://docs/_files.md"];
const DOCS_ALL = ["skill://docs/_index.md", "skill://docs/editing/_index.md", "skill://docs/quality/_index.md", "skill://docs/_files.md"];
const ENG_ALL = ["skill://eng/_index.md", "skill://eng/observability/_index.md", "skill://eng/quality/_index.md", "skill://eng/_files.md"];

let cli: BuiltCli;
let fixture: Fixture;
beforeAll(async () => {
  cli = await buildCli();
  fixture = writeFixture();
}, 120_000);
afterAll(() => {
  fixture.remove();
  cli.remove();
});

/** Inside the fixture, so a run never writes to the user's cache directory. */
const cacheDir = (): string => path.join(fixture.dir, "cache");

const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

interface Reply {
  readonly status: number;
  readonly wwwAuthenticate: string | null;
  readonly body: string;
}

async function call(url: string, init: { method?: string; headers?: Record<string, string>; body?: unknown } = {}): Promise<Reply> {
  const response = await fetch(url, {
    method: init.method ?? "GET",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...init.headers },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  return { status: response.status, wwwAuthenticate: response.headers.get("www-authenticate"), body: await response.text() };
}

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
};

describe("bearer-token clients over the CLI's HTTP server", () => {
  let child: Child;
  let origin: string;
  beforeAll(async () => {
    child = spawnCli(
      cli.path,
      ["serve", "--config", fixture.configPath, "--cache-dir", cacheDir(), "--port", "0", "--log-level", "debug"],
      childEnv(TOKEN_VARS),
      fixture.dir,
    );
    origin = await waitForListening(child);
  }, 60_000);
  afterAll(async () => {
    child.process.kill("SIGTERM");
    await child.exited;
  });

  const listing = async (token: string, query = "", headers: Record<string, string> = {}): Promise<string[]> => {
    const conn = await connectHttp(`${origin}/mcp${query}`, { ...bearer(token), ...headers });
    try {
      return (await conn.client.listResources()).resources.map((row) => row.uri);
    } finally {
      await conn.close();
    }
  };
  const refusedWith = async (token: string, query: string, headers: Record<string, string> = {}): Promise<unknown> => {
    try {
      await connectHttp(`${origin}/mcp${query}`, { ...bearer(token), ...headers });
      return "connected";
    } catch (error) {
      const failure = toFailure(error);
      return { code: failure.code, message: failure.message };
    }
  };

  test("no token: 401 with WWW-Authenticate: Bearer, on /mcp and the operator routes, before any MCP processing", async () => {
    const unauthorized = { status: 401, wwwAuthenticate: "Bearer", body: JSON.stringify({ error: "this server requires a bearer token" }) };
    expect(await call(`${origin}/mcp`, { method: "POST", body: INITIALIZE })).toEqual(unauthorized);
    // A scope that would be refused is never compiled for an unknown caller.
    expect(await call(`${origin}/mcp?library=nope`, { method: "POST", body: INITIALIZE })).toEqual(unauthorized);
    expect(await call(`${origin}/health`)).toEqual(unauthorized);
    expect(await call(`${origin}/reindex`, { method: "POST" })).toEqual(unauthorized);
    // The page answers a browser with its sign-in form instead of JSON, under the same status and challenge.
    const page = await call(`${origin}/`);
    expect([page.status, page.wwwAuthenticate]).toEqual([401, "Bearer"]);
    expect(page.body).toContain('<form class="signin" method="post" action="/signin">');
    expect(page.body).not.toContain("/libraries/");
  });

  test("a wrong or malformed token: 401, and the token is not echoed", async () => {
    const invalid = {
      status: 401,
      wwwAuthenticate: 'Bearer error="invalid_token"',
      body: JSON.stringify({ error: "the bearer token is not valid" }),
    };
    expect(await call(`${origin}/mcp`, { method: "POST", headers: bearer(WRONG_TOKEN), body: INITIALIZE })).toEqual(invalid);
    expect(await call(`${origin}/mcp`, { method: "POST", headers: { authorization: `Basic ${WRONG_TOKEN}` }, body: INITIALIZE })).toEqual(
      invalid,
    );
    // A real token with a suffix, and a prefix of a real token, are other tokens.
    expect(await call(`${origin}/health`, { headers: bearer(`${TOKENS.admin}x`) })).toEqual(invalid);
    expect(await call(`${origin}/health`, { headers: bearer(TOKENS.admin.slice(0, -1)) })).toEqual(invalid);
  });

  test("a scoped client sees exactly its ceiling on every surface", async () => {
    expect(await listing(TOKENS.support)).toEqual(DOCS_W);
    expect(await listing(TOKENS.eng)).toEqual([...DOCS_R, ...ENG_ALL]);
    expect(await listing(TOKENS.public)).toEqual(DOCS_W);
    expect(await listing(TOKENS.admin)).toEqual([...DOCS_ALL, ...ENG_ALL]);
    const conn = await connectHttp(`${origin}/mcp`, bearer(TOKENS.support));
    try {
      expect(await listSkillUris(conn.client)).toEqual(["skill://docs/editing/proofread/SKILL.md", "skill://docs/release-notes/SKILL.md"]);
      expect((await conn.client.listPrompts()).prompts.map((p) => p.name)).toEqual(["docs_summarize"]);
      const absent = (uri: string) => ({
        ok: false,
        failure: {
          error: "ResourceNotFoundError",
          code: -32602,
          message: `Not found: ${uri}. Start from the resource listing (resources/list, or the list_resources tool) to see what this server serves.`,
          data: { uri },
        },
      });
      for (const uri of [
        "skill://docs/code-review/SKILL.md",
        "skill://docs/docs/style.md",
        "skill://eng/triage/SKILL.md",
        "skill://eng/_index.md",
        "skill://eng/observability",
        "skill://docs/quality",
      ]) {
        expect(await readResource(conn.client, uri), uri).toEqual(absent(uri));
      }
    } finally {
      await conn.close();
    }
  });

  test.each([
    {
      title: "another library (query)",
      query: "?library=eng",
      headers: {},
      message: "Scope refused: library 'eng' does not exist; the libraries are: docs.",
    },
    {
      title: "a library that does not exist",
      query: "?library=nope",
      headers: {},
      message: "Scope refused: library 'nope' does not exist; the libraries are: docs.",
    },
    {
      title: "another library (header)",
      query: "",
      headers: { "X-Skill-Library": "dead" },
      message: "Scope refused: library 'dead' does not exist; the libraries are: docs.",
    },
    {
      title: "a category outside the ceiling",
      query: "?categories=engineering",
      headers: {},
      message: "Scope refused: category 'engineering' does not exist; the categories are: writing.",
    },
    {
      title: "a tag outside the ceiling",
      query: "",
      headers: { "X-Skill-Tags": "review" },
      message: "Scope refused: tag 'review' does not exist; the tags are: docs, prose, public.",
    },
  ] as { title: string; query: string; headers: Record<string, string>; message: string }[])(
    "support-bot cannot widen its ceiling: $title is refused as nonexistent",
    async ({ query, headers, message }) => {
      expect(await refusedWith(TOKENS.support, query, headers)).toEqual({ code: -32602, message });
    },
  );

  test("a client narrows inside its ceiling", async () => {
    expect(await listing(TOKENS.support, "?tags=prose")).toEqual(DOCS_W);
    expect(await listing(TOKENS.eng, "?library=docs")).toEqual(DOCS_R);
    expect(await listing(TOKENS.eng, "", { "X-Skill-Tags": "oncall,sre" })).toEqual([
      "skill://eng/_index.md",
      "skill://eng/observability/_index.md",
      "skill://eng/_files.md",
    ]);
  });

  test("admin clients reach /health, /reindex and the page's health view; other clients get 403", async () => {
    const forbidden = { status: 403, wwwAuthenticate: null, body: JSON.stringify({ error: "this endpoint is for admin clients" }) };
    for (const token of [TOKENS.support, TOKENS.eng, TOKENS.public]) {
      expect(await call(`${origin}/health`, { headers: bearer(token) })).toEqual(forbidden);
      expect(await call(`${origin}/reindex`, { method: "POST", headers: bearer(token) })).toEqual(forbidden);
      const status = await call(`${origin}/status`, { headers: bearer(token) });
      expect([status.status, status.body.includes("The health view is for admin clients.")]).toEqual([403, true]);
    }
    const health = await call(`${origin}/health`, { headers: bearer(TOKENS.admin) });
    expect(health.status).toBe(200);
    expect(JSON.parse(health.body)).toMatchObject({
      status: "degraded",
      skills: 10,
      prompts: 4,
      plugins: { "broken-kit": { status: "failed" } },
    });
    const reindex = await call(`${origin}/reindex`, { method: "POST", headers: bearer(TOKENS.admin) });
    expect(reindex.status).toBe(200);
    expect(JSON.parse(reindex.body)).toMatchObject({
      skills: 10,
      rebuilt: expect.arrayContaining(["./plugins/ops-kit", "./plugins/missing-kit"]) as unknown,
    });
    const page = await call(`${origin}/status`, { headers: bearer(TOKENS.admin) });
    expect(page.status).toBe(200);
    expect(page.body).toContain("<h1>Health</h1>");
  });

  test("2026-07-28 results are cached privately for every client, scoped or not", async () => {
    for (const token of [TOKENS.admin, TOKENS.support]) {
      const conn = await connectHttp(`${origin}/mcp`, bearer(token), "modern");
      try {
        expect(conn.client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
        const list = (await conn.client.listResources(undefined, { cacheMode: "bypass" })) as { cacheScope?: unknown };
        const prompts = (await conn.client.listPrompts(undefined, { cacheMode: "bypass" })) as { cacheScope?: unknown };
        const read = (await conn.client.readResource({ uri: "skill://docs/_index.md" }, { cacheMode: "bypass" })) as {
          cacheScope?: unknown;
        };
        expect([list.cacheScope, prompts.cacheScope, read.cacheScope]).toEqual(["private", "private", "private"]);
      } finally {
        await conn.close();
      }
    }
  });

  test("no token value appears in any stderr line, even at debug level", () => {
    expect(child.stderr.some((line) => line.includes("listening on"))).toBe(true);
    const leaks = child.stderr.filter((line) => ALL_TOKENS.some((token) => line.includes(token)));
    expect(leaks).toEqual([]);
  });
});

describe("startup", () => {
  test("an unset token variable exits 2 naming the variable, never a value", async () => {
    const env = childEnv({ ...TOKEN_VARS });
    delete env[TOKEN_ENV.eng];
    const child = spawnCli(
      cli.path,
      ["serve", "--config", fixture.configPath, "--cache-dir", cacheDir(), "--port", "0", "--log-level", "debug"],
      env,
      fixture.dir,
    );
    expect(await child.exited).toBe(2);
    const text = child.stderr.join("\n");
    expect(text).toContain(`client 'eng-bot': the environment variable ${TOKEN_ENV.eng} that holds its token is not set`);
    expect(ALL_TOKENS.filter((token) => text.includes(token))).toEqual([]);
  });

  test("an empty token variable is unset too", async () => {
    const child = spawnCli(
      cli.path,
      ["serve", "--config", fixture.configPath, "--cache-dir", cacheDir(), "--port", "0"],
      childEnv({ ...TOKEN_VARS, [TOKEN_ENV.admin]: "" }),
      fixture.dir,
    );
    expect(await child.exited).toBe(2);
    expect(child.stderr.join("\n")).toContain(
      `client 'platform': the environment variable ${TOKEN_ENV.admin} that holds its token is not set`,
    );
  });
});

describe("the stdio ceiling flags", () => {
  test("--library docs --tags public serves exactly that ceiling", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        cli.path,
        "serve",
        "--config",
        fixture.configPath,
        "--cache-dir",
        cacheDir(),
        "--transport",
        "stdio",
        "--library",
        "docs",
        "--tags",
        "public",
      ],
      env: childEnv({}),
      cwd: fixture.dir,
      stderr: "pipe",
    });
    const client = new Client({ name: "scopes-test", version: "1.0.0" });
    await client.connect(transport);
    try {
      expect((await client.listResources()).resources.map((row) => row.uri)).toEqual(DOCS_W);
      expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(["docs_summarize"]);
      expect((await readResource(client, "skill://eng/triage/SKILL.md")).ok).toBe(false);
      expect((await readResource(client, "skill://docs/code-review/SKILL.md")).ok).toBe(false);
      expect((await readResource(client, "skill://docs/release-notes/SKILL.md")).ok).toBe(true);
    } finally {
      await client.close();
    }
  });

  test("--categories and repeated --tags narrow like the query parameters", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        cli.path,
        "serve",
        "--config",
        fixture.configPath,
        "--cache-dir",
        cacheDir(),
        "--transport",
        "stdio",
        "--categories",
        "engineering",
        "--tags",
        "oncall,runbooks",
        "--tags",
        "quality",
      ],
      env: childEnv({}),
      cwd: fixture.dir,
      stderr: "pipe",
    });
    const client = new Client({ name: "scopes-test", version: "1.0.0" });
    await client.connect(transport);
    try {
      expect((await client.listResources()).resources.map((row) => row.uri)).toEqual([...DOCS_R, ...ENG_ALL]);
    } finally {
      await client.close();
    }
  });

  test.each([
    { flags: ["--library", "nope"], message: "Scope refused: library 'nope' does not exist; the libraries are: dead, docs, eng." },
    {
      flags: ["--library", "docs", "--tags", "oncall"],
      message: "Scope refused: the scope library=docs tags=oncall shows nothing: no plugin of library 'docs' matches it.",
    },
    {
      flags: ["--categories", "nope"],
      message: "Scope refused: category 'nope' does not exist; the categories are: engineering, legacy, writing.",
    },
  ])("a refused ceiling $flags exits 2 with the refusal", async ({ flags, message }) => {
    const child = spawnCli(
      cli.path,
      ["serve", "--config", fixture.configPath, "--cache-dir", cacheDir(), "--transport", "stdio", ...flags],
      childEnv({}),
      fixture.dir,
    );
    expect(await child.exited).toBe(2);
    expect(child.stderr.filter((line) => line.includes("Scope refused"))).toEqual([`skillshelf serve: ${message}`]);
  });
});
