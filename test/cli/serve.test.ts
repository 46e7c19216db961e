// §11 `skillshelf serve` as an operator starts it: settings from SKILLSHELF_* variables, the startup line naming
// the URL, logs on stderr only (text or one JSON object per line), stdout left to the protocol.
import { afterAll, describe, expect, it } from "vitest";
import { send } from "../support/http.js";
import { EXAMPLE_CONFIG, killStragglers, spawnServer } from "../support/process.js";

afterAll(killStragglers);

describe("skillshelf serve", () => {
  it("takes config, transport, host and port from the environment and names its URL on stderr", async () => {
    const server = await spawnServer(["serve"], {
      env: { SKILLSHELF_CONFIG: EXAMPLE_CONFIG, SKILLSHELF_TRANSPORT: "http", SKILLSHELF_HOST: "127.0.0.1", SKILLSHELF_PORT: "0" },
    });
    expect(server.url.pathname).toBe("/mcp");
    expect(server.url.hostname).toBe("127.0.0.1");
    expect(server.port).toBeGreaterThan(0);
    expect((await send(server.origin, { path: "/health" })).status).toBe(200);
    expect(await server.stop()).toEqual({ code: 0, signal: null });
    expect(server.stdout()).toBe("");
  });

  it("defaults to HTTP on 127.0.0.1", async () => {
    const server = await spawnServer(["serve", "--config", EXAMPLE_CONFIG, "--port", "0"]);
    expect(server.url.host).toBe(`127.0.0.1:${server.port}`);
    expect((await send(server.origin, { path: "/health" })).status).toBe(200);
    expect(await server.stop()).toEqual({ code: 0, signal: null });
  });

  it("logs one JSON object per line with --log-format json, and nothing on stdout", async () => {
    const server = await spawnServer(["serve", "--config", EXAMPLE_CONFIG, "--port", "0", "--log-format", "json"]);
    await server.stop();
    const lines = server.stderr().trim().split("\n");
    const records = lines.map((line) => JSON.parse(line) as { level?: unknown; msg?: unknown });
    for (const record of records)
      expect({ level: typeof record.level, msg: typeof record.msg }).toEqual({ level: "string", msg: "string" });
    expect(records.map((record) => record.msg)).toContain(`listening on ${server.url.href}`);
    expect(server.stdout()).toBe("");
  });
});
