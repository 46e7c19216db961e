// `anonymous: {scope}` over the built CLI: requests without a token are served under a ceiling of their own,
// which a request scope can narrow but never widen, while a client's token still carries that client's ceiling.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MCP_HEADERS, send } from "../support/http.js";
import { killStragglers, REPO_ROOT, startHttpServer, type ServerProcess } from "../support/process.js";

afterAll(killStragglers);

const TOKEN = "tok-anon-ceiling-3c9a1e";

function rpcMessage(text: string): { result?: Record<string, unknown>; error?: { code: number; message: string } } {
  const data = /^data: (.*)$/m.exec(text);
  return JSON.parse(data === null ? text : (data[1] as string)) as {
    result?: Record<string, unknown>;
    error?: { code: number; message: string };
  };
}

describe("anonymous callers under a ceiling of their own", () => {
  let server: ServerProcess;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "skillshelf-anon-ceiling-"));
    const config = path.join(dir, "config.yaml");
    writeFileSync(
      config,
      [
        "plugins:",
        `  - {name: eng-kit, source: ${path.join(REPO_ROOT, "examples/engineering-kit")}, category: engineering}`,
        `  - {name: writing-kit, source: ${path.join(REPO_ROOT, "examples/writing-kit")}, category: writing, tags: [public]}`,
        "libraries:",
        "  - {name: engineering, plugins: [eng-kit]}",
        "  - {name: writing, plugins: [writing-kit]}",
        "clients:",
        "  - {name: staff, token: {env: STAFF_TOKEN}}",
        "anonymous: {scope: {tags: [public]}}",
        "",
      ].join("\n"),
    );
    server = await startHttpServer(["--config", config, "--cache-dir", path.join(dir, "cache")], { env: { STAFF_TOKEN: TOKEN } });
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const rpc = async (method: string, params: Record<string, unknown>, headers: Record<string, string> = {}, query = "") => {
    const response = await send(server.origin, {
      method: "POST",
      path: `/mcp${query}`,
      headers: { ...MCP_HEADERS, ...headers },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });
    expect(response.status).toBe(200);
    return rpcMessage(response.text);
  };
  const listUris = async (headers: Record<string, string> = {}) =>
    ((await rpc("resources/list", {}, headers)).result?.["resources"] as { uri: string }[]).map((row) => row.uri);

  it("lists only what the anonymous ceiling admits", async () => {
    expect(await listUris()).toEqual(["skill://writing/_index.md", "skill://writing/release-notes/_index.md"]);
  });

  it("answers a read outside the ceiling as not found, the same as an address that does not exist", async () => {
    const outside = await rpc("resources/read", { uri: "skill://engineering/code-review/SKILL.md" });
    expect(outside.error?.code).toBe(-32602);
    const absent = await rpc("resources/read", { uri: "skill://nowhere/code-review/SKILL.md" });
    expect(absent.error?.code).toBe(-32602);
    expect(outside.error?.message).not.toContain("engineering/_index.md");
    const inside = await rpc("resources/read", { uri: "skill://writing/release-notes/SKILL.md" });
    expect(inside.result?.["contents"]).toEqual([expect.objectContaining({ uri: "skill://writing/release-notes/SKILL.md" })]);
  });

  it("refuses a request scope that would widen the ceiling", async () => {
    const widened = await rpc("resources/list", {}, {}, "?library=engineering");
    // Outside the ceiling is indistinguishable from absent: refused as a name that does not exist.
    expect(widened.error).toEqual({
      code: -32602,
      message: "Scope refused: library 'engineering' does not exist; the libraries are: writing.",
    });
  });

  it("keeps the operator's routes, which show the whole shelf, from callers without a token", async () => {
    expect((await send(server.origin, { path: "/health" })).status).toBe(401);
    expect((await send(server.origin, { method: "POST", path: "/reindex" })).status).toBe(401);
    expect((await send(server.origin, { path: "/status" })).status).toBe(403);
  });

  it("shows the page at / under the anonymous ceiling: the public library only", async () => {
    const page = await send(server.origin, { path: "/" });
    expect(page.status).toBe(200);
    expect(page.text).toContain('<a href="/libraries/writing">writing</a>');
    expect(page.text).not.toContain("engineering");
    expect((await send(server.origin, { path: "/libraries/engineering" })).status).toBe(404);
  });

  it("serves a client with a token under its own ceiling (here: everything)", async () => {
    expect(await listUris({ authorization: `Bearer ${TOKEN}` })).toEqual([
      "skill://engineering/_index.md",
      "skill://engineering/observability/_index.md",
      "skill://writing/_index.md",
      "skill://writing/release-notes/_index.md",
    ]);
  });
});

describe("an anonymous ceiling with no clients declared", () => {
  let server: ServerProcess;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "skillshelf-anon-only-"));
    const config = path.join(dir, "config.yaml");
    writeFileSync(
      config,
      [
        "plugins:",
        `  - {name: eng-kit, source: ${path.join(REPO_ROOT, "examples/engineering-kit")}}`,
        `  - {name: writing-kit, source: ${path.join(REPO_ROOT, "examples/writing-kit")}}`,
        "libraries:",
        "  - {name: engineering, plugins: [eng-kit]}",
        "  - {name: writing, plugins: [writing-kit]}",
        "anonymous: {scope: {library: writing}}",
        "",
      ].join("\n"),
    );
    server = await startHttpServer(["--config", config, "--cache-dir", path.join(dir, "cache")]);
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("does not open /health and the health view to everyone, since they would show the libraries past the ceiling", async () => {
    for (const [route, status] of [
      ["/health", 401],
      ["/status", 403],
      ["/", 200],
    ] as const) {
      const response = await send(server.origin, { path: route });
      expect(response.status).toBe(status);
      expect(response.text).not.toContain("engineering");
    }
  });
});
