// Safe exposure: a non-loopback --host needs --allowed-hosts or --allow-any-host, and a state-changing request from
// a browser page on another origin is refused on every route (POST /reindex too), whatever the bind address.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { initializeBody, MCP_HEADERS, send } from "../support/http.js";
import { EXAMPLE_CONFIG, killStragglers, runCli, startHttpServer } from "../support/process.js";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "skillshelf-exposure-"));
});
afterAll(() => {
  killStragglers();
  rmSync(dir, { recursive: true, force: true });
});

const REFUSAL =
  "skillshelf serve: --host 0.0.0.0 is reachable from other machines: name the host names clients use with --allowed-hosts " +
  "(SKILLSHELF_ALLOWED_HOSTS), or accept any Host header on purpose with --allow-any-host (SKILLSHELF_ALLOW_ANY_HOST=true)";

describe("binding beyond loopback", () => {
  it.each([["0.0.0.0"], ["::"]])("refuses --host %s without --allowed-hosts or --allow-any-host, before harvesting", async (host) => {
    const cacheDir = path.join(dir, "refused-cache");
    const result = await runCli(["serve", "--config", EXAMPLE_CONFIG, "--host", host, "--port", "0", "--cache-dir", cacheDir]);
    expect({ code: result.code, stdout: result.stdout, first: result.stderr.split("\n")[0] }).toEqual({
      code: 2,
      stdout: "",
      first: REFUSAL.replace("0.0.0.0", host),
    });
    expect(existsSync(cacheDir)).toBe(false);
  });

  it("with --allowed-hosts: only the named Host, and no cross-origin POST on any route", async () => {
    const server = await startHttpServer(["--config", EXAMPLE_CONFIG, "--host", "0.0.0.0", "--allowed-hosts", "tools.example"]);
    try {
      const host = (name: string): Record<string, string> => ({ Host: `${name}:${server.port}` });
      expect((await send(server.origin, { path: "/health", headers: host("tools.example") })).status).toBe(200);
      expect((await send(server.origin, { path: "/health", headers: host("evil.example") })).status).toBe(403);
      const evil = { ...host("tools.example"), Origin: "https://evil.example" };
      expect((await send(server.origin, { method: "POST", path: "/reindex", headers: evil })).status).toBe(403);
      const mcp = await send(server.origin, { method: "POST", path: "/mcp", headers: { ...MCP_HEADERS, ...evil }, body: initializeBody() });
      expect(mcp.status).toBe(403);
      // No Origin: not a browser page; the operator's own POST /reindex passes.
      expect((await send(server.origin, { method: "POST", path: "/reindex", headers: host("tools.example") })).status).toBe(200);
    } finally {
      expect(await server.stop()).toEqual({ code: 0, signal: null });
    }
  });

  it("with --allow-any-host: any Host, a warning in the log (as JSON), and still no cross-origin POST", async () => {
    const server = await startHttpServer(["--config", EXAMPLE_CONFIG, "--host", "0.0.0.0", "--allow-any-host", "--log-format", "json"]);
    try {
      expect((await send(server.origin, { path: "/health", headers: { Host: "anything.example" } })).status).toBe(200);
      const evil = { Host: "anything.example", Origin: "https://evil.example" };
      const reindex = await send(server.origin, { method: "POST", path: "/reindex", headers: evil });
      expect([reindex.status, reindex.text]).toEqual([
        403,
        JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: "Invalid Origin: evil.example" }, id: null }),
      ]);
    } finally {
      await server.stop();
    }
    const records = server
      .stderr()
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { level: string; msg: string });
    // The warning, beside the example shelf's one skipped skill.
    expect(
      records
        .filter((record) => record.level === "warn")
        .map((record) => record.msg)
        .sort(),
    ).toEqual(["any Host header is accepted (--allow-any-host): put the server behind a proxy that checks it", "skipped"]);
  });
});

describe("a loopback server", () => {
  it("refuses a cross-origin POST /reindex", async () => {
    const server = await startHttpServer(["--config", EXAMPLE_CONFIG]);
    try {
      const headers = { Origin: "https://evil.example" };
      expect((await send(server.origin, { method: "POST", path: "/reindex", headers })).status).toBe(403);
      expect(
        (await send(server.origin, { method: "POST", path: "/reindex", headers: { Origin: `http://localhost:${server.port}` } })).status,
      ).toBe(200);
    } finally {
      await server.stop();
    }
  });
});
