// Requests refused before MCP processing, against the built CLI: a charset or Content-Encoding body-parser
// cannot read, a body nested thousands deep, an unknown route, a malformed `initialize`. Each answers a short
// JSON-RPC error with the right status, never express's HTML page with a stack and this machine's paths, and
// the log names it in one line; with anonymous access off too.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MCP_HEADERS, send, type RawResponse } from "../support/http.js";
import { EXAMPLE_CONFIG, killStragglers, REPO_ROOT, startHttpServer, type ServerProcess } from "../support/process.js";

afterAll(killStragglers);

const ADMIN_TOKEN = "tok-admin-5b1e0f77c2";

/** What no answer may carry: an HTML page, a stack frame, a path of this machine. */
function expectClean(response: RawResponse): void {
  expect(response.headers["content-type"]).toMatch(/^application\/json/);
  expect(response.headers["x-content-type-options"]).toBe("nosniff");
  expect(response.text).not.toContain("<");
  expect(response.text).not.toMatch(/\bat \w+ \(/);
  expect(response.text).not.toContain(REPO_ROOT);
  expect(response.text).not.toContain("node_modules");
}

const rpcError = (response: RawResponse): unknown => JSON.parse(response.text) as unknown;

/** A nested array `depth` deep inside `params`: `[[[…]]]`. */
const nested = (depth: number): string =>
  `{"jsonrpc":"2.0","id":7,"method":"resources/list","params":{"x":${"[".repeat(depth)}${"]".repeat(depth)}}}`;

let sentinels = 0;

/** The log lines written after offset `from` that contain `marker`, once there is one (the log line may trail the
 *  answer by a moment); then a sentinel request to an unknown route, whose own line comes after every line the
 *  first request wrote, so a second line of it would show (`headers`: a token where anonymous access is off). */
async function logLinesAfter(server: ServerProcess, from: number, marker: string, headers: Record<string, string>): Promise<string[]> {
  const linesWith = (text: string): string[] =>
    server
      .stderr()
      .slice(from)
      .split("\n")
      .filter((line) => line.includes(text));
  while (linesWith(marker).length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
  const sentinel = `/sentinel-${++sentinels}`;
  await sendTarget(server, sentinel, { ...headers, "content-type": "application/json" }, "{}");
  while (linesWith(`path=${sentinel}`).length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
  return linesWith(marker).filter((line) => !line.includes("path=/sentinel-"));
}

/** A request whose request line carries `target` exactly as given (absolute form, or no path at all). */
function sendTarget(server: ServerProcess, target: string, headers: Record<string, string>, body: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: "127.0.0.1", port: server.port, method: "POST", path: target, headers, agent: false });
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

/** The SSE or JSON body of a 2025-era answer, as its one JSON-RPC message. */
function rpcMessage(response: RawResponse): unknown {
  const data = /^data: (.*)$/m.exec(response.text);
  return JSON.parse(data === null ? response.text : (data[1] as string)) as unknown;
}

describe.each([
  { name: "anonymous allowed", anonymous: true },
  { name: "anonymous off", anonymous: false },
])("refusals before MCP processing ($name)", ({ anonymous }) => {
  let server: ServerProcess;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "skillshelf-body-errors-"));
    const config = path.join(dir, "config.yaml");
    const clients = anonymous ? "" : `clients:\n  - {name: ops, token: {env: BODY_ADMIN}, admin: true}\nanonymous: false\n`;
    writeFileSync(
      config,
      `plugins:\n  - {name: eng-kit, source: ${path.join(REPO_ROOT, "examples/engineering-kit")}}\nlibraries:\n  - {name: eng, plugins: [eng-kit]}\n${clients}`,
    );
    server = await startHttpServer(["--config", anonymous ? EXAMPLE_CONFIG : config], { env: { BODY_ADMIN: ADMIN_TOKEN } });
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const post = (route: string, headers: Record<string, string>, body: string | Buffer) =>
    send(server.origin, { method: "POST", path: route, headers: { ...MCP_HEADERS, ...headers }, body });

  it.each(["/mcp", "/reindex", "/health", "/"])("answers a latin1 charset on %s with 415 -32600, without a token", async (route) => {
    const before = server.stderr().length;
    const response = await post(route, { "content-type": "application/json; charset=latin1" }, "{}");
    expect(response.status).toBe(415);
    expectClean(response);
    expect(rpcError(response)).toEqual({
      jsonrpc: "2.0",
      error: { code: -32600, message: "Unsupported charset: send JSON as UTF-8" },
      id: null,
    });
    const refused = await logLinesAfter(server, before, `path=${route}`, anonymous ? {} : { authorization: `Bearer ${ADMIN_TOKEN}` });
    expect(refused).toEqual([
      expect.stringMatching(
        new RegExp(` warn request refused: Unsupported charset: send JSON as UTF-8 status=415 method=POST path=${route}$`),
      ),
    ]);
  });

  it("answers an unknown Content-Encoding with 415 -32600", async () => {
    const response = await post("/mcp", { "content-encoding": "xyz" }, "{}");
    expect(response.status).toBe(415);
    expectClean(response);
    expect(rpcError(response)).toEqual({
      jsonrpc: "2.0",
      error: { code: -32600, message: "Unsupported Content-Encoding: use identity, gzip, deflate or br" },
      id: null,
    });
  });

  it("answers a gzip body that does not inflate with 400 -32600", async () => {
    const good = gzipSync(Buffer.from("{}"));
    const response = await post("/reindex", { "content-encoding": "gzip" }, good.subarray(0, good.length - 6));
    expect(response.status).toBe(400);
    expectClean(response);
    expect(rpcError(response)).toEqual({
      jsonrpc: "2.0",
      error: { code: -32600, message: "The body could not be read: check its Content-Encoding and length" },
      id: null,
    });
  });

  it("answers an unknown route with a JSON 404", async () => {
    const headers: Record<string, string> = anonymous ? {} : { authorization: `Bearer ${ADMIN_TOKEN}` };
    const response = await send(server.origin, { path: "/nope/../etc", headers });
    expect(response.status).toBe(404);
    expectClean(response);
    expect(rpcError(response)).toMatchObject({ jsonrpc: "2.0", error: { code: -32600 }, id: null });
  });

  it.each(["TRACE", "PUT", "PATCH", "OPTIONS"])("answers %s /mcp with 405 naming the methods it serves, not a 500", async (method) => {
    const headers: Record<string, string> = anonymous ? {} : { authorization: `Bearer ${ADMIN_TOKEN}` };
    const before = server.stderr().length;
    const response = await send(server.origin, { method, path: "/mcp", headers });
    expect(response.status).toBe(405);
    expect(response.headers["allow"]).toBe("GET, POST, DELETE");
    expectClean(response);
    expect(rpcError(response)).toEqual({
      jsonrpc: "2.0",
      error: { code: -32600, message: "Method not allowed: /mcp answers GET, POST, DELETE" },
      id: null,
    });
    expect(await logLinesAfter(server, before, "Method not allowed", anonymous ? {} : { authorization: `Bearer ${ADMIN_TOKEN}` })).toEqual([
      expect.stringMatching(/ warn request refused: Method not allowed: \/mcp answers GET, POST, DELETE status=405 method=\w+ path=\/mcp$/),
    ]);
    expect(server.stderr().slice(before)).not.toMatch(/ error /);
  });

  it.each([
    { body: "[]", line: "Rejected inbound request (empty-batch): Bad Request: empty JSON-RPC batch" },
    {
      body: '{"jsonrpc":"2.0"}',
      line: "Rejected inbound request (invalid-json-rpc-body): Bad Request: the request body is not a valid JSON-RPC message",
    },
  ])("logs the client mistake $body as a warning, never an error", async ({ body, line }) => {
    const headers: Record<string, string> = anonymous ? {} : { authorization: `Bearer ${ADMIN_TOKEN}` };
    const before = server.stderr().length;
    const response = await post("/mcp", headers, body);
    expect(response.status).toBe(400);
    expect(
      await logLinesAfter(server, before, "Rejected inbound request", anonymous ? {} : { authorization: `Bearer ${ADMIN_TOKEN}` }),
    ).toEqual([expect.stringMatching(new RegExp(` warn request refused: ${line.replace(/[()]/g, "\\$&")}$`))]);
    expect(server.stderr().slice(before)).not.toMatch(/ error /);
  });

  it("serves a request target in absolute form, whose authority has a port, as its path", async () => {
    const headers: Record<string, string> = anonymous ? {} : { authorization: `Bearer ${ADMIN_TOKEN}` };
    const response = await sendTarget(server, `http://127.0.0.1:${server.port}/mcp`, { ...MCP_HEADERS, ...headers }, nested(2));
    expect(response.status).toBe(200);
    expect(rpcMessage(response)).toMatchObject({ jsonrpc: "2.0", id: 7, result: { resources: expect.any(Array) } });
  });

  it.each(["ftp://127.0.0.1/mcp", "ws://127.0.0.1/mcp"])("answers the request target %s with 400, not a 500", async (target) => {
    const before = server.stderr().length;
    const response = await sendTarget(server, target, MCP_HEADERS, nested(2));
    expect(response.status).toBe(400);
    expectClean(response);
    expect(rpcError(response)).toEqual({
      jsonrpc: "2.0",
      error: { code: -32600, message: "Bad request target: send a path (/mcp) or an http URL" },
      id: null,
    });
    expect(server.stderr().slice(before)).not.toMatch(/ error /);
  });

  it("checks the authority of an absolute-form target as the Host", async () => {
    const response = await sendTarget(server, `http://evil.example:${server.port}/mcp`, MCP_HEADERS, nested(2));
    expect(response.status).toBe(403);
    expectClean(response);
  });

  it("answers an array nested 5,000 deep as an invalid request (400 -32600), not a 500", async () => {
    const headers: Record<string, string> = anonymous ? {} : { authorization: `Bearer ${ADMIN_TOKEN}` };
    const response = await post("/mcp", headers, nested(5000));
    expect(response.status).toBe(400);
    expectClean(response);
    expect(rpcError(response)).toEqual({
      jsonrpc: "2.0",
      error: { code: -32600, message: "Invalid Request: the body is nested deeper than 64 levels" },
      id: 7,
    });
    expect(server.stderr()).not.toContain("Maximum call stack size exceeded");
  });

  it("still serves a body nested right up to the bound", async () => {
    const headers: Record<string, string> = anonymous ? {} : { authorization: `Bearer ${ADMIN_TOKEN}` };
    // {params: {x: [ … ]}}: the body object, params and x's arrays make 2 + 62 = 64 levels.
    const response = await post("/mcp", headers, nested(62));
    expect(response.status).toBe(200);
    expect(rpcMessage(response)).toMatchObject({ jsonrpc: "2.0", id: 7, result: { resources: expect.any(Array) } });
    expect((await post("/mcp", headers, nested(63))).status).toBe(400);
  });
});

