// The bad-input suite over HTTP, against the built server: malformed and truncated JSON, wrong content types
// and charsets, unknown encodings, oversized and inflating bodies, deep nesting, batches, unknown methods, bad
// protocol versions, slow and abandoned bodies, 500 connections at once. Each answer is the right status and
// JSON-RPC error; the server stays up, never logs a stack, and its memory comes back down.
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MCP_HEADERS, openRequest, send, type RawResponse } from "../support/http.js";
import { EXAMPLE_CONFIG, killStragglers, startHttpServer, type ServerProcess } from "../support/process.js";
import { parseRpcAnswer } from "./fuzz-run.js";

afterAll(killStragglers);

const PING = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
const ping = (id: number): string => JSON.stringify({ jsonrpc: "2.0", id, method: "ping" });
const NOT_JSON_RPC = "Bad Request: the request body is not a valid JSON-RPC message";
const WRONG_TYPE = "Unsupported Media Type: Content-Type must be application/json";

interface Case {
  readonly name: string;
  readonly headers?: Record<string, string>;
  readonly body: string | Buffer;
  readonly status: number;
  /** The JSON-RPC error, or `null` when the request is served (a result). */
  readonly error: { code: number; message: string; data?: unknown } | null;
}

const CASES: Case[] = [
  { name: "malformed JSON", body: "{not json", status: 400, error: { code: -32700, message: "Parse error: the body is not valid JSON" } },
  {
    name: "truncated JSON",
    body: PING.slice(0, -1),
    status: 400,
    error: { code: -32700, message: "Parse error: the body is not valid JSON" },
  },
  { name: "a bare JSON string", body: '"ping"', status: 400, error: { code: -32700, message: "Parse error: the body is not valid JSON" } },
  { name: "an empty body", body: "", status: 400, error: { code: -32600, message: NOT_JSON_RPC } },
  { name: "jsonrpc 1.0", body: PING.replace("2.0", "1.0"), status: 400, error: { code: -32600, message: NOT_JSON_RPC } },
  {
    name: "an object as id",
    body: '{"jsonrpc":"2.0","id":{},"method":"ping"}',
    status: 400,
    error: { code: -32600, message: NOT_JSON_RPC },
  },
  { name: "text/plain", headers: { "content-type": "text/plain" }, body: PING, status: 415, error: { code: -32000, message: WRONG_TYPE } },
  {
    name: "a form",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "a=1",
    status: 415,
    error: { code: -32000, message: WRONG_TYPE },
  },
  {
    name: "charset latin1",
    headers: { "content-type": "application/json; charset=latin1" },
    body: PING,
    status: 415,
    error: { code: -32600, message: "Unsupported charset: send JSON as UTF-8" },
  },
  {
    name: "charset utf-16 (decoded and served)",
    headers: { "content-type": "application/json; charset=utf-16" },
    body: Buffer.from(PING, "utf16le"),
    status: 200,
    error: null,
  },
  { name: "charset UTF-8 (served)", headers: { "content-type": "application/json; charset=UTF-8" }, body: PING, status: 200, error: null },
  {
    name: "Content-Encoding xyz",
    headers: { "content-encoding": "xyz" },
    body: PING,
    status: 415,
    error: { code: -32600, message: "Unsupported Content-Encoding: use identity, gzip, deflate or br" },
  },
  {
    name: "gzip that is not gzip",
    headers: { "content-encoding": "gzip" },
    body: PING,
    status: 400,
    error: { code: -32600, message: "The body could not be read: check its Content-Encoding and length" },
  },
  { name: "gzip (served)", headers: { "content-encoding": "gzip" }, body: gzipSync(PING), status: 200, error: null },
  {
    name: "a body over the limit",
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping", params: { pad: "x".repeat(300 * 1024) } }),
    status: 413,
    error: { code: -32600, message: "Request body too large (limit 256kb)" },
  },
  {
    name: "a 280 B gzip that inflates past the limit",
    headers: { "content-encoding": "gzip" },
    body: gzipSync(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping", params: { pad: " ".repeat(8 * 1024 * 1024) } })),
    status: 413,
    error: { code: -32600, message: "Request body too large (limit 256kb)" },
  },
  {
    name: "nesting 10,000 deep",
    body: `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":${"[".repeat(10_000)}${"]".repeat(10_000)}}}`,
    status: 400,
    error: { code: -32600, message: "Invalid Request: the body is nested deeper than 64 levels" },
  },
  {
    name: "objects nested 65 deep",
    body: `{"jsonrpc":"2.0","id":1,"method":"ping","params":${'{"a":'.repeat(64)}1${"}".repeat(64)}}`,
    status: 400,
    error: { code: -32600, message: "Invalid Request: the body is nested deeper than 64 levels" },
  },
  { name: "an empty batch", body: "[]", status: 400, error: { code: -32600, message: "Bad Request: empty JSON-RPC batch" } },
  {
    name: "a batch over 100",
    body: `[${Array.from({ length: 101 }, (_, i) => ping(i)).join(",")}]`,
    status: 400,
    error: { code: -32600, message: "Invalid Request: Batch must not exceed 100 messages" },
  },
  {
    name: "an unknown method",
    body: '{"jsonrpc":"2.0","id":1,"method":"skills/steal"}',
    status: 200,
    error: { code: -32601, message: "Method not found" },
  },
  {
    name: "an unknown protocol version header",
    headers: { "mcp-protocol-version": "1999-01-01" },
    body: PING,
    status: 400,
    error: {
      code: -32000,
      message:
        "Bad Request: Unsupported protocol version: 1999-01-01 (supported versions: 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05, 2024-10-07)",
    },
  },
  {
    name: "an unknown protocol version in _meta",
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "ping",
      params: { _meta: { "io.modelcontextprotocol/protocolVersion": "1999-01-01", "io.modelcontextprotocol/clientCapabilities": {} } },
    }),
    status: 400,
    error: {
      code: -32022,
      message: "Unsupported protocol version: 1999-01-01",
      data: { supported: ["2026-07-28"], requested: "1999-01-01" },
    },
  },
  {
    name: "initialize with no params",
    body: '{"jsonrpc":"2.0","id":1,"method":"initialize"}',
    status: 200,
    error: {
      code: -32602,
      message:
        "Invalid params for initialize: protocolVersion: a protocol version string such as 2025-11-25, capabilities: an object, clientInfo: an object {name, version}",
    },
  },
  {
    name: "resources/read with a number as uri",
    body: '{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":5}}',
    status: 200,
    error: { code: -32602, message: "Invalid params for resources/read: uri: Invalid input: expected string, received number" },
  },
];

