// Owns rebuilds: build the shelf again (one at a time), and swap the new shelf in only when something changed, so
// an unchanged rebuild keeps its generation and announces nothing. Also owns the two records a restart with an
// unchanged config starts from: the fetchers' (the git record, the WebDAV exports: no network needed) and the
// local harvests' (harvest-cache.ts: served at once, then verified).
import { rm } from "node:fs/promises";
import { describeErrorCode } from "../address/index.js";
import { type Logger } from "../log/index.js";
import type { Config } from "../config/index.js";
import { fingerprintShelf } from "../health/index.js";
import { type Fetcher, fetchedKind, type Tree } from "../sources/index.js";
import { assemble, type AssembleResult, type HarvestMemo, readHarvestCache } from "../assemble/index.js";
import { ShelfHolder } from "./holder.js";
import type { FetchReport, Shelf } from "../shelf/index.js";
import { HarvestRecorder } from "./harvest-recorder.js";
import { logFetchChanges } from "./fetch-log.js";
import { digestConfig, type FetcherSettings, movedCommit, openFetchersOf } from "./service-fetchers.js";
import type { ContentCache } from "./content-cache.js";

export interface ShelfServiceOptions extends FetcherSettings {
  /** One line per state change: a fetch that moved, went stale, failed or recovered. Never a secret. */
  readonly log?: Logger;
  /** Holds the bytes of the files a rebuild read again (they changed): what the new shelf publishes for them, to
   *  answer reads while the file on disk is already changing again. Absent: nothing is held. */
  readonly contents?: ContentCache;
  /** Told of every rebuild once it ends: how long it took, and whether it swapped in a new shelf (for /metrics). */
  readonly onRebuilt?: (seconds: number, swapped: boolean) => void;
  /** The watch state of a local fetch, for /health (set by the watcher). */
  readonly watch?: (fetch: string) => FetchReport["watch"];
  /** Serve the recorded local harvests as they are at start, without walking the disk (`serve`); the caller
   *  verifies them with `rescan(unverified)` straight after. Otherwise the record only saves re-reads. */
  readonly fromRecord?: boolean;
  /** Publish into this holder instead of a new one: a service started on a reloaded config takes over from the
   *  previous one, so every request, session and reader keeps the same holder and sees the next generation. */
  readonly holder?: ShelfHolder;
}

/** A git fetch whose host refused (or could not be given) its credentials: one failed fetch, never the whole shelf. */
export interface RefusedCredential {
  readonly fetch: string;
  /** Names the fetch's source and the reason, never a credential. */
  readonly reason: string;
}

interface BuildMode {
  /** Re-resolve the refs of these git fetches on the remote. */
  readonly refresh: (fetch: string, source: string) => boolean;
  /** Re-harvest everything (POST /reindex). */
  readonly force: boolean;
  /** Local fetches known not to have changed since the last build. */
  readonly unchanged?: (fetch: string) => boolean;
}

export class ShelfService {
  private fingerprint: string | undefined;
  private memo: HarvestMemo = new Map();
  private trees: ReadonlyMap<string, Tree> = new Map();
  private queue: Promise<unknown> = Promise.resolve();
  private reindexing: Promise<string[]> | null = null;
  private readonly timers: NodeJS.Timeout[] = [];
  private closed = false;
  private closing: Promise<void> | undefined;
  /** Builds queued or running. */
  private building = 0;
  /** The local fetches the first shelf served from the record, not yet compared with the disk. */
  private fromRecord: ReadonlySet<string> = new Set();

  private constructor(
    private readonly config: Config,
    private readonly now: () => Date,
    private readonly options: ShelfServiceOptions,
    /** The fetcher of each source kind the config uses, by kind. */
    private readonly fetchers: ReadonlyMap<string, Fetcher>,
    private readonly tempCacheDir: string | undefined,
    readonly holder: ShelfHolder,
    private readonly recorder: HarvestRecorder,
  ) {}

