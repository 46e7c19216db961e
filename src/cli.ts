#!/usr/bin/env node
// The only file that touches argv, the environment, signals, stdout/stderr and exit codes.
import { writeFile } from "node:fs/promises";
import { statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { format, parseArgs } from "node:util";
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
  type SecretRef,
} from "./config/index.js";
import { ConfigReloads, ContentCache, ReloadableShelf, type ShelfHolder, ShelfLog, ShelfReader, ShelfService } from "./live/index.js";
import { createLogger, type Logger, type LogLevel, VERSION } from "./address/index.js";
import type { Access, AccessHolder, Client, FeedTokens, UsageTap } from "./http/index.js";
import { openLockedEmbedded, openPostgres, UsageStore } from "./store/index.js";
import { PageClient, ResourceServer } from "./oauth/index.js";
import { buildMcpServer, DEFAULT_VIEW, type RequestView, type ServerDeps, SessionRegistry } from "./mcp/index.js";
import { compileScope, scopeOn } from "./resolve/index.js";
import { buildHealth, formatCheckReport, formatSarif, hasProblems, localFolders } from "./health/index.js";
import { cacheDirProblem, defaultCacheDir } from "./sources/index.js";
import { PluginRepos } from "./plugins/index.js";
import { listSetting, readServeSettings, setting as settingOf, sourceOf, UsageError, type Values } from "./settings.js";
import { type CommandSpec, commandNamed, EXIT_CODES, formatCommandHelp, formatOverview, formatUsageHint, parseOptionsOf } from "./usage.js";

function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/** What the operator set for `name`: the flag, else its environment variable. */
function setting(command: CommandSpec, values: Values, name: string): string | undefined {
  return settingOf(command, values, name, process.env);
}

async function readConfig(command: CommandSpec, values: Values, dirs: readonly string[]): Promise<Config> {
  const file = setting(command, values, "config");
  if (file !== undefined && dirs.length > 0) {
    // The config may come from the environment (a container's SKILLSHELF_CONFIG): say which one was given.
    const from = sourceOf(command, values, "config");
    throw new UsageError(
      [
        from === "--config"
          ? "give either --config FILE or directories, not both"
          : `${from} names a config file, and directories were given too: unset ${from} to serve directories, or give no directories`,
      ],
      command,
    );
  }
  // With a config file each plugin and library says its own naming policy.
  const naming = setting(command, values, "naming");
  if (file !== undefined && naming !== undefined)
    throw new UsageError(["--naming applies to directories; a config file sets naming per plugin"], command);
  if (file !== undefined) return loadConfig(file);
  if (dirs.length === 0) throw new UsageError(["give --config FILE (or SKILLSHELF_CONFIG), or one or more skill directories"], command);
  if (naming !== undefined && naming !== "lenient" && naming !== "strict")
    throw new UsageError([`${sourceOf(command, values, "naming")} must be lenient or strict, not '${naming}'`], command);
  // A mistyped directory would otherwise start a server that serves nothing.
  const missing = dirs.filter((dir) => !isDirectory(dir));
  if (missing.length > 0)
    throw new UsageError(
      missing.map((dir) => `'${dir}' is not a directory: give skill directories, or --config FILE`),
      command,
    );
  const result = configFromDirectories(dirs, process.cwd(), (naming ?? "lenient") as Naming);
  if (!result.ok) throw new ConfigInvalidError(result.errors);
  return result.config;
}

/** Where git fetches are cached: --cache-dir, SKILLSHELF_CACHE_DIR, else the user's cache directory. */
function cacheDirOf(command: CommandSpec, values: Values): string {
  return setting(command, values, "cache-dir") ?? defaultCacheDir(process.env, os.homedir());
}

/** The cache directory if it can be written. One given by the operator that cannot is a usage error; the default
 *  that cannot (a service user without a writable home) is one warning, and the server runs without a record:
 *  git clones go to a private temporary directory and local harvests are not recorded. */
