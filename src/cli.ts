#!/usr/bin/env node
// The only file that touches argv, the environment, signals, stdout/stderr and exit codes.
import type { Server as HttpServer, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import { parseArgs } from "node:util";
import v8 from "node:v8";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import {
  type Config,
  configFromDirectories,
  ConfigInvalidError,
  formatConfigErrors,
  formatSchema,
  loadConfig,
  type Naming,
} from "./config/index.js";
import { ContentCache, CredentialRefusedError, ShelfReader, ShelfService, startLiveShelf } from "./live/index.js";
import { createLogger, LOG_LEVELS, type LogFormat, type Logger, type LogLevel, VERSION } from "./address/index.js";
import type { Client } from "./http/index.js";
import { announceOverHttp, buildMcpServer, DEFAULT_VIEW, type RequestView, SessionRegistry } from "./mcp/index.js";
import { compileScope, scopeOn } from "./resolve/index.js";
import { buildHealth, formatCheckReport, hasProblems } from "./health/index.js";
import { defaultCacheDir } from "./sources/index.js";

const EXIT_OK = 0;
const EXIT_PROBLEMS = 1;
const EXIT_USAGE = 2;
/** How long SIGTERM waits for requests in flight before it cuts what is left. */
const DRAIN_GRACE_MS = 10_000;
const EXIT_CREDENTIAL = 3;

class UsageError extends Error {}

const USAGE = `Usage:
  skillshelf serve [--config FILE] [DIR… [--naming lenient|strict]] [--transport http|stdio] [--host H] [--port N] [--cache-dir D]
                   [--library L] [--categories C]… [--tags T]… [--allowed-hosts H]… [--allowed-origins O]…
                   [--log-level debug|info|warn|error] [--log-format text|json]
  skillshelf check [--config FILE] [DIR… [--naming lenient|strict]] [--json] [--cache-dir D]
  skillshelf schema`;

const OPTIONS = {
  config: { type: "string" },
  transport: { type: "string" },
  host: { type: "string" },
  port: { type: "string" },
  "cache-dir": { type: "string" },
  library: { type: "string" },
  categories: { type: "string", multiple: true },
  tags: { type: "string", multiple: true },
  "allowed-hosts": { type: "string", multiple: true },
  "allowed-origins": { type: "string", multiple: true },
  "log-level": { type: "string" },
  "log-format": { type: "string" },
  naming: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>["values"];

function setting(
  values: Values,
  flag: "config" | "transport" | "host" | "port" | "cache-dir" | "log-level",
  env: string,
): string | undefined {
  return values[flag] ?? (process.env[env] === undefined || process.env[env] === "" ? undefined : process.env[env]);
}

function oneOf<T extends string>(name: string, value: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`--${name} must be one of ${allowed.join(", ")} (got '${value}')`);
}

async function readConfig(values: Values, dirs: readonly string[]): Promise<Config> {
  const file = setting(values, "config", "SKILLSHELF_CONFIG");
  if (file !== undefined && dirs.length > 0) throw new UsageError("give either --config FILE or directories, not both");
  // With a config file each plugin and library says its own naming policy.
  if (file !== undefined && values.naming !== undefined)
    throw new UsageError("--naming applies to directories; a config file sets naming per plugin");
  if (file !== undefined) return loadConfig(file);
  if (dirs.length === 0) throw new UsageError("give --config FILE (or SKILLSHELF_CONFIG), or one or more skill directories");
  const naming = oneOf<Naming>("naming", values.naming ?? "lenient", ["lenient", "strict"]);
  const result = configFromDirectories(dirs, process.cwd(), naming);
  if (!result.ok) throw new ConfigInvalidError(result.errors);
  return result.config;
}

/** Where git fetches are cached: --cache-dir, SKILLSHELF_CACHE_DIR, else the user's cache directory. */
function cacheDirOf(values: Values): string {
  return setting(values, "cache-dir", "SKILLSHELF_CACHE_DIR") ?? defaultCacheDir(process.env, os.homedir());
}

async function runCheck(values: Values, dirs: readonly string[]): Promise<number> {
  const config = await readConfig(values, dirs);
  const service = await ShelfService.start(config, () => new Date(), { cacheDir: cacheDirOf(values), env: process.env });
  await service.close();
  const report = buildHealth(service.current);
  process.stdout.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : formatCheckReport(report));
  return hasProblems(report) ? EXIT_PROBLEMS : EXIT_OK;
}