  /** The first build. Known trees (the cache record, exported pinned commits) serve without the network; the
   *  rest are fetched. A credential refused here fails that fetch only (see `refusedCredentials`). */
  static async start(config: Config, now: () => Date, options: ShelfServiceOptions = {}): Promise<ShelfService> {
    const configDigest = digestConfig(config);
    const fetchers = await openFetchersOf(config, configDigest, now, options);
    const { byKind, tempCacheDir, givenCacheDir } = fetchers;
    try {
      // The recorded local harvests, stamped with nothing. Served as they are `fromRecord`; otherwise every file is
      // still walked and stat-ed, and only one at the same real path, size and mtime keeps its recorded digest.
      const recorded = givenCacheDir === undefined ? new Map() : await readHarvestCache(givenCacheDir, configDigest);
      const trusted = options.fromRecord === true && recorded.size > 0;
      const result = await assemble(config, {
        generation: options.holder === undefined ? 1 : options.holder.current.generation + 1,
        built: now().toISOString(),
        fetchers: byKind,
        refresh: () => false,
        ...(recorded.size === 0 ? {} : { previous: recorded }),
        ...(trusted ? { unchanged: () => true } : {}),
        ...(options.watch === undefined ? {} : { watch: options.watch }),
      });
      const holder = options.holder ?? new ShelfHolder(result.shelf);
      const recorder = new HarvestRecorder(givenCacheDir, configDigest, options.log);
      const service = new ShelfService(config, now, options, byKind, tempCacheDir, holder, recorder);
      fetchers.onCooling = (key) => {
        service.rescan(new Set([key])).catch((error: unknown) => {
          options.log?.log("error", "rescan failed", { error: error instanceof Error ? error.message : String(error) });
        });
      };
      if (trusted) service.adoptRecord(result, recorded);
      service.memo = result.memo;
      logFetchChanges(options.log, service.trees, result.trees);
      service.trees = result.trees;
      await service.keep(result.trees);
      service.recorder.record(result.shelf.plugins.values(), result.trees);
      if (holder.current !== result.shelf) holder.swap(result.shelf);
      return service;
    } catch (error) {
      for (const fetcher of byKind.values()) await fetcher.close();
      if (tempCacheDir !== undefined) await rm(tempCacheDir, { recursive: true, force: true });
      throw error;
    }
  }

  /** A first shelf served from the record: what came from it is on disk already (only a harvest that differs is
   *  written again), and until the verifying rescan ends a read that meets a changed file waits for it
   *  (ShelfHolder.catchUp). */
  private adoptRecord(result: AssembleResult, recorded: HarvestMemo): void {
    const same = [...result.shelf.plugins.values()].filter((plugin) => recorded.get(plugin.id)?.plugin === plugin);
    this.recorder.knowRecorded(new Map(same.map((plugin) => [plugin.id, plugin])));
    this.fromRecord = new Set([...result.trees.values()].filter((tree) => tree.kind === "local").map((tree) => tree.key));
    this.holder.sawChange();
  }

  /** The local fetches the first shelf served from the record, to verify against the disk. */
  get unverified(): ReadonlySet<string> {
    return this.fromRecord;
  }

  /** The fetches of the last build whose credentials were refused or unavailable (`check` exits 3 on them). */
  get refusedCredentials(): readonly RefusedCredential[] {
    return [...this.trees.values()]
      .filter((tree) => tree.status === "failed" && tree.failure === "auth")
      .map((tree) => ({ fetch: tree.key, reason: tree.error ?? "the credentials were refused" }));
  }

  get current(): Shelf {
    return this.holder.current;
  }

  /** POST /reindex: re-resolve every git ref and re-harvest every plugin now; concurrent calls share one rebuild.
   *  Answers the fetch keys rebuilt. The generation still bumps only when something changed. */
  rebuild(): Promise<string[]> {
    this.reindexing ??= this.enqueue({ refresh: () => true, force: true }).finally(() => {
      this.reindexing = null;
    });
    return this.reindexing;
  }

  /** For a read of the file at `abs`: the bytes a live WebDAV share holds now when they differ from the export's,
   *  else undefined (read the export). Never throws, never waits on the share for more than its give-up time. */
  async revalidate(abs: string): Promise<Uint8Array | undefined> {
    for (const fetcher of this.fetchers.values()) {
      const fresh = await fetcher.revalidate?.(abs);
      if (fresh !== undefined) return fresh;
    }
    return undefined;
  }

  /** Re-resolve the branch and tag refs of one git source (or list one WebDAV source again), or of all, re-harvesting
   *  only plugins whose fetch moved. */
  refresh(source?: string): Promise<string[]> {
    return this.enqueue({ refresh: (_fetch, on) => source === undefined || on === source, force: false });
  }

  /** Rebuild from what is on disk, with no network: for local folders that changed. Given the fetches the
   *  watcher saw change, every other local fetch keeps its last harvest. */
  rescan(changed?: ReadonlySet<string>): Promise<string[]> {
    return this.enqueue({
      refresh: () => false,
      force: false,
      ...(changed === undefined ? {} : { unchanged: (fetch: string) => !changed.has(fetch) }),
    });
  }