async function usableCacheDir(
  command: CommandSpec,
  values: Values,
  dir: string,
  warn: (message: string, fields: Record<string, string>) => void,
): Promise<string | undefined> {
  const problem = await cacheDirProblem(dir);
  if (problem === undefined) return dir;
  if (setting(command, values, "cache-dir") !== undefined) {
    throw new UsageError([`${sourceOf(command, values, "cache-dir")}: the directory ${dir} cannot be written (${problem})`], command);
  }
  warn("cache directory not writable: running without a harvest record; set --cache-dir or SKILLSHELF_CACHE_DIR to a writable directory", {
    path: dir,
    error: problem,
  });
  return undefined;
}

async function runCheck(command: CommandSpec, values: Values, dirs: readonly string[]): Promise<number> {
  const config = await readConfig(command, values, dirs);
  const cacheDir = await usableCacheDir(command, values, cacheDirOf(command, values), (message, fields) =>
    process.stderr.write(`skillshelf check: warning: ${message} (${fields["path"]}: ${fields["error"]})\n`),
  );
  const service = await ShelfService.start(config, () => new Date(), { ...(cacheDir === undefined ? {} : { cacheDir }), env: process.env });
  await service.close();
  const report = buildHealth(service.current);
  process.stdout.write(values["json"] === true ? `${JSON.stringify(report, null, 2)}\n` : formatCheckReport(report));
  const sarif = values["sarif"];
  if (typeof sarif === "string") await writeFile(sarif, formatSarif(service.current, localFolders(config), process.cwd()));
  // A refused credential fails its fetch only, as it does for `serve`; `check` still says so with its own exit code.
  const refused = service.refusedCredentials;
  for (const { fetch, reason } of refused) process.stderr.write(`skillshelf check: fetch ${fetch}: ${reason}\n`);
  if (refused.length > 0) return EXIT_CODES.credential;
  return hasProblems(report) ? EXIT_CODES.problems : EXIT_CODES.ok;
}

