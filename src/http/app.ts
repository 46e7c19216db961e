// The HTTP face: /mcp (2026-07-28 stateless; 2025-era sessions unless stateless), the operator's /health and
// /reindex, /openapi.yaml and a server-rendered page for people at / (web/). Host and Origin are validated on every
// route; bodies are size-limited.
import { createMcpExpressApp } from "@modelcontextprotocol/express";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { createMcpHandler, type McpHttpHandler } from "@modelcontextprotocol/server";
import type { Express, Request } from "express";
import type { ShelfHolder } from "../live/index.js";
import {
  buildMcpServer,
  CONNECTION_METHODS,
  DEFAULT_VIEW,
  handledMethods,
  parseRequestSettings,
  type RequestView,
  type ServerDeps,
} from "../mcp/index.js";
import { compileScope, scopeOn } from "../resolve/index.js";
import { type Access, AccessHolder, accessHolderOf, authenticate, callerOf, formatAuthInfo, grantLabel, requireAdmin } from "./access.js";
import { buildHealth, httpStatusOf } from "../health/index.js";
import { formatOpenApi } from "./openapi.js";
import { InFlight } from "./in-flight.js";
import { mountWeb } from "./web.js";
import { Readiness, withProbes } from "./probes.js";
import {
  acceptAbsoluteForm,
  answerErrors,
  answerNotFound,
  limitNesting,
  MAX_JSON_DEPTH,
  type OnRefused,
  refuseMethods,
} from "./bad-requests.js";
import { guardStateChanges } from "./exposure.js";
import { routeResourceMetadata } from "./resource-metadata.js";
import type { ServerMetrics } from "./metrics.js";
import { formatOriginName, headerLines, headersOf, isListenRequest, refuseRequest } from "./mcp-request.js";
import type { ConfigError } from "../config/index.js";
import { type LegacySessions, openSessions, type SessionOptions } from "./sessions.js";
import { ScopedListens } from "./listens.js";
import { routeDiscovery } from "./discovery.js";
import type { FeedTokens } from "./feeds.js";
import { Discovery } from "../discovery/index.js";
import { defaultPluginRepos, routePlugins, type PluginLimits } from "./plugins.js";
import type { PluginRepos } from "../plugins/index.js";
import type { UsageTap } from "./usage.js";
import { registerUsageMetrics } from "./usage-metrics.js";

export interface HttpOptions {
  readonly host: string;
  /** Extra Host header names to accept (beyond localhost names when bound to localhost). */
  readonly allowedHosts?: readonly string[];
  readonly allowedOrigins?: readonly string[];
  /** Bound beyond loopback without --allowed-hosts: any Host header is accepted, on purpose (--allow-any-host). */
  readonly allowAnyHost?: boolean;
  /** Largest accepted request body, in express's notation (`64kb`). */
  readonly bodyLimit?: string;
  /** Rebuild every fetch now; answers the fetch keys rebuilt. */
  readonly reindex: () => Promise<string[]>;
  /** Unexpected failures are logged here, never sent to the client. */
  readonly onError: (error: unknown) => void;
  /** What the last failed reload of the config file found wrong: shown on /health while the shelf keeps serving. */
  readonly configErrors?: () => readonly ConfigError[];
  /** Requests refused before MCP processing (unreadable body, too deep, unknown route), one line each. */
  readonly onRefused?: OnRefused;
  /** Who may read what: fixed, or a holder a config reload replaces it in (every request reads the current one). */
  readonly access: Access | AccessHolder;
  /** Parts of the config file the running server could not take over at the last reload (each needs a restart):
   *  /health says so. */
  readonly configRestart?: () => readonly string[];
  /** Served at GET /metrics (admin-only when clients are declared) and fed by every request. */
  readonly metrics?: ServerMetrics;
  /** The discovery index's caches (one per server); absent: a new one with the default bounds. */
  readonly discovery?: Discovery;
  /** Personal install links (`/feeds/<token>/…`); absent: none is valid. */
  readonly feeds?: FeedTokens;
  /** The plugins' git repositories (in the cache directory); absent: below the system's temporary folder. */
  readonly pluginRepos?: PluginRepos;
  /** Bounds on pack generation; absent: the defaults. */
  readonly pluginLimits?: PluginLimits;
  /** 2025-era sessions (`Mcp-Session-Id`, the GET stream, change notifications); absent: stateless. */
  readonly sessions?: SessionOptions;
  /** Usage counting (docs/usage.md): every surface reports what it serves; absent: nothing is counted. */
  readonly usage?: UsageTap;
}

const DEFAULT_BODY_LIMIT = "256kb";
const LOCAL_HOSTS = new Set(["127.0.0.1", "localhost", "::1"]);