  /** Re-resolve each git source's refs every `refresh` interval. Timers never keep the process alive. */
  startRefreshTimers(): void {
    for (const source of this.config.sources) {
      if (fetchedKind(source.kind) === undefined || source.refreshMs === undefined) continue;
      const timer = setInterval(() => {
        this.refresh(source.name).catch((error: unknown) => {
          this.options.log?.log("error", "refresh failed", {
            source: source.name,
            error: error instanceof Error ? error.message : String(error),
          });
        });
      }, source.refreshMs);
      timer.unref();
      this.timers.push(timer);
    }
  }

  /** Stop the timers, let a running rebuild finish, write the pending harvest record, and release the git fetcher.
   *  Every call answers the same promise: a second close (a signal and the end of stdin, both asking the server to
   *  stop) waits for the first one's writes instead of letting the process exit in the middle of them. */
  close(): Promise<void> {
    this.closing ??= this.closeOnce();
    return this.closing;
  }

  private async closeOnce(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers.splice(0)) clearInterval(timer);
    await this.queue.catch(() => undefined);
    await this.recorder.close();
    for (const fetcher of this.fetchers.values()) await fetcher.close();
    if (this.tempCacheDir !== undefined) await rm(this.tempCacheDir, { recursive: true, force: true });
  }

  private enqueue(mode: BuildMode): Promise<string[]> {
    this.building++;
    const run = this.queue.then(() => this.buildOnce(mode)).finally(() => this.building--);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Resolves once no build is queued or running: what work of lower priority (the log's health report) waits for
   *  between its parts, so a rebuild that publishes a change never shares the CPU with it. */
  async idle(): Promise<void> {
    while (this.building > 0) await this.queue;
  }

  private async buildOnce(mode: BuildMode): Promise<string[]> {
    if (this.closed) return [...this.trees.keys()];
    const started = performance.now();
    const previous = this.holder.current;
    const result = await assemble(this.config, {
      generation: previous.generation + 1,
      built: this.now().toISOString(),
      fetchers: this.fetchers,
      refresh: mode.refresh,
      previous: this.memo,
      force: mode.force,
      ...(mode.unchanged === undefined ? {} : { unchanged: mode.unchanged }),
      previousShelf: previous,
      ...(this.options.watch === undefined ? {} : { watch: this.options.watch }),
      ...(this.options.contents === undefined ? {} : { onChangedRead: holdChanged(this.options.contents) }),
    });
    // The first shelf's fingerprint is taken here, at the first rebuild, not before the first request.
    this.fingerprint ??= fingerprintShelf(previous);
    const fingerprint = fingerprintShelf(result.shelf);
    const moved = movedCommit(this.trees, result.trees);
    // Fetch changes are logged first: they are why the shelf that follows was rebuilt.
    logFetchChanges(this.options.log, this.trees, result.trees);
    this.memo = result.memo;
    this.trees = result.trees;
    // A moved commit always swaps: the superseded export is about to be removed, and nothing may still read it.
    if (fingerprint !== this.fingerprint || moved) {
      this.fingerprint = fingerprint;
      this.holder.swap(result.shelf);
    }
    await this.keep(result.trees);
    this.recorder.record(result.shelf.plugins.values(), result.trees);
    this.options.onRebuilt?.((performance.now() - started) / 1000, this.holder.current === result.shelf);
    return [...result.shelf.fetches.keys()];
  }

  /** Keep the exports the current shelf reads (the rest go after the grace period) and record them. */
  private async keep(trees: ReadonlyMap<string, Tree>): Promise<void> {
    for (const [kind, fetcher] of this.fetchers) {
      try {
        await fetcher.retain([...trees.values()].filter((tree) => tree.kind === kind).map((tree) => tree.key));
      } catch (error) {
        // A cache that cannot be written costs the next cold start its shortcut, nothing more.
        this.options.log?.log("warn", "cache record not written", { error: describeErrorCode(error) });
      }
    }
  }
}

/** A changed file's bytes, held under the digest the new shelf publishes (a copy: the harvest hands a view). */
function holdChanged(contents: ContentCache): (digest: string, bytes: Uint8Array) => void {
  return (digest, bytes) => {
    if (bytes.byteLength <= contents.entryBytes) contents.set(digest, new Uint8Array(bytes));
  };
}