async function runServe(values: Values, dirs: readonly string[]): Promise<number> {
  const transport = oneOf("transport", setting(values, "transport", "SKILLSHELF_TRANSPORT") ?? "http", ["http", "stdio"] as const);
  const logLevel = oneOf("log-level", setting(values, "log-level", "SKILLSHELF_LOG_LEVEL") ?? "info", LOG_LEVELS);
  const logFormat = oneOf<LogFormat>("log-format", values["log-format"] ?? "text", ["text", "json"]);
  const log = createLogger(
    (line) => process.stderr.write(`${line}\n`),
    logFormat,
    logLevel as LogLevel,
    () => new Date(),
  );
  const config = await readConfig(values, dirs);
  // Express and the HTTP face are loaded only to serve HTTP (a stdio server or `check` would pay ~50 ms and ~9 MB
  // for nothing), and while the shelf is built: once it is served, watch setup competes for the event loop.
  const httpFace = transport === "http" ? import("./http/index.js") : undefined;
  // A restart serves the recorded local harvests at once; the live shelf verifies them against the disk next.
  const live = await startLiveShelf(config, () => new Date(), { cacheDir: cacheDirOf(values), env: process.env, log, fromRecord: true });
  const service = live.service;
  service.startRefreshTimers();
  const shelf = service.current;
  // Counted here, not through buildHealth: that would run the citation audit before the first request.
  const skills = [...shelf.libraries.values()].reduce((sum, library) => sum + library.skills.size, 0);
  log.log("info", "shelf built", { generation: shelf.generation, libraries: shelf.libraries.size, skills });
  service.holder.onSwap((next) => log.log("info", "shelf rebuilt", { generation: next.generation }));
  const deps = {
    shelf: new ShelfReader(service.holder, new ContentCache()),
    version: VERSION,
    ttlMs: config.ttlMs,
    onWarning: (path: string, message: string) => log.log("warn", message, { path }),
  };

  if (transport === "stdio") {
    // Over stdio there is no token: the flags set the ceiling, refused at startup like a bad argument.
    const ceiling = {
      ...(values.library === undefined ? {} : { library: values.library }),
      categories: values.categories ?? [],
      tags: values.tags ?? [],
    };
    // Refused at startup against the first shelf; each connection then compiles it against the shelf it reads.
    const compiled = compileScope(service.current, null, ceiling);
    if (!compiled.ok) throw new UsageError(compiled.message);
    const view: RequestView = { ...DEFAULT_VIEW, scopeOn: scopeOn(null, ceiling), personal: compiled.scope.key !== "*" };
    const sessions = new SessionRegistry();
    service.holder.onSwap((next, previous) => void sessions.announce(previous, next));
    const handle = serveStdio(
      (ctx) => {
        const subscriptions = new Set<string>();
        const mcp = buildMcpServer(deps, view, ctx.era, subscriptions);
        sessions.add({ mcp, view, subscriptions });
        return mcp;
      },
      { onerror: (error) => logError(log, error) },
    );
    // Signals are handled before the startup line: a supervisor may signal the moment it sees it.
    const stopped = new Promise<number>((resolve) => {
      const stop = (): void =>
        void handle
          .close()
          .then(() => live.close())
          .then(() => resolve(EXIT_OK));
      process.once("SIGTERM", stop);
      process.once("SIGINT", stop);
      process.stdin.once("end", stop);
    });
    log.log("info", "serving over stdio");
    return stopped;
  }

  const host = setting(values, "host", "SKILLSHELF_HOST") ?? "127.0.0.1";
  const port = parsePort(setting(values, "port", "SKILLSHELF_PORT") ?? "8000");
  const { createHttpApp } = await (httpFace ?? import("./http/index.js"));
  const { app, mcp, inFlight } = createHttpApp(service.holder, deps, {
    host,
    allowedHosts: values["allowed-hosts"] ?? [],
    allowedOrigins: values["allowed-origins"] ?? [],
    access: { clients: readClients(config), anonymous: config.anonymous },
    reindex: () => live.reindex(),
    onError: (error) => logError(log, error),
  });
  const server = await new Promise<HttpServer>((resolve, reject) => {
    const listening = app.listen(port, host, () => resolve(listening));
    listening.on("request", (_req, res: ServerResponse) => inFlight.track(res));
    listening.once("error", reject);
  });
  // 2026-07-28 clients hear of changes on their subscriptions/listen streams; stateless 2025 HTTP cannot.
  service.holder.onSwap((next, previous) => announceOverHttp(mcp.notify, previous, next));
  const address = server.address() as AddressInfo;
  const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
  const stopped = new Promise<number>((resolve) => {
    const stop = (): void => {
      log.log("info", "draining in-flight requests");
      // Stop accepting, end the open subscriptions/listen streams (they never finish by themselves), close idle
      // keep-alive sockets, and let requests in flight finish; whatever still hangs after the grace is cut.
      server.close(() => void live.close().then(() => resolve(EXIT_OK)));
      server.closeIdleConnections();
      void inFlight
        .drained()
        .then(() => mcp.close())
        .then(() => server.closeAllConnections());
      setTimeout(() => server.closeAllConnections(), DRAIN_GRACE_MS).unref();
    };
    process.once("SIGTERM", stop);
    process.once("SIGINT", stop);
  });
  log.log("info", `listening on http://${shownHost}:${address.port}/mcp`);
  return stopped;
}