export interface HttpApp {
  readonly app: Express;
  /** The routes below the probes (which `app` mounts): what the metrics must have a label for. */
  readonly routes: Express;
  readonly mcp: McpHttpHandler;
  /** Count the server's requests with `inFlight.track` so a drain can wait for them. */
  readonly inFlight: InFlight;
  /** GET /readyz answers 200 once marked ready, 503 again once marked draining. */
  readonly readiness: Readiness;
  /** The 2025-era sessions, unless the app is stateless: announce rebuilds to them, close them on shutdown. */
  readonly sessions: LegacySessions | undefined;
  /** The 2026-07-28 listen streams, by scope: announce rebuilds to them, end them on shutdown. */
  readonly listens: ScopedListens;
}

export function createHttpApp(holder: ShelfHolder, deps: ServerDeps, options: HttpOptions): HttpApp {
  const app = createGuardedApp(options);
  const onRefused = options.onRefused ?? (() => undefined);
  const access = accessHolderOf(options.access);
  // The issuer is the one of the start: a reload never adds or removes it.
  const oauth = access.current.oauth;
  if (oauth !== undefined) routeResourceMetadata(app, oauth);
  routeDiscovery(app, {
    shelf: deps.shelf,
    discovery: options.discovery ?? new Discovery(),
    authenticate: authenticate(access),
    ceilingOf: (req) => callerOf(req)?.scope ?? access.current.anonymousScope ?? null,
    ...(options.feeds === undefined ? {} : { feeds: options.feeds }),
    ...(options.usage === undefined
      ? {}
      : { onArtifact: options.usage.artifactCounter(access.current.clients.map((client) => client.name)) }),
  });
  routePlugins(app, {
    shelf: deps.shelf,
    access,
    repos: options.pluginRepos ?? defaultPluginRepos(),
    onError: options.onError,
    ...(options.pluginLimits === undefined ? {} : { limits: options.pluginLimits }),
    ...(options.feeds === undefined ? {} : { feeds: options.feeds }),
  });
  mountWeb(app, deps, {
    ...(options.usage === undefined ? {} : { usage: options.usage }),
    access,
    configErrors: options.configErrors,
    onRefused,
    ...(options.feeds === undefined ? {} : { feeds: options.feeds }),
  });
  app.use(authenticate(access));
  app.use(limitNesting(MAX_JSON_DEPTH, onRefused));
  const { mcp, inFlight, sessions, listens } = routeMcp(app, holder, deps, options, access);
  // A reload that changes what a caller may see closes the sessions and streams it opened under the old grant: the
  // client opens them again under the new one.
  access.onReplace((next) => {
    sessions?.regrant((caller) => grantLabel(next, caller));
    listens.regrant((caller) => grantLabel(next, caller));
  });
  routeOperator(app, holder, deps, options, access);
  // Everything else, and every error (body-parser's included), answers JSON-RPC-shaped JSON, never an HTML page.
  app.use(answerNotFound(onRefused));
  app.use(answerErrors(options.bodyLimit ?? DEFAULT_BODY_LIMIT, onRefused, options.onError));
  const readiness = new Readiness();
  return {
    app: withProbes(app, readiness, options.metrics?.track, acceptAbsoluteForm(onRefused)),
    routes: app,
    mcp,
    inFlight,
    readiness,
    sessions,
    listens,
  };
}

/** The express app with the SDK's Host and Origin checks, our Origin check on every state change, a body limit. */
function createGuardedApp(options: HttpOptions): Express {
  const local = LOCAL_HOSTS.has(options.host);
  const localNames = local ? ["localhost", "127.0.0.1", "[::1]"] : [];
  const origins = options.allowedOrigins?.map(formatOriginName);
  // Bound to localhost: localhost names plus whatever the operator adds. Bound elsewhere: only what the operator names.
  const allowedHosts = options.allowedHosts && options.allowedHosts.length > 0 ? [...localNames, ...options.allowedHosts] : undefined;
  const allowedOrigins = origins && origins.length > 0 ? [...localNames, ...origins] : undefined;
  const app = createMcpExpressApp({
    // The SDK writes a console warning for 0.0.0.0 or :: without allowedHosts; --allow-any-host is that choice
    // made on purpose, and the CLI logs it once through its own logger.
    host: options.allowAnyHost === true ? "any" : options.host,
    ...(allowedHosts === undefined ? {} : { allowedHosts }),
    ...(allowedOrigins === undefined ? {} : { allowedOrigins }),
    jsonLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
  });
  app.disable("x-powered-by");
  app.use(guardStateChanges(allowedOrigins ?? localNames));
  return app;
}

/** /mcp (both eras): the request's scope is refused or compiled here and rides to the server factory, or to the
 *  2025-era session it opens. */
