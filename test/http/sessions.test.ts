// 2025-era sessions over HTTP against the built CLI: the SDK client on 2025-11-25 gets an Mcp-Session-Id, opens
// the GET stream and hears of an edit on a watched folder (list_changed, updated after resources/subscribe,
// prompts list_changed) only within its own scope; a session is bound to the credential that opened it; an
// unknown id answers 404 so the client initializes again; the bounds (--max-sessions, --session-idle-seconds)
// and --stateless behave as documented; SIGTERM ends the session streams and exits 0.
import { cpSync, writeFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { Client, SdkHttpError, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { afterAll, afterEach, describe, expect, test } from "vitest";
import { MCP_HEADERS, initializeBody, send, type RawResponse } from "../support/http.js";
import { EXAMPLE_CONFIG, REPO_ROOT, killStragglers, startHttpServer, type ServerProcess } from "../support/process.js";
import { tempDir } from "../support/temp.js";
import { until } from "../support/wait.js";

afterAll(killStragglers);

const TOKENS = { SESSIONS_READER_TOKEN: "reader-secret-0123456789", SESSIONS_WRITER_TOKEN: "writer-secret-0123456789" };
const READER = "reader-secret-0123456789";
const WRITER = "writer-secret-0123456789";
/** The 2025 era, pinned: the plain initialize handshake, offering only 2025-11-25. */
const ERA_2025 = { supportedProtocolVersions: ["2025-11-25"] };

const LOGS_MD = "examples/engineering-kit/skills/observability/logs/SKILL.md";
const LOGS_URI = "skill://engineering/observability/logs/SKILL.md";
const RELEASE_NOTES_MD = "examples/writing-kit/skills/release-notes/SKILL.md";
const SUMMARIZE_MD = "examples/writing-kit/prompts/summarize.md";

/** Nothing-more-was-announced is proven by a later change that is heard: `write` makes a visible change announced as
 *  `sentinel`, which was not heard yet; once it is heard on a stream, everything sent before it on that stream was
 *  heard too. Answers what each of `streams` heard before it. */
async function heardBefore(streams: string[][], sentinel: string, write: () => void): Promise<string[][]> {
  for (const heard of streams) expect(heard).not.toContain(sentinel);
  write();
  await until(`the sentinel ${sentinel}`, () => streams.every((heard) => heard.includes(sentinel)));
  return streams.map((heard) => heard.slice(0, heard.indexOf(sentinel)));
}

/** A private, watched copy of the example shelf; a reader (whole shelf) and a writer (the writing library only). */
function copyShelf(): { dir: string; config: string } {
  const dir = tempDir("skillshelf-sessions-");
  cpSync(path.join(REPO_ROOT, "examples"), path.join(dir, "examples"), { recursive: true });
  const config = path.join(dir, "skills.yaml");
  writeFileSync(
    config,
    [
      "plugins:",
      "  - {name: eng-kit, source: ./examples/engineering-kit, files: ['shared/**']}",
      "  - {name: writing-kit, source: ./examples/writing-kit}",
      "libraries:",
      "  - {name: engineering, plugins: [eng-kit]}",
      "  - {name: writing, plugins: [writing-kit]}",
      "anonymous: true",
      "clients:",
      "  - {name: reader, token: {env: SESSIONS_READER_TOKEN}, admin: true}",
      "  - {name: writer, token: {env: SESSIONS_WRITER_TOKEN}, scope: {library: writing}}",
      "ttl: 0s",
      "",
    ].join("\n"),
  );
  return { dir, config };
}

interface Connected {
  readonly client: Client;
  readonly transport: StreamableHTTPClientTransport;
  /** Every notification heard, as `list_changed`, `prompts_changed` or `updated <uri>`. */
  readonly heard: string[];
  /** Resolves once the session's GET stream is open (the client opens it after its initialized notification). */
  readonly streaming: Promise<void>;
}

async function connect(url: URL, token?: string): Promise<Connected> {
  let opened!: () => void;
  const streaming = new Promise<void>((resolve) => (opened = resolve));
  const observe = async (input: string | URL, init?: RequestInit): Promise<Response> => {
    const response = await fetch(input, init);
    if (init?.method === "GET" && response.status === 200) opened();
    return response;
  };
  const transport = new StreamableHTTPClientTransport(url, {
    fetch: observe,
    ...(token === undefined ? {} : { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
  });
  const client = new Client({ name: "sessions-test", version: "1.0.0" }, ERA_2025);
  const heard: string[] = [];
  client.setNotificationHandler("notifications/resources/list_changed", () => void heard.push("list_changed"));
  client.setNotificationHandler("notifications/resources/updated", (n) => void heard.push(`updated ${n.params.uri}`));
  client.setNotificationHandler("notifications/prompts/list_changed", () => void heard.push("prompts_changed"));
  await client.connect(transport);
  return { client, transport, heard, streaming };
}

async function readText(client: Client, uri: string): Promise<string> {
  const result = await client.readResource({ uri }, { cacheMode: "bypass" });
  const content = result.contents[0];
  return content !== undefined && "text" in content ? content.text : "";
}

/** A raw 2025-era POST on a session (or none). */
function post(server: ServerProcess, body: unknown, headers: Record<string, string> = {}): Promise<RawResponse> {
  return send(server.origin, {
    method: "POST",
    path: "/mcp",
    headers: { ...MCP_HEADERS, "MCP-Protocol-Version": "2025-11-25", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** A raw initialize: the new session's id. */
async function initialize(server: ServerProcess, headers: Record<string, string> = {}): Promise<string> {
  const answer = await post(server, initializeBody(), headers);
  expect(answer.status).toBe(200);
  const id = answer.headers["mcp-session-id"];
  expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  return id as string;
}

const LIST = { jsonrpc: "2.0", id: 7, method: "resources/list", params: {} };

/** A raw POST sent from `address` (a loopback address: every 127.x.y.z reaches a server bound to 127.0.0.1). */
function postFrom(server: ServerProcess, address: string, body: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = http.request(new URL("/mcp", server.origin), {
      method: "POST",
      localAddress: address,
      headers: { ...MCP_HEADERS, "MCP-Protocol-Version": "2025-11-25", ...headers },
      agent: false,
    });
    request.once("error", reject);
    request.once("response", (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.once("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    request.end(body);
  });
}

/** A raw initialize from `address`: the new session's id. */
async function initializeFrom(server: ServerProcess, address: string, headers: Record<string, string> = {}): Promise<string> {
  const answer = await postFrom(server, address, initializeBody(), headers);
  expect(answer.status).toBe(200);
  return answer.headers["mcp-session-id"] as string;
}

/** A GET stream held open on `session`; `close()` ends it from the client's side. */
async function openStream(
  server: ServerProcess,
  session: string,
  address = "127.0.0.1",
  headers: Record<string, string> = {},
): Promise<{ status: number; ended: Promise<void>; close(): void }> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      new URL("/mcp", server.origin),
      { headers: { Accept: "text/event-stream", "Mcp-Session-Id": session, ...headers }, localAddress: address, agent: false },
      (res) => {
        const ended = new Promise<void>((done) => {
          res.once("end", done);
          res.once("close", done);
        });
        res.resume();
        resolve({ status: res.statusCode ?? 0, ended, close: () => request.destroy() });
      },
    );
    request.once("error", reject);
  });
}

/** The session series of /metrics, as `name{reason}` => value. */
async function scrape(server: ServerProcess, token?: string): Promise<Record<string, string>> {
  const headers: Record<string, string> = token === undefined ? {} : { Authorization: `Bearer ${token}` };
  const response = await send(server.origin, { path: "/metrics", headers });
  expect(response.status).toBe(200);
  const values: Record<string, string> = {};
  for (const family of parsePrometheusTextFormat(response.text)) {
    if (!family.name.startsWith("skillshelf_mcp_session")) continue;
    for (const sample of family.metrics)
      values[`${family.name}${sample.labels?.["reason"] ? `{${sample.labels["reason"]}}` : ""}`] = sample.value ?? "";
  }
  return values;
}

const jsonError = (answer: RawResponse): unknown => (JSON.parse(answer.text) as { error: unknown }).error;

describe("a 2025-era session over HTTP, on a watched folder", () => {
  let server: ServerProcess;
  let shelf: { dir: string; config: string };
  const open: Client[] = [];

  const start = async (): Promise<void> => {
    shelf = copyShelf();
    server = await startHttpServer(["--config", shelf.config, "--cache-dir", path.join(shelf.dir, "cache")], { env: TOKENS });
  };
  const session = async (token?: string): Promise<Connected> => {
    const connected = await connect(server.url, token);
    open.push(connected.client);
    await connected.streaming;
    return connected;
  };
  afterEach(async () => {
    for (const client of open.splice(0)) await client.close();
    await server?.stop();
  });

  test("gets a session id, and hears an edited SKILL.md: list_changed, updated for the subscribed URI, the new text", async () => {
    await start();
    const { client, transport, heard } = await session(READER);
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(client.getNegotiatedProtocolVersion()).toBe("2025-11-25");
    await client.subscribeResource({ uri: LOGS_URI });
    writeFileSync(path.join(shelf.dir, LOGS_MD), "---\nname: logs\ndescription: Over a 2025 session.\n---\n# Logs\n");
    await until("two notifications", () => heard.length >= 2);
    expect(await readText(client, LOGS_URI)).toBe("---\nname: logs\ndescription: Over a 2025 session.\n---\n# Logs\n");

    // The prompt edit is heard after everything the skill edit announced.
    const [beforePrompt] = await heardBefore([heard], "prompts_changed", () =>
      writeFileSync(
        path.join(shelf.dir, "examples/engineering-kit/commands/review.md"),
        "---\ndescription: Review carefully\n---\nReview $ARGUMENTS.\n",
      ),
    );
    expect([...(beforePrompt ?? [])].sort()).toEqual(["list_changed", `updated ${LOGS_URI}`]);
    heard.splice(0, heard.indexOf("prompts_changed"));
    const notes = (): void =>
      writeFileSync(path.join(shelf.dir, RELEASE_NOTES_MD), "---\nname: release-notes\ndescription: The sentinel.\n---\n");
    expect(await heardBefore([heard], "list_changed", notes)).toEqual([["prompts_changed"]]);
  });

  test("a narrowed ceiling hears nothing of a change outside its scope, even for a URI it subscribed to", async () => {
    await start();
    const reader = await session(READER);
    const writer = await session(WRITER);
    await reader.client.subscribeResource({ uri: LOGS_URI });
    await writer.client.subscribeResource({ uri: LOGS_URI });
    writeFileSync(path.join(shelf.dir, LOGS_MD), "---\nname: logs\ndescription: Engineering only.\n---\n# Logs\n");
    await until("the reader's two notifications", () => reader.heard.length >= 2);
    expect([...reader.heard].sort()).toEqual(["list_changed", `updated ${LOGS_URI}`]);
    expect(writer.heard).toEqual([]);

    // The writer's own library: it hears that one.
    reader.heard.length = 0;
    writeFileSync(path.join(shelf.dir, RELEASE_NOTES_MD), "---\nname: release-notes\ndescription: Shorter notes.\n---\n# Notes\n");
    await until("the writer's list_changed", () => writer.heard.includes("list_changed"));
    // A prompt of the writing library, in both scopes, is heard after everything announced before it.
    const prompt = (): void => writeFileSync(path.join(shelf.dir, SUMMARIZE_MD), "---\ndescription: The sentinel\n---\nDo $ARGUMENTS.\n");
    const [readerHeard, writerHeard] = await heardBefore([reader.heard, writer.heard], "prompts_changed", prompt);
    expect(writerHeard).toEqual(["list_changed"]);
    expect(readerHeard).toEqual(["list_changed"]);
  });

  test("a session answers only the credential that opened it: another token, or none, gets 404", async () => {
    await start();
    const writer = await session(WRITER);
    const id = writer.transport.sessionId as string;
    for (const headers of [{ Authorization: `Bearer ${READER}` }, {}]) {
      const answer = await post(server, LIST, { "Mcp-Session-Id": id, ...headers });
      expect(answer.status).toBe(404);
      expect(JSON.parse(answer.text)).toEqual({
        jsonrpc: "2.0",
        error: { code: -32001, message: "Session not found: send initialize to start a new session" },
        id: 7,
      });
    }
    expect((await openStream(server, id)).status).toBe(404);
    // The owner's session is untouched, and still scoped as it was opened.
    const listed = await writer.client.listResources();
    expect(listed.resources.map((r) => r.uri)).toEqual(["skill://writing/_index.md", "skill://writing/release-notes/_index.md"]);
    expect(server.stderr()).toContain("request refused: session opened with another credential status=404");
  });

  test("an unknown or deleted session id answers 404 with a JSON-RPC error; the client initializes again", async () => {
    await start();
    const unknown = await post(server, LIST, { "Mcp-Session-Id": "6f1d2c3b-0000-4000-8000-000000000000" });
    expect(unknown.status).toBe(404);
    expect(jsonError(unknown)).toEqual({ code: -32001, message: "Session not found: send initialize to start a new session" });
    expect(server.stderr()).toContain("request refused: unknown session id status=404 method=POST path=/mcp");

    const { client, transport } = await connect(server.url);
    const id = transport.sessionId as string;
    // The server ends the session (a DELETE this client did not send); the client still holds the id.
    expect((await send(server.origin, { method: "DELETE", path: "/mcp", headers: { "Mcp-Session-Id": id } })).status).toBe(200);
    expect((await post(server, LIST, { "Mcp-Session-Id": id })).status).toBe(404);
    // The SDK client sees the 404 as an HTTP error, and a fresh connection opens a new session.
    const error = await client.listResources().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SdkHttpError);
    expect((error as SdkHttpError).status).toBe(404);
    await client.close();
    const again = await session();
    expect(again.transport.sessionId).not.toBe(id);
    expect((await again.client.listResources()).resources.length).toBeGreaterThan(0);
  });

  test("2026-07-28 clients and 2025-era requests without a session are served statelessly, as before", async () => {
    await start();
    const modern = new Client({ name: "modern", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
    const transport = new StreamableHTTPClientTransport(server.url);
    await modern.connect(transport);
    open.push(modern);
    expect(transport.sessionId).toBeUndefined();
    expect((await modern.listResources()).resources.length).toBeGreaterThan(0);
    const bare = await post(server, LIST);
    expect(bare.status).toBe(200);
    expect(bare.headers["mcp-session-id"]).toBeUndefined();
    expect(bare.text).toContain('"uri":"skill://engineering/_index.md"');
    // Without a session there is no stream to open.
    expect((await send(server.origin, { path: "/mcp", headers: { Accept: "text/event-stream" } })).status).toBe(405);
    const metrics = await scrape(server, READER);
    expect(metrics["skillshelf_mcp_sessions"]).toBe("0");
  });
});

describe("the bounds of sessions", () => {
  let server: ServerProcess | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  test("--max-sessions: a caller at its share makes room among its own sessions only; admins keep room; with none idle a newcomer is refused with 503", async () => {
    // 20 sessions: a share of 2 per credential (per address for anonymous callers), 1 kept for admins.
    const srv = await startHttpServer(["--config", copyShelf().config, "--max-sessions", "20"], { env: TOKENS });
    server = srv;
    const streams: { close(): void }[] = [];
    const held = async (headers: Record<string, string>, address = "127.0.0.1"): Promise<string> => {
      const id = await initializeFrom(srv, address, headers);
      const stream = await openStream(srv, id, address, headers);
      expect(stream.status).toBe(200);
      streams.push(stream);
      return id;
    };
    try {
      // One anonymous caller: its share is two. The first sits idle, the second holds its stream open.
      const first = await initializeFrom(srv, "127.0.0.2");
      await held({}, "127.0.0.2");
      // A third from the same address closes its own idle session, and nobody else's.
      const writerIdle = await initialize(srv, { Authorization: `Bearer ${WRITER}` });
      const third = await initializeFrom(srv, "127.0.0.2");
      expect((await post(srv, LIST, { "Mcp-Session-Id": first })).status).toBe(404);
      expect((await post(srv, LIST, { "Mcp-Session-Id": writerIdle, Authorization: `Bearer ${WRITER}` })).status).toBe(200);
      expect(srv.stderr()).toContain("warn session evicted: its credential holds its share of 2 reason=evicted");
      // Both its sessions in use: a fourth is refused, and still nothing of another caller's is closed.
      const thirdStream = await openStream(srv, third, "127.0.0.2");
      streams.push(thirdStream);
      const overShare = await postFrom(srv, "127.0.0.2", initializeBody());
      expect([overShare.status, overShare.headers["retry-after"], JSON.parse(overShare.text)]).toEqual([
        503,
        "5",
        {
          jsonrpc: "2.0",
          error: { code: -32000, message: "Too many sessions for this credential (2): close one or try again later" },
          id: 1,
        },
      ]);
      expect((await post(srv, LIST, { "Mcp-Session-Id": writerIdle, Authorization: `Bearer ${WRITER}` })).status).toBe(200);
      await until("the share refusal logged", () =>
        srv.stderr().includes("request refused: no room for a new session: this credential holds its share of 2, all in use status=503"),
      );

      // Fill the room of non-admins (19) with sessions in use: the writer's two, 7 more addresses × 2, one more.
      await held({ Authorization: `Bearer ${WRITER}` });
      streams.push(await openStream(srv, writerIdle, "127.0.0.1", { Authorization: `Bearer ${WRITER}` }));
      for (let host = 3; host <= 9; host++) {
        await held({}, `127.0.0.${host}`);
        await held({}, `127.0.0.${host}`);
      }
      await held({}, "127.0.0.10");
      // 19 in use: a newcomer is refused, and no session in use is cut for it.
      const refused = await postFrom(srv, "127.0.0.11", initializeBody());
      expect(refused.status).toBe(503);
      expect(JSON.parse(refused.text)).toEqual({
        jsonrpc: "2.0",
        error: { code: -32000, message: "Too many sessions: try again later" },
        id: 1,
      });
      // The admin still gets in.
      await held({ Authorization: `Bearer ${READER}` });
      const metrics = await scrape(srv, READER);
      expect([
        metrics["skillshelf_mcp_sessions"],
        metrics["skillshelf_mcp_sessions_max"],
        metrics["skillshelf_mcp_sessions_closed_total{evicted}"],
        metrics["skillshelf_mcp_session_refusals_total{share}"],
        metrics["skillshelf_mcp_session_refusals_total{capacity}"],
      ]).toEqual(["20", "20", "1", "1", "1"]);
    } finally {
      for (const stream of streams) stream.close();
    }
  });

  test("--session-idle-seconds: a session with no request and no stream open is closed; an open stream keeps it", async () => {
    const started = await startHttpServer(["--config", EXAMPLE_CONFIG, "--session-idle-seconds", "0.5"]);
    server = started;
    // The streaming session was last used before the idle one began: had its stream not kept it, it would have been
    // closed before the idle one.
    const streaming = await initialize(server);
    const stream = await openStream(server, streaming);
    const idle = await initialize(server);
    // Any request to a session counts as use: the test watches the closed-sessions count instead.
    const closedIdle = async (): Promise<string | undefined> => (await scrape(started))["skillshelf_mcp_sessions_closed_total{idle}"];
    await until("the idle session closed", async () => (await closedIdle()) === "1");
    expect((await post(server, LIST, { "Mcp-Session-Id": idle })).status).toBe(404);
    expect((await post(server, LIST, { "Mcp-Session-Id": streaming })).status).toBe(200);
    // Once its stream ends, the idle clock runs for it too.
    stream.close();
    await stream.ended;
    await until("the formerly streaming session closed", async () => (await closedIdle()) === "2");
    expect((await post(server, LIST, { "Mcp-Session-Id": streaming })).status).toBe(404);
    expect(await closedIdle()).toBe("2");
  });

  test("--stateless: no session id, GET and DELETE answer 405, and the SDK client still works", async () => {
    server = await startHttpServer(["--config", EXAMPLE_CONFIG, "--stateless"]);
    const answer = await post(server, initializeBody());
    expect(answer.status).toBe(200);
    expect(answer.headers["mcp-session-id"]).toBeUndefined();
    for (const method of ["GET", "DELETE"]) {
      const refused = await send(server.origin, { method, path: "/mcp", headers: { Accept: "text/event-stream" } });
      expect(refused.status).toBe(405);
      expect(refused.headers["allow"]).toBe("POST");
    }
    const { client, transport } = await connect(server.url);
    expect(transport.sessionId).toBeUndefined();
    expect((await client.listResources()).resources.length).toBeGreaterThan(0);
    await client.close();
    expect((await scrape(server))["skillshelf_mcp_sessions"]).toBeUndefined();
  });

  test("SIGTERM closes every session: its GET stream ends and the server exits 0", async () => {
    server = await startHttpServer(["--config", EXAMPLE_CONFIG]);
    const id = await initialize(server);
    const stream = await openStream(server, id);
    expect(stream.status).toBe(200);
    const exited = server.stop("SIGTERM");
    await stream.ended;
    expect(await exited).toEqual({ code: 0, signal: null });
    expect(server.stderr()).toContain("draining in-flight requests");
  });
});
