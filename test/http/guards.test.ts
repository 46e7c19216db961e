// §6 and §10 guards of the real HTTP server: Host and Origin validation (DNS rebinding), the body limit, and
// GET / DELETE on /mcp without a 2025-era session id answered 405 (test/http/sessions.test.ts has them with one).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MCP_HEADERS, initializeBody, send } from "../support/http.js";
import { EXAMPLE_CONFIG, killStragglers, startHttpServer, type ServerProcess } from "../support/process.js";

afterAll(killStragglers);

const jsonError = (text: string): { code: unknown; message: unknown } =>
  (JSON.parse(text) as { error: { code: unknown; message: unknown } }).error;

describe("guards of a server bound to 127.0.0.1", () => {
  let server: ServerProcess;

  beforeAll(async () => {
    server = await startHttpServer(["--config", EXAMPLE_CONFIG]);
  });
  afterAll(() => server?.stop());

  const post = (headers: Record<string, string>, body = initializeBody()) =>
    send(server.origin, { method: "POST", path: "/mcp", headers: { ...MCP_HEADERS, ...headers }, body });

  it("serves MCP to a request from a localhost Origin", async () => {
    expect((await post({ Origin: server.origin })).status).toBe(200);
    expect((await post({ Origin: `http://localhost:${server.port}` })).status).toBe(200);
  });

  it("refuses a foreign Origin with 403 before any MCP processing", async () => {
    const response = await post({ Origin: "http://evil.example" });
    expect(response.status).toBe(403);
    expect(jsonError(response.text).code).toBe(-32000);
  });

  it("refuses a foreign Origin on the operator routes too", async () => {
    expect((await send(server.origin, { path: "/health", headers: { Origin: "http://evil.example" } })).status).toBe(403);
  });

  it("refuses a Host that is not a localhost name with 403", async () => {
    const response = await post({ Host: "evil.example" });
    expect(response.status).toBe(403);
    expect(jsonError(response.text).code).toBe(-32000);
    expect((await send(server.origin, { path: "/health", headers: { Host: `evil.example:${server.port}` } })).status).toBe(403);
  });

  it("accepts the localhost names as Host", async () => {
    for (const host of [`127.0.0.1:${server.port}`, `localhost:${server.port}`]) {
      expect((await send(server.origin, { path: "/health", headers: { Host: host } })).status).toBe(200);
    }
  });

  it("refuses a body over the limit with 413 and a JSON-RPC shaped error", async () => {
    const big = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping", params: { pad: "x".repeat(1024 * 1024) } });
    const response = await post({}, big);
    expect(response.status).toBe(413);
    expect(response.headers["content-type"]).toMatch(/^application\/json/);
    expect(JSON.parse(response.text)).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: expect.any(Number) } });
  });

  it("refuses a body that is not JSON with a JSON-RPC parse error, not an HTML page", async () => {
    const response = await post({}, "{not json");
    expect(response.status).toBe(400);
    expect(jsonError(response.text).code).toBe(-32700);
  });

  it.each(["GET", "DELETE"])("answers %s /mcp without a session id with 405 and Allow: POST (no session, no stream)", async (method) => {
    const response = await send(server.origin, { method, path: "/mcp", headers: { Accept: "application/json, text/event-stream" } });
    expect(response.status).toBe(405);
    expect(response.headers["allow"]).toBe("POST");
    expect(jsonError(response.text).code).toBe(-32000);
  });
});

describe("guards widened with --allowed-hosts and --allowed-origins", () => {
  let server: ServerProcess;

  beforeAll(async () => {
    server = await startHttpServer([
      "--config",
      EXAMPLE_CONFIG,
      "--allowed-hosts",
      "skills.internal",
      "--allowed-origins",
      "app.example",
      "--allowed-origins",
      "https://tools.example",
    ]);
  });
  afterAll(() => server?.stop());

  it("accepts the named Host and still the localhost names, and refuses others", async () => {
    expect((await send(server.origin, { path: "/health", headers: { Host: "skills.internal" } })).status).toBe(200);
    expect((await send(server.origin, { path: "/health", headers: { Host: `localhost:${server.port}` } })).status).toBe(200);
    expect((await send(server.origin, { path: "/health", headers: { Host: "evil.example" } })).status).toBe(403);
  });

  const post = (origin: string) =>
    send(server.origin, { method: "POST", path: "/mcp", headers: { ...MCP_HEADERS, Origin: origin }, body: initializeBody() });

  it("accepts an Origin on a named host (docs/operations.md: the flag adds names) and refuses others", async () => {
    expect((await post("https://app.example")).status).toBe(200);
    expect((await post("https://evil.example")).status).toBe(403);
  });

  it("accepts an origin given in origin form, as the flag's name invites", async () => {
    // `--allowed-origins https://tools.example` is what an operator copies from a browser; it must not be
    // silently ignored (and then 403 every request from that origin).
    expect((await post("https://tools.example")).status).toBe(200);
  });
});