async function runServe(command: CommandSpec, values: Values, dirs: readonly string[]): Promise<number> {
  const settings = readServeSettings(command, values, process.env, os.homedir());
  const { transport, host, port } = settings;
  const log = createLogger(
    (line) => process.stderr.write(`${line}\n`),
    settings.logFormat,
    settings.logLevel,
    () => new Date(),
  );
  routeConsole(log);
  // Express and the HTTP face are loaded only to serve HTTP (a stdio server or `check` would pay ~50 ms and ~9 MB
  // for nothing), while the config is read.
  const httpFace = transport === "http" ? import("./http/index.js") : undefined;
  const config = await readConfig(command, values, dirs);
  // Tokens are read before anything is harvested, and so is the address checked: a mistake costs a second, not a
  // cold start's git fetches.
  const clients = transport === "http" ? readClients(config) : [];
  const oauth = transport === "http" ? createResourceServer(config, log) : undefined;
  const page = oauth === undefined ? undefined : createPageClient(oauth);
  const face = httpFace === undefined ? undefined : await httpFace;
  if (face !== undefined) {
    const refusal = face.refuseExposure(host, settings.allowedHosts, settings.allowAnyHost);
    if (refusal !== undefined) throw new UsageError([refusal], command);
    await face.checkListen(host, port);
  }
  const cacheDir = await usableCacheDir(command, values, settings.cacheDir, (message, fields) => log.log("warn", message, fields));
  const metrics = face === undefined ? undefined : new face.ServerMetrics((record) => log.log("debug", "request", { ...record }));
  const access: AccessHolder | undefined =
    face === undefined ? undefined : new face.AccessHolder(accessOf(config, clients, oauth, page, log));
  // Links name a client: its ceiling is the one the config running now gives it, reloads included.
  const feeds = face === undefined || access === undefined ? undefined : createFeeds(config, () => access.current.clients, face);
  const { live, reloads, contents, deps, close } = await openLiveShelf(config, cacheDir, () => readConfig(command, values, dirs), {
    log,
    onRebuilt: (seconds, swapped) => metrics?.observeRebuild(seconds, swapped),
    // A reload takes over anonymous access, its ceiling and the clients (the sections read at start are named by
    // the reloads themselves).
    applyAccess:
      access !== undefined
        ? (next) => {
            const restart: string[] = [];
            const read = readClientsNow(next);
            for (const client of read.unset) {
              restart.push(
                `clients/${client.name} (the environment variable ${client.token.env} that holds its token is not set in the running server's environment; the client is not served)`,
              );
            }
            access.replace(accessOf(next, read.clients, oauth, page, log));
            return restart;
          }
        : () => [],
  });
  if (transport === "stdio") return serveOverStdio(command, values, deps, live.holder, close, log);

  const { serveHttp, isLoopback, RefusalLog, isClientMistake } = face ?? (await import("./http/index.js"));
  // What a client got wrong is a warning, at a bounded rate; only the server's own failures are errors.
  const refusals = new RefusalLog(log);
  const usage = startUsage(config, cacheDir, live.holder, log, face ?? (await import("./http/index.js")));
  // The holder is the same for every config the server serves: a reload publishes into it.
  const serving = await serveHttp(live.holder, deps, {
    host,
    port,
    drainMs: settings.drainMs,
    log,
    ...(settings.sessions === undefined ? {} : { sessions: { ...settings.sessions, log } }),
    allowedHosts: settings.allowedHosts,
    allowedOrigins: settings.allowedOrigins,
    allowAnyHost: settings.allowAnyHost,
    ...(metrics === undefined ? {} : { metrics }),
    cacheStats: contents.stats,
    // The plugins' git repositories live in the cache directory (os.tmpdir() when there is none): made again on demand.
    pluginRepos: new PluginRepos({
      dir: path.join(cacheDir ?? os.tmpdir(), cacheDir === undefined ? `skillshelf-plugins-${process.pid}` : "plugin-repos"),
    }),
    access: access ?? accessOf(config, clients, oauth, page, log),
    ...(feeds === undefined ? {} : { feeds }),
    ...(usage === undefined ? {} : { usage }),
    // POST /reindex reads the config file again first, like SIGHUP.
    reindex: async () => {
      await reloads.reload("POST /reindex");
      return live.reindex();
    },
    configErrors: () => reloads.errors,
    configRestart: () => reloads.restartNeeded,
    onError: (error) => (isClientMistake(error) ? refusals.warn(`request refused: ${(error as Error).message}`) : logError(log, error)),
    onRefused: (reason, fields) => refusals.warn(`request refused: ${reason}`, fields),
  }).catch(async (error: unknown) => {
    await usage?.store.close();
    await close();
    throw error;
  });
  // Signals are handled before the startup line: a supervisor may signal the moment it sees it.
  const stopped = serving.closed
    .then(() => usage?.store.close())
    .then(close)
    .then(() => {
      log.log("info", "stopped");
      return EXIT_CODES.ok;
    });
  process.on("SIGTERM", () => serving.stop());
  process.on("SIGINT", () => serving.stop());
  if (settings.allowAnyHost && settings.allowedHosts.length === 0 && !isLoopback(host)) {
    log.log("warn", "any Host header is accepted (--allow-any-host): put the server behind a proxy that checks it");
  }
  log.log("info", `listening on ${serving.url}`);
  return stopped;
}

/** The live shelf of a server: a restart serves the recorded local harvests at once and verifies them against the
 *  disk next; the config file is read again on SIGHUP, on POST /reindex and when the file changes
 *  (docs/operations.md); `close` undoes all of it. */
async function openLiveShelf(
  config: Config,
  cacheDir: string | undefined,
  reread: () => Promise<Config>,
  options: {
    readonly log: Logger;
    readonly onRebuilt: (seconds: number, swapped: boolean) => void;
    /** Takes a reloaded config's access over; answers what needs a restart. */
    readonly applyAccess: (next: Config) => readonly string[];
  },
) {
  const { log } = options;
  const shelfLog = new ShelfLog(log, () => live.holder.current);
  // Reads and rebuilds share the cache: a rebuild holds what it read of a changed file, so a read answers with the
  // published version while the file is already being rewritten again.
  const contents = new ContentCache();
  const live = await ReloadableShelf.start(config, () => new Date(), {
    contents,
    ...(cacheDir === undefined ? {} : { cacheDir }),
    env: process.env,
    log,
    fromRecord: true,
    onRebuilt: (seconds, swapped) => {
      options.onRebuilt(seconds, swapped);
      shelfLog.rebuilt(seconds, swapped);
    },
  });
  let ttlMs = config.ttlMs;
  const reloads = new ConfigReloads(config, reread, live, log, (next) => {
    ttlMs = next.ttlMs;
    return options.applyAccess(next);
  });
  const onHangup = (): void => void reloads.reload("SIGHUP");
  process.on("SIGHUP", onHangup);
  shelfLog.follow(live.holder);
  const deps: ServerDeps = {
    shelf: new ShelfReader(live.holder, contents, live),
    version: VERSION,
    // A reload changes the cache hint of the next answers.
    get ttlMs() {
      return ttlMs;
    },
    onWarning: (path: string, message: string) => log.log("warn", message, { path }),
  };
  const close = async (): Promise<void> => {
    process.off("SIGHUP", onHangup);
    reloads.stop();
    await live.close();
  };
  return { live, reloads, contents, deps, close };
}

