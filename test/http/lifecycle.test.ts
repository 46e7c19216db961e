// §11: SIGTERM drains in-flight requests and exits 0 — over HTTP (with idle keep-alive sockets, a request whose
// body is still arriving, and an open 2026-07-28 subscriptions/listen stream) and over stdio.
import { spawn } from "node:child_process";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, describe, expect, it } from "vitest";
import { MCP_HEADERS, initializeBody, openRequest, send } from "../support/http.js";
import { CLI, EXAMPLE_CONFIG, REPO_ROOT, cleanEnv, killStragglers, startHttpServer } from "../support/process.js";
import { ERA_2026 } from "../support/transports.js";

afterAll(killStragglers);

/** Resolves once `server`'s stderr contains `text` (the CLI logs one line per state change). */
function waitForLog(stderr: () => string, child: { stderr: NodeJS.ReadableStream | null }, text: string): Promise<void> {
  return new Promise((resolve) => {
    if (stderr().includes(text)) return resolve();
    const onData = (): void => {
      if (!stderr().includes(text)) return;
      child.stderr?.off("data", onData);
      resolve();
    };
    child.stderr?.on("data", onData);
  });
}

describe("SIGTERM on the HTTP server", () => {
  it("drains and exits 0 on a SIGTERM sent the moment the startup line names the URL", async () => {
    // A supervisor that waits for the startup line may signal at once: by then the server must handle SIGTERM.
    const server = await startHttpServer(["--config", EXAMPLE_CONFIG]);
    expect(await server.stop("SIGTERM")).toEqual({ code: 0, signal: null });
    expect(server.stderr()).toContain("draining");
  });

  it("exits 0 with an idle keep-alive connection open", async () => {
    const server = await startHttpServer(["--config", EXAMPLE_CONFIG]);
    // fetch keeps its socket alive after the answer.
    expect((await fetch(`${server.origin}/health`)).status).toBe(200);
    expect(await server.stop("SIGTERM")).toEqual({ code: 0, signal: null });
  });

  it("finishes a request still in flight, then exits 0", async () => {
    const server = await startHttpServer(["--config", EXAMPLE_CONFIG]);
    const body = initializeBody();
    const { request, response } = openRequest(server.origin, {
      method: "POST",
      path: "/mcp",
      // 100-continue: the server's answer proves it has parsed the headers, so the request is in flight.
      headers: { ...MCP_HEADERS, "Content-Length": String(Buffer.byteLength(body)), Expect: "100-continue" },
    });
    request.flushHeaders();
    await new Promise<void>((resolve) => request.once("continue", () => resolve()));
    // Half the body is on the wire when the signal arrives; the rest follows once the server says it drains.
    request.write(body.slice(0, 20));
    const exited = server.stop("SIGTERM");
    await waitForLog(server.stderr, server.child, "draining");
    request.end(body.slice(20));
    const answer = await response;
    expect(answer.status).toBe(200);
    expect(answer.text).toContain('"protocolVersion":"2025-11-25"');
    expect(await exited).toEqual({ code: 0, signal: null });
    // And nothing new is accepted.
    await expect(send(server.origin, { path: "/health" })).rejects.toThrow();
  });

  it("exits 0 while a 2026-07-28 client holds a subscriptions/listen stream open", async () => {
    const server = await startHttpServer(["--config", EXAMPLE_CONFIG]);
    const client = new Client({ name: "listener", version: "1.0.0" }, ERA_2026.options);
    await client.connect(new StreamableHTTPClientTransport(server.url));
    const subscription = await client.listen({ resourcesListChanged: true });
    expect(subscription.honoredFilter).toMatchObject({ resourcesListChanged: true });
    // A listen stream never completes by itself: draining must end it rather than wait for it forever.
    expect(await server.stop("SIGTERM")).toEqual({ code: 0, signal: null });
    await client.close();
  });
});

describe("SIGTERM on the stdio server", () => {
  it("exits 0", async () => {
    const child = spawn(process.execPath, [CLI, "serve", "--transport", "stdio", "--config", EXAMPLE_CONFIG], {
      cwd: REPO_ROOT,
      env: cleanEnv(),
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once("exit", (code, signal) => resolve({ code, signal })),
    );
    // Serving once it answers a ping; then the signal.
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" })}\n`);
    await new Promise<void>((resolve) => {
      const check = (): void => {
        if (stdout.includes('"id":1')) resolve();
        else child.stdout.once("data", check);
      };
      check();
    });
    child.kill("SIGTERM");
    expect(await exited).toEqual({ code: 0, signal: null });
    expect(stderr).toContain("serving over stdio");
  });
});