/** Tokens come from the environment when the server starts; an unset one names its variable, never a value. */
function readClients(config: Config): Client[] {
  return config.clients.map((client) => {
    const token = process.env[client.token.env];
    if (token === undefined || token === "") {
      throw new UsageError(`client '${client.name}': the environment variable ${client.token.env} that holds its token is not set`);
    }
    return { name: client.name, token, scope: client.scope, admin: client.admin };
  });
}

function parsePort(raw: string): number {
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port > 65535) throw new UsageError(`--port must be a number from 0 to 65535 (got '${raw}')`);
  return port;
}

function logError(log: Logger, error: unknown): void {
  log.log("error", error instanceof Error ? error.message : String(error));
}

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === "schema") {
    process.stdout.write(formatSchema());
    return EXIT_OK;
  }
  if (command !== "serve" && command !== "check") {
    process.stderr.write(
      `${command === undefined || command === "--help" || command === "-h" ? "" : `Unknown command: ${command}\n`}${USAGE}\n`,
    );
    return command === "--help" || command === "-h" ? EXIT_OK : EXIT_USAGE;
  }
  let parsed;
  try {
    parsed = parseArgs({ args: [...rest], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
    return EXIT_USAGE;
  }
  if (parsed.values.help) {
    process.stdout.write(`${USAGE}\n`);
    return EXIT_OK;
  }
  try {
    return command === "check" ? await runCheck(parsed.values, parsed.positionals) : await runServe(parsed.values, parsed.positionals);
  } catch (error) {
    if (error instanceof ConfigInvalidError) {
      process.stderr.write(`${formatConfigErrors(error.errors)}\n`);
      return EXIT_USAGE;
    }
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n${USAGE}\n`);
      return EXIT_USAGE;
    }
    if (error instanceof CredentialRefusedError) {
      // The message names the fetch and the reason, never a credential.
      process.stderr.write(`skillshelf: ${error.message}\n`);
      return EXIT_CREDENTIAL;
    }
    throw error;
  }
}

/** V8 lets a busy heap grow to up to 4× what is live before collecting it; a server holding a large shelf then peaks
 *  at several times its size. 1.5× keeps the peak near the live size for a few percent of peak throughput
 *  (docs/operations.md). A `--heap-growing-percent` given to node wins. */
const HEAP_GROWING_PERCENT = 50;

if (!process.execArgv.some((arg) => arg.startsWith("--heap-growing-percent") || arg.startsWith("--heap_growing_percent"))) {
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`skillshelf: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(70);
  },
);