/** Who may read what over HTTP: the static clients, anonymous callers, and users signed in with the configured
 *  issuer (each refused token logged at debug with its subject and client id, never the token). */
function accessOf(
  config: Config,
  clients: readonly Client[],
  oauth: ResourceServer | undefined,
  page: PageClient | undefined,
  log: Logger,
): Access {
  return {
    clients,
    anonymous: config.anonymous,
    ...(config.anonymousScope === undefined ? {} : { anonymousScope: config.anonymousScope }),
    ...(oauth === undefined
      ? {}
      : {
          oauth,
          ...(page === undefined ? {} : { page }),
          onTokenRefused: (refusal) =>
            log.log("debug", `token refused: ${refusal.description}`, {
              error: refusal.error,
              subject: refusal.subject ?? null,
              clientId: refusal.clientId ?? null,
            }),
        }),
  };
}

/** Usage counting (`usage` in the config): PostgreSQL when `usage.database` names its URL's variable, else the
 *  embedded database under the cache directory (none without one: named in the log). The database is opened in the
 *  background; nothing waits for it. */
function startUsage(
  config: Config,
  cacheDir: string | undefined,
  holder: ShelfHolder,
  log: Logger,
  face: typeof import("./http/index.js"),
): UsageTap | undefined {
  const usage = config.usage;
  if (usage === undefined) return undefined;
  const url = readSecret(usage.database, "usage.database", "the PostgreSQL URL");
  if (url === undefined && cacheDir === undefined) {
    log.log("warn", "usage counting off: the embedded database needs a writable cache directory (or set usage.database)");
    return undefined;
  }
  const alive = (pid: number): boolean => {
    try {
      process.kill(pid, 0);
      return true;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === "EPERM";
    }
  };
  const store = new UsageStore({
    backend: url === undefined ? "embedded" : "postgresql",
    open: () => (url === undefined ? openLockedEmbedded(path.join(cacheDir as string, "usage"), process.pid, alive) : openPostgres(url)),
    now: () => new Date(),
    flushMs: usage.flushMs,
    buffer: usage.buffer,
    retentionMs: usage.retentionMs,
    onChange: (level, message, fields) => log.log(level, message, fields),
  });
  store.start();
  return new face.UsageTap({ store, shelf: () => holder.current, claim: usage.claim, now: () => new Date() });
}

/** Over stdio there is no token: the flags set the ceiling, refused at startup like a bad argument. Resolves with the
 *  exit code once the client hangs up or a signal asks. */
async function serveOverStdio(
  command: CommandSpec,
  values: Values,
  deps: ServerDeps,
  holder: ShelfHolder,
  close: () => Promise<void>,
  log: Logger,
): Promise<number> {
  const ceiling = {
    ...(typeof values["library"] === "string" ? { library: values["library"] } : {}),
    categories: listSetting(command, values, "categories", process.env),
    tags: listSetting(command, values, "tags", process.env),
  };
  // Refused at startup against the first shelf; each connection then compiles it against the shelf it reads.
  const compiled = compileScope(holder.current, null, ceiling);
  if (!compiled.ok) throw new UsageError([compiled.message], command);
  const view: RequestView = { ...DEFAULT_VIEW, scopeOn: scopeOn(null, ceiling), personal: compiled.scope.key !== "*" };
  const sessions = new SessionRegistry();
  holder.onSwap((next, previous) => void sessions.announce(previous, next));
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
        .then(close)
        .then(() => resolve(EXIT_CODES.ok));
    process.once("SIGTERM", stop);
    process.once("SIGINT", stop);
    process.stdin.once("end", stop);
  });
  log.log("info", "serving over stdio");
  return stopped;
}