function rssKb(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return Number(match?.[1]);
}

describe("the bad-input suite over HTTP", () => {
  let server: ServerProcess;
  let rssBefore = 0;

  beforeAll(async () => {
    server = await startHttpServer(["--config", EXAMPLE_CONFIG]);
    // Warm up, so the first measurement is the server at work, not the server before its first request.
    for (let i = 0; i < 50; i++) expect((await post({}, ping(i))).status).toBe(200);
    rssBefore = rssKb(server.child.pid as number);
  });
  afterAll(() => server?.stop());

  const post = (headers: Record<string, string>, body: string | Buffer): Promise<RawResponse> =>
    send(server.origin, { method: "POST", path: "/mcp", headers: { ...MCP_HEADERS, ...headers }, body });

  it.each(CASES)("$name => $status", async ({ headers, body, status, error }) => {
    const response = await post(headers ?? {}, body);
    expect(response.status).toBe(status);
    expect(response.text).not.toMatch(/<html|\bat \w+ \(|node_modules/i);
    const answer = parseRpcAnswer(response.text);
    if (error === null) expect(answer).toMatchObject({ jsonrpc: "2.0", id: 1, result: {} });
    else expect(answer?.error).toEqual(error);
  });

  it("answers a batch of two with both results", async () => {
    const response = await post({}, `[${ping(1)},${ping(2)}]`);
    expect(response.status).toBe(200);
    const ids = [...response.text.matchAll(/^data: (.*)$/gm)].map((m) => (JSON.parse(m[1] as string) as { id: number }).id);
    expect(ids.sort()).toEqual([1, 2]);
  });

  it("waits for a body that trickles in a byte at a time, then answers it", async () => {
    const body = Buffer.from(PING);
    const { request, response } = openRequest(server.origin, {
      method: "POST",
      path: "/mcp",
      headers: { ...MCP_HEADERS, "content-length": String(body.length) },
    });
    for (const byte of body) {
      request.write(Buffer.from([byte]));
      await new Promise((resolve) => setImmediate(resolve));
    }
    request.end();
    const answer = await response;
    expect(answer.status).toBe(200);
    expect(parseRpcAnswer(answer.text)).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
  });

  it("survives bodies abandoned half-way", async () => {
    for (let i = 0; i < 20; i++) {
      const { request, response } = openRequest(server.origin, {
        method: "POST",
        path: "/mcp",
        headers: { ...MCP_HEADERS, "content-length": "1000" },
      });
      response.catch(() => undefined);
      request.write('{"jsonrpc":"2.0","id":1,');
      await new Promise((resolve) => setImmediate(resolve));
      request.destroy();
    }
    expect((await post({}, PING)).status).toBe(200);
  });

  it("answers 500 connections opened at once, each with its own id", async () => {
    const answers = await Promise.all(Array.from({ length: 500 }, (_, i) => post({}, ping(i))));
    expect(answers.map((a) => a.status)).toEqual(Array.from({ length: 500 }, () => 200));
    expect(answers.map((a) => (parseRpcAnswer(a.text) as { id: number }).id)).toEqual(Array.from({ length: 500 }, (_, i) => i));
  });

  it("is still up, logged no stack, and its memory came back", async () => {
    expect(parseRpcAnswer((await post({}, PING)).text)).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    expect(server.stderr()).not.toMatch(/^\s+at /m);
    expect(server.child.exitCode).toBe(null);
    // Memory returns: the bursts above leave no more than 64 MB behind once the server settles (a few ping rounds
    // let V8 collect; RSS is a bound, not an exact figure, because the allocator keeps some pages).
    for (let i = 0; i < 200; i++) await post({}, ping(i));
    const rssAfter = rssKb(server.child.pid as number);
    console.log(`bad-input RSS: before ${Math.round(rssBefore / 1024)} MB, after ${Math.round(rssAfter / 1024)} MB`);
    expect(rssAfter - rssBefore).toBeLessThan(64 * 1024);
  });
});
