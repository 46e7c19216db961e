// The legs of the MCP contract suite: one server definition reached in memory, over a real stdio child of the
// built CLI, over the built CLI's HTTP server, and over the express app listening in this process — each in
// the protocol eras a client can negotiate.
import { ContentCache, ShelfReader } from "../../src/live/index.js";
import { Client, InMemoryTransport, StreamableHTTPClientTransport, type ClientOptions } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { loadConfig } from "../../src/config/index.js";
import { ShelfService } from "../../src/live/shelf-service.js";
import { DEFAULT_VIEW, parseRequestSettings, type RequestView } from "../../src/mcp/request-view.js";
import { buildMcpServer, type ServerDeps } from "../../src/mcp/server.js";
import { serveApp, type ServedApp } from "./http-app.js";
import { CLI, EXAMPLE_CONFIG, REPO_ROOT, assertBuilt, cleanEnv, startHttpServer, type ServerProcess } from "./process.js";

export interface Era {
  /** The protocol revision the connection must end up on. */
  readonly version: string;
  readonly modern: boolean;
  readonly options: ClientOptions;
}

export const ERA_2025: Era = { version: "2025-11-25", modern: false, options: {} };
export const ERA_2025_06: Era = { version: "2025-06-18", modern: false, options: { supportedProtocolVersions: ["2025-06-18"] } };
export const ERA_2025_03: Era = { version: "2025-03-26", modern: false, options: { supportedProtocolVersions: ["2025-03-26"] } };
export const ERA_2026: Era = { version: "2026-07-28", modern: true, options: { versionNegotiation: { mode: { pin: "2026-07-28" } } } };

/** What a request may say about itself (§5.1): query parameters and headers over HTTP, a request view in memory. */
export interface RequestSettings {
  readonly query?: Readonly<Record<string, string>>;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface Transport {
  readonly name: string;
  /** Whether a connection can carry request settings (stdio has no query string and no headers). */
  readonly settings: boolean;
  /** The `ttlMs` the server stamps on cacheable 2026-07-28 results. */
  readonly ttlMs: number;
  start(): Promise<void>;
  connect(era: Era, settings?: RequestSettings): Promise<Client>;
  stop(): Promise<void>;
}

/** The example config's `ttl` is unset: the default 60 s (§8). */
export const EXAMPLE_TTL_MS = 60_000;

const CLIENT_INFO = { name: "skillshelf-contract", version: "1.0.0" };

function newClient(era: Era): Client {
  return new Client(CLIENT_INFO, era.options);
}

/** A fixed clock: the tests never depend on the time of day. */
export const FIXED_NOW = (): Date => new Date("2026-01-01T00:00:00.000Z");

export async function startExampleService(config = EXAMPLE_CONFIG): Promise<ShelfService> {
  return ShelfService.start(await loadConfig(config), FIXED_NOW);
}

/** serveStdio over an InMemoryTransport pair, with buildMcpServer as the factory (the CLI's stdio wiring). */
export function inMemory(config = EXAMPLE_CONFIG): Transport & { service(): ShelfService } {
  let service: ShelfService | undefined;
  const open: { client: Client; close(): Promise<void> }[] = [];
  const current = (): ShelfService => {
    if (service === undefined) throw new Error("start() first");
    return service;
  };
  return {
    name: "in-memory",
    settings: true,
    ttlMs: EXAMPLE_TTL_MS,
    service: current,
    async start() {
      service = await startExampleService(config);
    },
    async connect(era, settings = {}) {
      const deps: ServerDeps = { shelf: new ShelfReader(current().holder, new ContentCache()), version: "test", ttlMs: EXAMPLE_TTL_MS };
      // The listing and tool switches as HTTP would parse them; no scope (the example shelf is served whole).
      const parsed = parseRequestSettings(new URLSearchParams(settings.query), new Headers(settings.headers));
      const view: RequestView = {
        ...DEFAULT_VIEW,
        fullListing: parsed.fullListing,
        resourceTools: parsed.resourceTools,
        promptTools: parsed.promptTools,
      };
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      const handle = serveStdio((ctx) => buildMcpServer(deps, view, ctx.era), { transport: serverSide });
      const client = newClient(era);
      await client.connect(clientSide);
      open.push({ client, close: () => handle.close() });
      return client;
    },
    async stop() {
      for (const { client, close } of open.splice(0)) {
        await client.close();
        await close();
      }
      await service?.close();
    },
  };
}

/** A real child process: `node dist/cli.js serve --transport stdio --config plugins.example.yaml`. */
export function stdioChild(): Transport {
  const open: Client[] = [];
  return {
    name: "stdio",
    settings: false,
    ttlMs: EXAMPLE_TTL_MS,
    async start() {
      assertBuilt();
    },
    async connect(era, settings = {}) {
      if (settings.query !== undefined || settings.headers !== undefined) throw new Error("stdio carries no request settings");
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [CLI, "serve", "--transport", "stdio", "--config", EXAMPLE_CONFIG],
        cwd: REPO_ROOT,
        env: cleanEnv(),
        stderr: "pipe",
      });
      // Drain the server's log so a chatty child can never block on a full pipe.
      transport.stderr?.on("data", () => undefined);
      const client = newClient(era);
      await client.connect(transport);
      open.push(client);
      return client;
    },
    async stop() {
      for (const client of open.splice(0)) await client.close();
    },
  };
}