/** Tokens come from the environment when the server starts; every unset one is named (its variable, never a
 *  value), all at once. */
function readClients(config: Config): Client[] {
  const { clients, unset } = readClientsNow(config);
  if (unset.length > 0) {
    throw new UsageError(
      unset.map((client) => `client '${client.name}': the environment variable ${client.token.env} that holds its token is not set`),
    );
  }
  return clients;
}

/** The clients whose token variable is set in this process's environment, and those whose is not. */
function readClientsNow(config: Config): { clients: Client[]; unset: Config["clients"] } {
  const unset = config.clients.filter((client) => (process.env[client.token.env] ?? "") === "");
  const clients = config.clients
    .filter((client) => !unset.includes(client))
    .map((client) => ({ name: client.name, token: process.env[client.token.env] as string, scope: client.scope, admin: client.admin }));
  return { clients, unset };
}

/** The one reader of secrets: a variable the config names and the environment leaves unset (or empty) stops the
 *  start, named, never a value. */
function readSecret(ref: SecretRef | undefined, where: string, what: string): string | undefined {
  if (ref === undefined) return undefined;
  const value = process.env[ref.env] ?? "";
  if (value === "") throw new UsageError([`${where}: the environment variable ${ref.env} that holds ${what} is not set`]);
  return value;
}

/** Install links (`feeds`): their secret is read like a token, and must be long enough to sign with. */
function createFeeds(
  config: Config,
  clients: readonly Pick<Client, "name" | "scope">[] | (() => readonly Pick<Client, "name" | "scope">[]),
  face: typeof import("./http/index.js"),
): FeedTokens | undefined {
  const feeds = config.feeds;
  if (feeds === undefined) return undefined;
  const secret = Buffer.from(readSecret(feeds.secret, "feeds", "the secret that signs install links") as string, "utf8");
  if (secret.byteLength < face.MIN_FEED_SECRET_BYTES) {
    throw new UsageError([
      `feeds: the secret in ${feeds.secret.env} is ${secret.byteLength} bytes; it must be at least ${face.MIN_FEED_SECRET_BYTES} (openssl rand -base64 48 makes one)`,
    ]);
  }
  return new face.FeedTokens({ secret, lifetimeSeconds: Math.floor(feeds.lifetimeMs / 1000), revoked: new Set(feeds.revoked) }, clients);
}

/** Signing in with the config's issuer: its introspection secret is read here (an unset variable stops the start,
 *  named, never a value), and its metadata and keys are read in the background from now on. */
function createResourceServer(config: Config, log: Logger): ResourceServer | undefined {
  const oauth = config.oauth;
  if (oauth === undefined) return undefined;
  const secret = readSecret(oauth.introspection?.clientSecret, "oauth.introspection", "its client secret");
  const server = new ResourceServer(oauth, {
    ...(secret === undefined ? {} : { introspectionSecret: secret }),
    onChange: (level, message, fields) => log.log(level, message, fields),
  });
  void server.start();
  return server;
}

/** The page's client of the issuer (`oauth.page`): its secret is read here, like the introspection secret. */
function createPageClient(server: ResourceServer): PageClient | undefined {
  const page = server.config.page;
  if (page === undefined) return undefined;
  const secret = readSecret(page.clientSecret, "oauth.page", "its client secret");
  return new PageClient(server, secret === undefined ? {} : { clientSecret: secret });
}

/** The SDK and libraries write to the console; their lines go through the logger, in its format, on stderr (over
 *  stdio, stdout belongs to the protocol). */
function routeConsole(log: Logger): void {
  const to =
    (level: LogLevel) =>
    (...args: unknown[]): void =>
      log.log(level, format(...args));
  console.error = to("error");
  console.warn = to("warn");
  console.log = to("info");
  console.info = to("info");
  console.debug = to("debug");
}

function logError(log: Logger, error: unknown): void {
  log.log("error", error instanceof Error ? error.message : String(error));
}

