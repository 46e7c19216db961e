// GET /livez and GET /readyz against the built CLI: one word each, no token, any Host header; on SIGTERM readiness
// turns false while the server still answers, then the listener closes, requests in flight finish, and it exits 0.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MCP_HEADERS, initializeBody, openRequest, send } from "../support/http.js";
import { EXAMPLE_CONFIG, REPO_ROOT, killStragglers, startHttpServer, type ServerProcess } from "../support/process.js";

afterAll(killStragglers);

const TOKEN_ENV = { PROBE_ADMIN_TOKEN: "admin-secret-0123456789" };

/** Resolves once the server's stderr contains `text`. */
function logged(server: ServerProcess, text: string): Promise<void> {
  return new Promise((resolve) => {
    const check = (): void => {
      if (!server.stderr().includes(text)) return;
      server.child.stderr?.off("data", check);
      resolve();
    };
    server.child.stderr?.on("data", check);
    check();
  });
}

describe("the probes", () => {
  it("answer without a token, whatever the Host, with one word and nothing of the shelf", async () => {
    // A config that declares clients and refuses anonymous callers: the probes still answer.
    const dir = mkdtempSync(path.join(tmpdir(), "skillshelf-probes-"));
    try {
      const config = path.join(dir, "config.yaml");
      const example = readFileSync(EXAMPLE_CONFIG, "utf8").replaceAll("./examples/", `${path.join(REPO_ROOT, "examples")}/`);
      writeFileSync(
        config,
        `${example}\nanonymous: false\nclients:\n  - name: ops\n    token: { env: PROBE_ADMIN_TOKEN }\n    admin: true\n`,
      );
      const server = await startHttpServer(["--config", config], { env: TOKEN_ENV });
      try {
        expect((await send(server.origin, { path: "/health" })).status).toBe(401);
        for (const host of [`127.0.0.1:${server.port}`, "10.1.2.3:8000", "evil.example"]) {
          const live = await send(server.origin, { path: "/livez", headers: { Host: host } });
          const ready = await send(server.origin, { path: "/readyz", headers: { Host: host } });
          expect([live.status, live.text, ready.status, ready.text]).toEqual([200, "ok\n", 200, "ready\n"]);
          expect(ready.headers["cache-control"]).toBe("no-store");
          expect(ready.headers["x-powered-by"]).toBeUndefined();
        }
        // Only GET (and HEAD): the probes change nothing and take nothing.
        expect((await send(server.origin, { method: "HEAD", path: "/readyz" })).status).toBe(200);
        expect((await send(server.origin, { method: "POST", path: "/readyz" })).status).not.toBe(200);
      } finally {
        expect(await server.stop()).toEqual({ code: 0, signal: null });
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("turn not ready on SIGTERM while the server still answers, then refuse connections and exit 0", async () => {
    // A long drain window, ended by a second SIGTERM: what happens inside it is observed, not timed.
    const server = await startHttpServer(["--config", EXAMPLE_CONFIG, "--drain-seconds", "600"]);
    expect((await send(server.origin, { path: "/readyz" })).status).toBe(200);
    // A request in flight when the signal arrives (headers sent, body pending) finishes after the window.
    const body = initializeBody();
    const { request, response } = openRequest(server.origin, {
      method: "POST",
      path: "/mcp",
      headers: { ...MCP_HEADERS, "Content-Length": String(Buffer.byteLength(body)), Expect: "100-continue" },
    });
    request.flushHeaders();
    await new Promise<void>((resolve) => request.once("continue", () => resolve()));
    request.write(body.slice(0, 20));

    server.child.kill("SIGTERM");
    await logged(server, "not ready: draining");
    const ready = await send(server.origin, { path: "/readyz" });
    const live = await send(server.origin, { path: "/livez" });
    const health = await send(server.origin, { path: "/health" });
    expect([ready.status, ready.text, live.status, health.status]).toEqual([503, "draining\n", 200, 200]);
    // Keep-alive clients are told to reconnect (elsewhere, behind a load balancer).
    expect(health.headers.connection).toBe("close");
    // So are the protocol's answers, streamed (SSE) or not, and its refusals.
    const streamed = await send(server.origin, {
      method: "POST",
      path: "/mcp",
      headers: MCP_HEADERS,
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
    });
    expect([streamed.status, streamed.headers["content-type"], streamed.headers.connection]).toEqual([200, "text/event-stream", "close"]);
    const refused = await send(server.origin, { method: "POST", path: "/mcp", headers: MCP_HEADERS, body: "[]" });
    expect([refused.status, refused.headers.connection]).toEqual([400, "close"]);

    const exited = server.stop("SIGTERM");
    await logged(server, "draining in-flight requests");
    request.end(body.slice(20));
    const answer = await response;
    expect(answer.status).toBe(200);
    expect(answer.text).toContain('"protocolVersion":"2025-11-25"');
    expect(await exited).toEqual({ code: 0, signal: null });
    await expect(send(server.origin, { path: "/livez" })).rejects.toThrow(/ECONNREFUSED/);
  });
});
