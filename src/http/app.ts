// The HTTP face: POST /mcp (both eras, stateless), the operator's /health and /reindex, /openapi.yaml and a
// read-only page at /. Host and Origin are validated on every route; bodies are size-limited.
import { createMcpExpressApp } from "@modelcontextprotocol/express";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { createMcpHandler, type McpHttpHandler } from "@modelcontextprotocol/server";
import type { ErrorRequestHandler, Express } from "express";
import type { ShelfHolder } from "../live/holder.js";
import { DEFAULT_VIEW, parseRequestView } from "../mcp/request-view.js";
import { buildMcpServer, type ServerDeps } from "../mcp/server.js";
import { buildHealth } from "../shelf/health.js";
import { formatOpenApi } from "./openapi.js";
import { renderShelfPage } from "./page.js";

export interface HttpOptions {
  readonly host: string;
  /** Extra Host header names to accept (beyond localhost names when bound to localhost). */
  readonly allowedHosts?: readonly string[];
  readonly allowedOrigins?: readonly string[];
  /** Largest accepted request body, in express's notation (`64kb`). */
  readonly bodyLimit?: string;
  /** Rebuild every fetch now; answers the fetch keys rebuilt. */
  readonly reindex: () => Promise<string[]>;
  /** Unexpected failures are logged here, never sent to the client. */
  readonly onError: (error: unknown) => void;
}

export const DEFAULT_BODY_LIMIT = "256kb";
const LOCAL_HOSTS = new Set(["127.0.0.1", "localhost", "::1"]);

export interface HttpApp {
  readonly app: Express;
  readonly mcp: McpHttpHandler;
}

export function createHttpApp(holder: ShelfHolder, deps: ServerDeps, options: HttpOptions): HttpApp {
  const local = LOCAL_HOSTS.has(options.host);
  // Bound to localhost: localhost names plus whatever the operator adds. Bound elsewhere: only what the operator names.
  const allowedHosts = options.allowedHosts && options.allowedHosts.length > 0
    ? [...(local ? ["localhost", "127.0.0.1", "[::1]"] : []), ...options.allowedHosts]
    : undefined;
  const allowedOrigins = options.allowedOrigins && options.allowedOrigins.length > 0
    ? [...(local ? ["localhost", "127.0.0.1", "[::1]"] : []), ...options.allowedOrigins]
    : undefined;
  const app = createMcpExpressApp({
    host: options.host,
    ...(allowedHosts === undefined ? {} : { allowedHosts }),
    ...(allowedOrigins === undefined ? {} : { allowedOrigins }),
    jsonLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
  });
  app.disable("x-powered-by");

  const mcp = createMcpHandler(
    (ctx) => {
      const request = ctx.requestInfo;
      const view = request === undefined ? undefined : parseRequestView(new URL(request.url).searchParams, request.headers);
      return buildMcpServer(deps, view ?? DEFAULT_VIEW, ctx.era);
    },
    { onerror: options.onError },
  );
  const handleMcp = toNodeHandler(mcp, { onerror: options.onError });
  app.all("/mcp", (req, res) => void handleMcp(req, res, req.body));

  app.get("/health", (_req, res) => {
    res.json(buildHealth(holder.current));
  });
  app.post("/reindex", async (_req, res) => {
    try {
      const rebuilt = await options.reindex();
      res.json({ ...buildHealth(holder.current), rebuilt });
    } catch (error) {
      options.onError(error);
      res.status(500).json({ error: "reindex failed; the server log has the details" });
    }
  });
  app.get("/openapi.yaml", (_req, res) => {
    res.type("application/yaml").send(formatOpenApi(deps.version));
  });
  app.get("/", (_req, res) => {
    res.type("text/html").send(renderShelfPage(holder.current, buildHealth(holder.current)));
  });

  // Body-parser failures (too large, malformed JSON) answer JSON-RPC-shaped JSON, never an HTML page.
  const onBodyError: ErrorRequestHandler = (error, _req, res, next) => {
    const status = typeof error === "object" && error !== null && "status" in error ? Number(error.status) : 0;
    if (status === 413) {
      res.status(413).json({ jsonrpc: "2.0", error: { code: -32600, message: `Request body too large (limit ${options.bodyLimit ?? DEFAULT_BODY_LIMIT})` }, id: null });
    } else if (status === 400) {
      res.status(400).json({ jsonrpc: "2.0", error: { code: -32700, message: "Parse error: the body is not valid JSON" }, id: null });
    } else {
      next(error);
    }
  };
  app.use(onBodyError);
  return { app, mcp };
}