/** `help`, `--help`, `--version`, or a command with its flags. Help goes to stdout, errors to stderr. */
async function main(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === "--version" || name === "-V") {
    process.stdout.write(`skillshelf ${VERSION}\n`);
    return EXIT_CODES.ok;
  }
  if (name === undefined || name === "--help" || name === "-h") {
    (name === undefined ? process.stderr : process.stdout).write(formatOverview());
    return name === undefined ? EXIT_CODES.usage : EXIT_CODES.ok;
  }
  const command = commandNamed(name);
  if (command === undefined) {
    process.stderr.write(`skillshelf: unknown command '${name}'\n${formatUsageHint(undefined)}`);
    return EXIT_CODES.usage;
  }
  let parsed;
  try {
    parsed = parseArgs({ args: [...rest], options: parseOptionsOf(command), allowPositionals: true, strict: true });
  } catch (error) {
    process.stderr.write(`skillshelf ${command.name}: ${(error as Error).message}\n${formatUsageHint(command)}`);
    return EXIT_CODES.usage;
  }
  const values = parsed.values as Values;
  if (values["help"] === true) {
    process.stdout.write(formatCommandHelp(command));
    return EXIT_CODES.ok;
  }
  try {
    switch (command.name) {
      case "help":
        return runHelp(parsed.positionals);
      case "schema":
        if (parsed.positionals.length > 0) throw new UsageError([`unexpected argument '${parsed.positionals[0]}'`], command);
        process.stdout.write(formatSchema());
        return EXIT_CODES.ok;
      case "check":
        return await runCheck(command, values, parsed.positionals);
      case "link":
        return await runLink(command, values, parsed.positionals);
      default:
        return await runServe(command, values, parsed.positionals);
    }
  } catch (error) {
    if (error instanceof ConfigInvalidError) {
      process.stderr.write(`${formatConfigErrors(error.errors)}\n`);
      return EXIT_CODES.usage;
    }
    if (error instanceof UsageError) {
      const prefix = `skillshelf ${command.name}: `;
      process.stderr.write(`${error.problems.map((problem) => prefix + problem).join("\n")}\n${formatUsageHint(error.command)}`);
      return EXIT_CODES.usage;
    }
    if (error instanceof Error && error.name === "ListenError") {
      process.stderr.write(`skillshelf: ${error.message}\n`);
      return EXIT_CODES.listen;
    }
    throw error;
  }
}

/** `link`: an install link for a configured client, signed with the feeds secret; nothing is harvested. */
async function runLink(command: CommandSpec, values: Values, positionals: readonly string[]): Promise<number> {
  if (positionals.length > 0) throw new UsageError([`unexpected argument '${positionals[0]}'`], command);
  const name = values["client"];
  const base = values["url"];
  if (typeof name !== "string" || typeof base !== "string") throw new UsageError(["give --client NAME and --url URL"], command);
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new UsageError([`--url '${base}' is not an absolute URL (https://skills.example.com)`], command);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw new UsageError([`--url must be http or https, not ${url.protocol}`], command);
  const config = await readConfig(command, values, []);
  const client = config.clients.find((candidate) => candidate.name === name);
  if (client === undefined) {
    const known = config.clients.map((candidate) => candidate.name).join(", ");
    throw new UsageError(
      [`no client '${name}' in the config${known === "" ? " (it declares none)" : ` (its clients: ${known})`}`],
      command,
    );
  }
  const feeds = createFeeds(config, [client], await import("./http/index.js"));
  if (feeds === undefined) throw new UsageError(["the config has no feeds key: add feeds.secret to issue install links"], command);
  const issued = await feeds.issue({ name: client.name, scope: client.scope, user: false });
  const link = `${url.origin}${url.pathname.replace(/\/+$/, "")}/feeds/${issued.token}`;
  process.stdout.write(`${link}\nid: ${issued.id}\nexpires: ${issued.expires.toISOString()}\n`);
  return EXIT_CODES.ok;
}

function runHelp(topics: readonly string[]): number {
  if (topics.length === 0) {
    process.stdout.write(formatOverview());
    return EXIT_CODES.ok;
  }
  const command = topics.length === 1 ? commandNamed(topics[0] as string) : undefined;
  if (command === undefined) {
    process.stderr.write(`skillshelf help: no command '${topics.join(" ")}'\n${formatUsageHint(undefined)}`);
    return EXIT_CODES.usage;
  }
  process.stdout.write(formatCommandHelp(command));
  return EXIT_CODES.ok;
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
    process.exit(EXIT_CODES.internal);
  },
);