describe("a malformed initialize", () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startHttpServer(["--config", EXAMPLE_CONFIG]);
  });
  afterAll(() => server?.stop());

  const initialize = (params: unknown) =>
    send(server.origin, {
      method: "POST",
      path: "/mcp",
      headers: MCP_HEADERS,
      body: JSON.stringify({ jsonrpc: "2.0", id: 3, method: "initialize", ...(params === undefined ? {} : { params }) }),
    });

  const MISSING_ALL =
    "Invalid params for initialize: protocolVersion: a protocol version string such as 2025-11-25, capabilities: an object, clientInfo: an object {name, version}";

  it.each([
    { name: "without params", params: undefined, message: MISSING_ALL },
    { name: "with {}", params: {}, message: MISSING_ALL },
    {
      name: "with a numeric protocolVersion",
      params: { protocolVersion: 5, capabilities: {}, clientInfo: { name: "t", version: "1" } },
      message: "Invalid params for initialize: protocolVersion: a protocol version string such as 2025-11-25",
    },
  ])("answers initialize $name with -32602 and a one-line message", async ({ params, message }) => {
    const response = await initialize(params);
    expect(response.status).toBe(200);
    expect(rpcMessage(response)).toEqual({ jsonrpc: "2.0", id: 3, error: { code: -32602, message } });
  });

  it("still negotiates a well-formed initialize", async () => {
    const response = await initialize({ protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } });
    expect(rpcMessage(response)).toMatchObject({
      id: 3,
      result: { protocolVersion: "2025-06-18", serverInfo: { name: "skillshelf" } },
    });
  });
});