function httpUrl(base: URL, settings: RequestSettings): URL {
  const url = new URL(base);
  for (const [key, value] of Object.entries(settings.query ?? {})) url.searchParams.append(key, value);
  return url;
}

async function connectHttp(base: URL, era: Era, settings: RequestSettings, open: Client[]): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(httpUrl(base, settings), { requestInit: { headers: { ...settings.headers } } });
  const client = newClient(era);
  await client.connect(transport);
  open.push(client);
  return client;
}

/** The built CLI serving HTTP on port 0; the URL comes from its startup line. */
export function httpChild(args: readonly string[] = ["--config", EXAMPLE_CONFIG]): Transport & { server(): ServerProcess } {
  let server: ServerProcess | undefined;
  const open: Client[] = [];
  const current = (): ServerProcess => {
    if (server === undefined) throw new Error("start() first");
    return server;
  };
  return {
    name: "http (CLI child)",
    settings: true,
    ttlMs: EXAMPLE_TTL_MS,
    server: current,
    async start() {
      server = await startHttpServer(args);
    },
    connect: (era, settings = {}) => connectHttp(current().url, era, settings, open),
    async stop() {
      for (const client of open.splice(0)) await client.close();
      await server?.stop();
    },
  };
}

/** createHttpApp listening on port 0 in this process, over a ShelfService this test can rebuild. */
export function httpInProcess(config = EXAMPLE_CONFIG): Transport & { service(): ShelfService; url(): URL } {
  let service: ShelfService | undefined;
  let served: ServedApp | undefined;
  const open: Client[] = [];
  const errors: unknown[] = [];
  return {
    name: "http (in-process app)",
    settings: true,
    ttlMs: EXAMPLE_TTL_MS,
    service: () => {
      if (service === undefined) throw new Error("start() first");
      return service;
    },
    url: () => {
      if (served === undefined) throw new Error("start() first");
      return served.url;
    },
    async start() {
      service = await startExampleService(config);
      served = await serveApp(service, { version: "test", ttlMs: EXAMPLE_TTL_MS, onError: (error) => errors.push(error) });
    },
    connect(era, settings = {}) {
      if (served === undefined) throw new Error("start() first");
      return connectHttp(served.url, era, settings, open);
    },
    async stop() {
      for (const client of open.splice(0)) await client.close();
      await served?.close();
      await service?.close();
      // Failures the app only logs are still failures.
      if (errors.length > 0) throw new Error(`the HTTP app reported errors: ${errors.map(String).join("; ")}`);
    },
  };
}

export interface Leg {
  readonly name: string;
  readonly era: Era;
  readonly transport: () => Transport;
}

/** transports × eras: every transport in 2025-11-25 and 2026-07-28, plus the older 2025 revisions once each. */
export const LEGS: readonly Leg[] = [
  { name: "in-memory 2025-11-25", era: ERA_2025, transport: () => inMemory() },
  { name: "in-memory 2026-07-28", era: ERA_2026, transport: () => inMemory() },
  { name: "stdio 2025-11-25", era: ERA_2025, transport: stdioChild },
  { name: "stdio 2025-06-18", era: ERA_2025_06, transport: stdioChild },
  { name: "stdio 2026-07-28", era: ERA_2026, transport: stdioChild },
  { name: "http-cli 2025-11-25", era: ERA_2025, transport: () => httpChild() },
  { name: "http-cli 2025-03-26", era: ERA_2025_03, transport: () => httpChild() },
  { name: "http-cli 2026-07-28", era: ERA_2026, transport: () => httpChild() },
  { name: "http-app 2025-06-18", era: ERA_2025_06, transport: () => httpInProcess() },
  { name: "http-app 2026-07-28", era: ERA_2026, transport: () => httpInProcess() },
];