function routeMcp(
  app: Express,
  holder: ShelfHolder,
  deps: ServerDeps,
  options: HttpOptions,
  access: AccessHolder,
): Omit<HttpApp, "app" | "routes" | "readiness"> {
  // The view was compiled by the route below and rides in the SDK's auth pass-through to the factory.
  const createHandler = (): McpHttpHandler =>
    createMcpHandler((ctx) => buildMcpServer(deps, (ctx.authInfo?.extra?.["view"] as RequestView | undefined) ?? DEFAULT_VIEW, ctx.era), {
      onerror: options.onError,
    });
  const mcp = createHandler();
  const handleMcp = toNodeHandler(mcp, { onerror: options.onError });
  const listens = new ScopedListens(createHandler, options.onError);
  if (options.metrics !== undefined) {
    listens.register(options.metrics.registry);
    // The labels are what the servers answer, in either era: a method added to the server is counted by name.
    const eras = (["legacy", "modern"] as const).map((era) => handledMethods(buildMcpServer(deps, DEFAULT_VIEW, era)));
    options.metrics.labelMethods([...eras.flat(), ...CONNECTION_METHODS]);
    const usage = options.usage;
    if (usage !== undefined) registerUsageMetrics(options.metrics.registry, usage.totals, () => usage.status());
  }
  const inFlight = new InFlight();
  const sessions = openSessions(deps, options);
  app.all("/mcp", refuseMethods(options.onRefused ?? (() => undefined)), (req, res) => {
    // Streams (subscriptions/listen, a session's GET) never finish by themselves: a drain does not wait for them.
    if (isListenRequest(req.body) || req.method === "GET") inFlight.exclude(res);
    const caller = callerOf(req);
    const settings = parseRequestSettings(
      new URL(req.originalUrl, "http://localhost").searchParams,
      headersOf(req),
      headerLines(req, "x-skill-tags"),
    );
    // Refused against the shelf the request arrives on; every step of the request then compiles the same scope
    // against the shelf it reads, so a rebuild mid-request never applies one shelf's scope to another.
    const granted = access.current;
    const ceiling = caller?.scope ?? granted.anonymousScope ?? null;
    const compiled = compileScope(holder.current, ceiling, settings.scope);
    if (!compiled.ok) return refuseRequest(req, res, compiled.message);
    const view: RequestView = {
      scopeOn: scopeOn(ceiling, settings.scope),
      fullListing: settings.fullListing,
      resourceTools: settings.resourceTools,
      promptTools: settings.promptTools,
      personal: caller !== null || compiled.scope.key !== "*",
      ...(options.usage === undefined ? {} : { onUse: options.usage.counter(caller) }),
    };
    (req as Request & { auth?: unknown }).auth = formatAuthInfo(caller, { view });
    const grant = { caller, label: grantLabel(granted, caller) };
    if (isListenRequest(req.body)) return listens.serve(compiled.scope.key, view.scopeOn, req, res, grant);
    const stateless = (): void => void handleMcp(req, res, req.body);
    if (sessions === undefined) return stateless();
    void sessions.serve(req, res, view, stateless, grant);
  });
  return { mcp, inFlight, sessions, listens };
}

/** The operator's routes: /health, /reindex, /metrics and /openapi.yaml (the page is mounted by mountWeb). */
function routeOperator(app: Express, holder: ShelfHolder, deps: ServerDeps, options: HttpOptions, access: AccessHolder): void {
  const admin = requireAdmin(access);
  app.get("/health", admin, (_req, res) => {
    const report = buildHealth(holder.current);
    const configErrors = options.configErrors?.() ?? [];
    const restart = options.configRestart?.() ?? [];
    const oauth = access.current.oauth?.state();
    res.status(httpStatusOf(report.status)).json({
      ...report,
      ...(configErrors.length === 0 && restart.length === 0
        ? {}
        : {
            config: {
              ...(configErrors.length === 0 ? {} : { errors: configErrors }),
              // The file asks for what the running server cannot take over without a restart: it runs on the old.
              ...(restart.length === 0 ? {} : { matchesFile: false, restartNeeded: restart }),
            },
          }),
      ...(oauth === undefined ? {} : { oauth }),
      ...(options.usage === undefined ? {} : { usage: options.usage.status() }),
    });
  });
  options.usage?.route(app, admin);
  app.post("/reindex", admin, async (_req, res) => {
    try {
      const rebuilt = await options.reindex();
      res.json({ ...buildHealth(holder.current), rebuilt });
    } catch (error) {
      options.onError(error);
      res.status(500).json({ error: "reindex failed; the server log has the details" });
    }
  });
  if (options.metrics !== undefined) app.get("/metrics", admin, options.metrics.handler);
  app.get("/openapi.yaml", (_req, res) => {
    res.type("application/yaml").send(formatOpenApi(deps.version));
  });
}
