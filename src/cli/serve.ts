// `serve`: the live shelf, its reloads and the HTTP face (or stdio) wired from the settings, with the process's
// signals. The HTTP face is loaded only to serve HTTP.
import os from "node:os";
import path from "node:path";
import { type Config } from "../config/index.js";
import { ConfigReloads, ContentCache, ReloadableShelf, type ShelfHolder, ShelfLog, ShelfReader } from "../live/index.js";
import { VERSION } from "../address/index.js";
import { createLogger, type Logger } from "../log/index.js";
import type { Access, AccessHolder, Client, UsageTap } from "../http/index.js";
import type { PageClient, ResourceServer } from "../oauth/index.js";
import type { ServerDeps } from "../mcp/index.js";
import { readServeSettings, UsageError, type Values } from "../settings.js";
import { type CommandSpec, EXIT_CODES } from "../usage.js";
import { readConfig, usableCacheDir } from "./inputs.js";
import { logError, routeConsole } from "./log.js";
import { createFeeds, createPageClient, createResourceServer, readClients, readClientsNow, readSecret } from "./secrets.js";
import { serveOverStdio } from "./stdio.js";

export async function runServe(command: CommandSpec, values: Values, dirs: readonly string[]): Promise<number> {
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
  const httpFace = transport === "http" ? import("../http/index.js") : undefined;
  const config = await readConfig(command, values, dirs);
  // Tokens are read before anything is harvested, and so is the address checked: a mistake costs a second, not a
  // cold start's git fetches.
  const clients = transport === "http" ? readClients(config) : [];
  // Signing in is loaded only when an HTTP server has an issuer to sign in with.
  const signIn = transport === "http" && config.oauth !== undefined ? await import("../oauth/index.js") : undefined;
  const oauth = signIn === undefined ? undefined : createResourceServer(config, log, signIn);
  const page = oauth === undefined || signIn === undefined ? undefined : createPageClient(oauth, signIn);
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
            for (const { client, why } of read.refused) {
              // A variable set after the server started is not in its environment: only a restart can read it.
              const where = why.endsWith("is not set") ? " in the running server's environment" : "";
              restart.push(`clients/${client.name} (${why}${where}; the client is not served)`);
            }
            access.replace(accessOf(next, read.clients, oauth, page, log));
            // Revoked install links stop working at once; the secret and lifetime are read at start.
            if (feeds !== undefined && next.feeds !== undefined) feeds.setRevoked(new Set(next.feeds.revoked));
            return restart;
          }
        : () => [],
  });
  if (transport === "stdio") return serveOverStdio(command, values, deps, live.holder, close, log);

  const { serveHttp, isLoopback, RefusalLog, isClientMistake } = face ?? (await import("../http/index.js"));
  // What a client got wrong is a warning, at a bounded rate; only the server's own failures are errors.
  const refusals = new RefusalLog(log);
  const usage = await startUsage(config, cacheDir, live.holder, log, face ?? (await import("../http/index.js")));
  // The plugins' repositories and the usage store serve HTTP only: a stdio server never loads them.
  const { PluginRepos } = await import("../plugins/index.js");
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
  // The log's reports give way to rebuilds (`live` is set before the first report starts, in `follow` below).
  const shelfLog = new ShelfLog(
    log,
    () => live.holder.current,
    () => live.idle(),
  );
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
async function startUsage(
  config: Config,
  cacheDir: string | undefined,
  holder: ShelfHolder,
  log: Logger,
  face: typeof import("../http/index.js"),
): Promise<UsageTap | undefined> {
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
  const { openLockedEmbedded, openPostgres, UsageStore } = await import("../store/index.js");
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
