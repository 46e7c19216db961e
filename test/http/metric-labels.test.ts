// The metrics' label sets derive from what is registered: every method an MCP server of either era answers once a
// transport connects is its own `method` label, and every route of the app has a `route` label other than `other`.
// A method or route added without a label fails here.
import type { Express } from "express";
import { InMemoryTransport } from "@modelcontextprotocol/server";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { loadConfig } from "../../src/config/index.js";
import { createHttpApp } from "../../src/http/app.js";
import { routeLabel, ServerMetrics } from "../../src/http/metrics.js";
import { ContentCache, ShelfReader, ShelfService } from "../../src/live/index.js";
import { buildMcpServer, CONNECTION_METHODS, DEFAULT_VIEW, handledMethods, type ServerDeps } from "../../src/mcp/index.js";
import { writeWebShelf } from "../web/fixture.js";

let service: ShelfService;
let deps: ServerDeps;
let app: Express;
let routes: Express;
const metrics = new ServerMetrics();

beforeAll(async () => {
  service = await ShelfService.start(await loadConfig(writeWebShelf().configPath), () => new Date(0));
  deps = { shelf: new ShelfReader(service.holder, new ContentCache()), version: "0.0.0-test", ttlMs: 0 };
  ({ app, routes } = createHttpApp(service.holder, deps, {
    host: "127.0.0.1",
    access: { clients: [], anonymous: true },
    metrics,
    reindex: () => service.rebuild(),
    onError: () => undefined,
  }));
});
afterAll(() => service.close());

/** The methods a connected server answers: its handler table once a transport is attached. */
async function connectedMethods(era: "legacy" | "modern"): Promise<readonly string[]> {
  const mcp = buildMcpServer(deps, DEFAULT_VIEW, era);
  const [, serverSide] = InMemoryTransport.createLinkedPair();
  await mcp.connect(serverSide);
  const methods = handledMethods(mcp);
  await mcp.close();
  return methods;
}

describe("metric labels", () => {
  test("every method a server answers is its own label, the Skills extension's included", async () => {
    const answered = new Set([...(await connectedMethods("legacy")), ...(await connectedMethods("modern")), ...CONNECTION_METHODS]);
    for (const method of ["skills/list", "skills/get", "resources/directory/read", "tools/call", "initialize"])
      expect(answered).toContain(method);
    for (const method of answered)
      expect({ method, label: metrics.methodLabel({ jsonrpc: "2.0", id: 1, method }) }).toEqual({ method, label: method });
    expect(metrics.methodLabel({ jsonrpc: "2.0", id: 1, method: "made/up" })).toBe("other");
    expect(metrics.methodLabel({ jsonrpc: "2.0", method: "notifications/initialized" })).toBe("notification");
  });

  test("every route of the app has a label", () => {
    const paths: (string | RegExp)[] = [];
    const walk = (
      stack: readonly { route?: { path: string | RegExp }; handle?: { stack?: unknown; router?: { stack?: unknown } } }[],
    ): void => {
      for (const layer of stack) {
        if (layer.route !== undefined) paths.push(layer.route.path);
        const inner = layer.handle?.stack ?? layer.handle?.router?.stack;
        if (Array.isArray(inner)) walk(inner);
      }
    };
    for (const each of [app, routes]) walk((each as unknown as { router: { stack: [] } }).router.stack);
    // Samples a RegExp route is tried on: each must match one of them.
    const samples = [
      "/.well-known/agent-skills/index.json",
      "/feeds/t/libraries/l/.well-known/agent-skills/index.json",
      "/artifacts/l/a/SKILL.md",
      "/feeds/t/artifacts/l/a/skill.tar.gz",
      "/plugins/marketplace.json",
      "/feeds/t/plugins/libraries/l/marketplace.json",
      "/plugins/git/l/p.git/info/refs",
      "/feeds/t/plugins/git/l/p.git/git-upload-pack",
    ];
    expect(paths.length).toBeGreaterThan(15);
    const unmatched: string[] = [];
    const unlabelled: string[] = [];
    for (const route of paths) {
      const concrete =
        typeof route === "string"
          ? [
              route
                .replace(/:[A-Za-z]+/g, "x")
                .replace(/\*[A-Za-z]+/g, "x/y")
                .replace(/\{\/\*[A-Za-z]+\}/g, "/x"),
            ]
          : samples.filter((sample) => route.test(sample));
      if (concrete.length === 0) unmatched.push(String(route));
      for (const path of concrete) if (routeLabel(path) === "other") unlabelled.push(`${String(route)} (${path})`);
    }
    expect({ unmatched, unlabelled }).toEqual({ unmatched: [], unlabelled: [] });
    // A feed link's token is never a label.
    expect(routeLabel("/feeds/secret-token/plugins/git/l/p.git/info/refs")).toBe("/plugins/git");
    expect(routeLabel("/feeds/secret-token/plugins/marketplace.json")).toBe("/plugins/marketplace.json");
  });
});
