// A live shelf whose config can be read again while it serves (SIGHUP, POST /reindex, an edit of the config file):
// a new live shelf is started on the new config and publishes into the same holder, then the old one is closed.
// Requests, sessions and readers hold the holder, so they see the next generation and nothing else changes for them.
import { watch as watchDirectory, type FSWatcher } from "node:fs";
import path from "node:path";
import type { Logger } from "../log/index.js";
import { type Config, type ConfigError, ConfigInvalidError } from "../config/index.js";
import type { ShelfHolder } from "./holder.js";
import { type LiveShelf, startLiveShelf } from "./live-shelf.js";
import type { ShelfServiceOptions } from "./shelf-service.js";

export class ReloadableShelf {
  /** The shelves a reload replaced, being closed one after another. */
  private retiring: Promise<void> = Promise.resolve();

  private constructor(
    private live: LiveShelf,
    private readonly now: () => Date,
    private readonly options: ShelfServiceOptions,
  ) {}

  /** Serving: each git source's refresh timer runs, on the first shelf and on every shelf a reload starts. */
  static async start(config: Config, now: () => Date, options: ShelfServiceOptions): Promise<ReloadableShelf> {
    const live = await startLiveShelf(config, now, options);
    live.service.startRefreshTimers();
    return new ReloadableShelf(live, now, options);
  }

  get holder(): ShelfHolder {
    return this.live.service.holder;
  }

  /** Serve `config` from now on: resolves once the new shelf serves. Until then the current one serves; it is closed
   *  (its watches, timers and pending writes) after, and `close()` waits for that. */
  async reload(config: Config): Promise<void> {
    const previous = this.live;
    const next = await startLiveShelf(config, this.now, { ...this.options, holder: previous.service.holder });
    next.service.startRefreshTimers();
    this.live = next;
    this.retiring = this.retiring.then(() => previous.close());
  }

  reindex(): Promise<string[]> {
    return this.live.reindex();
  }

  /** Resolves once the service now serving has no build queued or running (`ShelfService.idle`). */
  idle(): Promise<void> {
    return this.live.service.idle();
  }

  /** A rebuild from the disk, for a read that found a file changed before any watcher said so (ShelfReader's
   *  LiveFiles). */
  rescan(): Promise<string[]> {
    return this.live.service.rescan();
  }

  /** A read's revalidation against a live WebDAV share, by the service now serving (ShelfReader's LiveFiles). */
  revalidate(abs: string): Promise<Uint8Array | undefined> {
    return this.live.service.revalidate(abs);
  }

  async close(): Promise<void> {
    await this.retiring;
    await this.live.close();
  }
}

/** Calls `onChange` once the config file is edited, replaced or swapped in through a link (a Kubernetes ConfigMap
 *  swaps its files by renaming a `..data` link), after a quiet window. Returns the function that stops watching. */
export function watchConfigFile(file: string, onChange: () => void, quietMs = 250): () => void {
  const dir = path.dirname(path.resolve(file));
  const name = path.basename(file);
  let timer: NodeJS.Timeout | undefined;
  let watcher: FSWatcher | undefined;
  try {
    watcher = watchDirectory(dir, (_event, changed) => {
      if (changed !== null && changed !== name && !changed.startsWith("..")) return;
      clearTimeout(timer);
      timer = setTimeout(onChange, quietMs);
      timer.unref();
    });
    watcher.on("error", () => watcher?.close());
  } catch {
    // An unwatchable directory: the config is still read again on SIGHUP and POST /reindex.
    return () => undefined;
  }
  return () => {
    clearTimeout(timer);
    watcher?.close();
  };
}

/** What the server outside the shelf takes over from a reloaded config (who may read what, the cache hint): it
 *  applies what it can and answers what needs a restart, one line each naming the key and why. */
export type ApplyConfig = (next: Config) => readonly string[];

/** The sections a server reads once, at start: a reload that changes one serves the rest of the file and names it
 *  (the line says why), because keeping it silently would leave the operator believing the file runs. Each is
 *  compared by the part only a restart takes over (`feeds.revoked` is taken over by a reload). */
const READ_AT_START: readonly { readonly key: string; readonly part: (config: Config) => unknown; readonly why: string }[] = [
  { key: "oauth", part: (config) => config.oauth, why: "the issuer, its rules and secrets are read at start" },
  {
    key: "feeds",
    part: (config) => (config.feeds === undefined ? undefined : { secret: config.feeds.secret, lifetimeMs: config.feeds.lifetimeMs }),
    why: "the link secret and lifetime are read at start",
  },
  { key: "usage", part: (config) => config.usage, why: "the usage store is opened at start" },
];

/** What `next` asks for in the sections read at start that differs from what the server started with. */
export function readAtStartChanges(started: Config, next: Config): string[] {
  return READ_AT_START.filter(({ part }) => JSON.stringify(part(started) ?? null) !== JSON.stringify(part(next) ?? null)).map(
    ({ key, why }) => `${key} (${why})`,
  );
}

/** Reads the config again and serves it when it changed. A config that fails to load is logged with its file, line
 *  and JSON path and kept in `errors` (for /health), and the current shelf keeps serving. Reloads run one after
 *  another. Zero-config directories (`first.file === null`) have no file to read again. What only a restart can
 *  take over is logged as a warning at each reload that finds it and kept in `restartNeeded` (for /health). */
export class ConfigReloads {
  private current: string;
  private failed: readonly ConfigError[] = [];
  private pending: readonly string[] = [];
  private queue: Promise<void> = Promise.resolve();
  private readonly unwatch: () => void;

  constructor(
    private readonly first: Config,
    private readonly read: () => Promise<Config>,
    private readonly shelf: ReloadableShelf,
    private readonly log: Logger,
    private readonly apply: ApplyConfig = () => [],
  ) {
    this.current = JSON.stringify(first);
    this.unwatch = first.file === null ? () => undefined : watchConfigFile(first.file, () => void this.reload("config file changed"));
  }

  /** What the last failed reload found wrong (empty after a good one). */
  get errors(): readonly ConfigError[] {
    return this.failed;
  }

  /** What the file asks for that the running server cannot take over without a restart (empty when it runs the
   *  file as read). */
  get restartNeeded(): readonly string[] {
    return this.pending;
  }

  reload(why: string): Promise<void> {
    if (this.first.file === null) return Promise.resolve();
    this.queue = this.queue
      .then(() => this.readAndServe(why))
      .catch((error: unknown) => {
        this.log.log("error", "config reload failed", { why, error: error instanceof Error ? error.message : String(error) });
      });
    return this.queue;
  }

  stop(): void {
    this.unwatch();
  }

  private async readAndServe(why: string): Promise<void> {
    let next: Config;
    try {
      next = await this.read();
    } catch (error) {
      if (!(error instanceof ConfigInvalidError)) throw error;
      this.failed = error.errors;
      for (const problem of error.errors)
        this.log.log("error", "config not reloaded: the current shelf keeps serving", { why, ...problem });
      return;
    }
    if (this.failed.length > 0) this.log.log("info", "config loads again", { why });
    this.failed = [];
    const text = JSON.stringify(next);
    if (text === this.current) {
      // Said, so an operator who sent SIGHUP or POST /reindex knows it was read.
      this.log.log("info", "config unchanged: nothing to reload", { why });
      return;
    }
    this.current = text;
    // Access first: a narrowed ceiling applies from now on, not once the new shelf is built.
    this.pending = [...readAtStartChanges(this.first, next), ...this.apply(next)];
    for (const part of this.pending) this.log.log("warn", `config reloaded in part: needs a restart: ${part}`, { why });
    await this.shelf.reload(next);
    this.log.log("info", this.pending.length === 0 ? "config reloaded" : "config reloaded in part: the running server is not the file's", {
      why,
      generation: this.shelf.holder.current.generation,
    });
  }
}
