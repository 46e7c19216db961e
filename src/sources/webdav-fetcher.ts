// WebDAV fetches and their states. A fetch lists its folder once (recursively) and serves an export named by a digest
// of that listing, so an unchanged folder downloads nothing; a changed one downloads only the files whose tag moved
// (the rest are linked from the previous export) into a temporary directory renamed into place. A failed refresh
// keeps the last export serving (`stale`). For a `cache: live` source, each read of a file first asks the share for
// that file's tag (`revalidate`), within a short budget, and cools off after a failure.
import { createHash, randomBytes } from "node:crypto";
import { ExportRetention } from "./export-retention.js";
import { copyFile, link, mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import type { SourceConfig } from "../config/index.js";
import { isDirectory } from "./directories.js";
import type { GitFailureKind } from "./git-errors.js";
import { formatRepositoryId } from "./git-store.js";
import { DavFailure, describeDavFailure } from "./webdav-errors.js";
import { type DavEntry, type DavListing, DavShare } from "./webdav-share.js";

const DEFAULT_EXPORT_GRACE_MS = 5 * 60_000;
const DEFAULT_TIMEOUT_MS = 30_000;
/** Leftovers of a build that crashed are removed when older than this. */
const STALE_BUILD_MS = 60 * 60_000;
/** Downloads of one export at a time. */
const DOWNLOADS = 8;

/** How a live read revalidates (docs/sources.md, "Live reads"): trust a tag this long, give up on the share after
 *  this long, and read from the export this long after a failure. */
export interface LiveTiming {
  readonly trustMs: number;
  readonly giveUpMs: number;
  readonly coolMs: number;
}

export const LIVE_TIMING: LiveTiming = { trustMs: 2_000, giveUpMs: 1_000, coolMs: 30_000 };

export interface WebdavFetchRequest {
  readonly key: string;
  /** The share's URL without `webdav+` (never userinfo). */
  readonly url: string;
  /** The folder inside the share, `""` for its root. */
  readonly path: string;
  readonly source: SourceConfig;
}

export interface DavFetchedTree {
  readonly key: string;
  readonly status: "ok" | "stale" | "failed";
  /** Absolute path of the export (internal: never in a message). Absent when failed. */
  readonly dir?: string;
  /** The digest of the listing the export holds. */
  readonly version?: string;
  readonly built?: string;
  readonly error?: string;
  readonly failure?: GitFailureKind;
  /** A live fetch whose share failed a read's revalidation: reads come from the export until it ends. */
  readonly cooling?: boolean;
  /** Why it is cooling: the failure, as a fixed sentence. */
  readonly coolingError?: string;
}

interface State extends DavFetchedTree {
  readonly listing?: DavListing;
  readonly request?: WebdavFetchRequest;
}

/** A file a live read found changed on the share: its tag there and its bytes now. */
interface Override {
  readonly tag: string;
  readonly bytes: Uint8Array;
}

interface LiveFetch {
  /** When each file's tag was last checked, and what was found. */
  readonly checked: Map<string, { readonly at: number; readonly override?: Override }>;
  coolUntil: number;
  coolTimer?: NodeJS.Timeout | undefined;
  coolReason?: string;
}

export interface WebdavFetcherOptions {
  readonly cacheDir: string;
  /** Where `{env: NAME}` credentials are read from, each time a share is asked. */
  readonly env: NodeJS.ProcessEnv;
  readonly now: () => Date;
  readonly graceMs?: number;
  /** How long one listing or download request may take. */
  readonly timeoutMs?: number;
  readonly live?: Partial<LiveTiming>;
  /** A live read never downloads a file larger than this (the config's `limits.fileBytes`). */
  readonly maxFileBytes?: number;
  /** A live fetch started or stopped cooling (for /health: the caller rebuilds its report). */
  readonly onCooling?: (key: string, cooling: boolean) => void;
}

export class WebdavFetcher {
  private readonly states = new Map<string, State>();
  private readonly inflight = new Map<string, Promise<DavFetchedTree>>();
  private readonly live = new Map<string, LiveFetch>();
  /** Every export directory this process knows of → the timer removing it, once superseded. */
  private readonly exports: ExportRetention;
  private readonly timing: LiveTiming;

  private constructor(private readonly options: WebdavFetcherOptions) {
    this.timing = { ...LIVE_TIMING, ...options.live };
    // An export's listing (`<dir>.json`) goes with it.
    this.exports = new ExportRetention(options.graceMs ?? DEFAULT_EXPORT_GRACE_MS, async (dir) => {
      await rm(dir, { recursive: true, force: true });
      await rm(`${dir}.json`, { force: true });
    });
  }

  static async open(options: WebdavFetcherOptions): Promise<WebdavFetcher> {
    const fetcher = new WebdavFetcher(options);
    await fetcher.sweepBuilds();
    return fetcher;
  }

  private get timeoutMs(): number {
    return this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  /** An export for `request`. `refresh` lists the share again; without it a known export is served as is. Concurrent
   *  calls for one key share one fetch. Never throws: failure is a state. */
  materialize(request: WebdavFetchRequest, refresh: boolean): Promise<DavFetchedTree> {
    const running = this.inflight.get(request.key);
    if (running !== undefined) return running;
    const job = this.materializeOnce(request, refresh).finally(() => this.inflight.delete(request.key));
    this.inflight.set(request.key, job);
    return job;
  }

  private async materializeOnce(request: WebdavFetchRequest, refresh: boolean): Promise<DavFetchedTree> {
    const base = this.baseDir(request);
    const previous = this.states.get(request.key);
    const known =
      previous?.dir !== undefined && path.dirname(previous.dir) === base && (await isDirectory(previous.dir)) ? previous : undefined;
    if (known !== undefined && !refresh) return this.withCooling(known);
    // A failed fetch is tried again on a refresh, not on every rebuild a local change triggers.
    if (previous?.status === "failed" && previous.request?.url === request.url && !refresh) return previous;
    let next: State;
    try {
      next = await this.fetch(request, base, known ?? (await this.lastExport(base)));
    } catch (error) {
      const failure = describeDavFailure(error, request.path, this.timeoutMs);
      // At a cold start the newest export of this folder on disk serves while the share cannot be listed.
      const fallback = known ?? (failure.kind === "auth" ? undefined : await this.lastExport(base, request));
      next =
        fallback === undefined
          ? { key: request.key, status: "failed", error: failure.message, failure: failure.kind, request }
          : {
              ...fallback,
              key: request.key,
              status: "stale",
              error: `refresh failed: ${failure.message}; serving the last export`,
              failure: failure.kind,
            };
    }
    this.states.set(request.key, next);
    if (next.dir !== undefined) this.exports.add(next.dir);
    if (request.source.cache === "live" && !this.live.has(request.key)) this.live.set(request.key, { checked: new Map(), coolUntil: 0 });
    // A new export holds what the share held at the listing: what live reads found changed before it is in it now.
    if (next.dir !== previous?.dir) this.live.get(request.key)?.checked.clear();
    return this.withCooling(next);
  }

  /** `<cache>/webdav/<id>`: one folder of exports per share folder and account. */
  private baseDir(request: WebdavFetchRequest): string {
    const username = request.source.auth?.username;
    const id = formatRepositoryId(`${request.url}\n${request.path}\n${JSON.stringify(username ?? null)}`);
    return path.join(this.options.cacheDir, "webdav", id);
  }

  private async fetch(request: WebdavFetchRequest, base: string, reuse: State | undefined): Promise<State> {
    const share = DavShare.open(request, this.options.env, this.timeoutMs);
    const listing = await share.list();
    const version = digestListing(listing);
    const dir = path.join(base, version);
    if (!(await isDirectory(dir))) await this.buildExport(share, listing, base, dir, reuse);
    const built = reuse?.version === version && reuse.built !== undefined ? reuse.built : this.options.now().toISOString();
    return { key: request.key, status: "ok", dir, version, built, listing, request };
  }

  /** Download what changed, link what did not, write the listing beside the export, rename it into place. */
  private async buildExport(share: DavShare, listing: DavListing, base: string, dir: string, reuse: State | undefined): Promise<void> {
    await mkdir(base, { recursive: true, mode: 0o700 });
    const temp = `${dir}.${randomBytes(6).toString("hex")}.tmp`;
    await mkdir(temp, { mode: 0o700 });
    try {
      const made = new Set<string>();
      const work = [...listing];
      const next = async (): Promise<void> => {
        for (let item = work.pop(); item !== undefined; item = work.pop()) {
          const [rel, entry] = item;
          const target = path.join(temp, ...rel.split("/"));
          const parent = path.dirname(target);
          if (!made.has(parent)) {
            await mkdir(parent, { recursive: true, mode: 0o700 });
            made.add(parent);
          }
          if (reuse?.dir !== undefined && reuse.listing !== undefined && sameEntry(reuse.listing.get(rel), entry)) {
            if (await linkOrCopy(path.join(reuse.dir, ...rel.split("/")), target)) continue;
          }
          await writeFile(target, await share.download(rel), { mode: 0o600 });
        }
      };
      await Promise.all(Array.from({ length: DOWNLOADS }, next));
      await writeFile(`${dir}.json`, JSON.stringify([...listing]), { mode: 0o600 });
      try {
        await rename(temp, dir);
      } catch (error) {
        // Another fetch of the same listing won the rename: its export is the same files.
        if (!(await isDirectory(dir))) throw error;
        await rm(temp, { recursive: true, force: true });
      }
    } catch (error) {
      await rm(temp, { recursive: true, force: true });
      throw error;
    }
  }

  /** The newest export of `base` whose listing is on disk: what a changed folder reuses after a restart, and what a
   *  cold start serves (stale) while the share cannot be listed. */
  private async lastExport(base: string, request?: WebdavFetchRequest): Promise<State | undefined> {
    let newest: { version: string; mtimeMs: number } | undefined;
    for (const name of await names(base)) {
      if (!/^[0-9a-f]{64}\.json$/.test(name)) continue;
      const version = name.slice(0, -".json".length);
      try {
        const mtimeMs = (await stat(path.join(base, name))).mtimeMs;
        if ((newest === undefined || mtimeMs > newest.mtimeMs) && (await isDirectory(path.join(base, version))))
          newest = { version, mtimeMs };
      } catch {
        // Removed meanwhile.
      }
    }
    if (newest === undefined) return undefined;
    try {
      const entries = JSON.parse(await readFile(path.join(base, `${newest.version}.json`), "utf8")) as [string, DavEntry][];
      const listing: DavListing = new Map(entries.filter(([rel, entry]) => typeof rel === "string" && typeof entry?.tag === "string"));
      return {
        key: request?.key ?? "",
        status: "ok",
        dir: path.join(base, newest.version),
        version: newest.version,
        built: new Date(newest.mtimeMs).toISOString(),
        listing,
        ...(request === undefined ? {} : { request }),
      };
    } catch {
      return undefined;
    }
  }

  private withCooling(state: State): DavFetchedTree {
    const live = this.live.get(state.key);
    if (live === undefined || live.coolUntil <= this.nowMs()) return state;
    const seconds = Math.round(this.timing.coolMs / 100) / 10;
    const why = `a live read failed: ${live.coolReason ?? "the share did not answer"}; reads come from the export for ${seconds} s`;
    return { ...state, cooling: true, coolingError: why };
  }

  /**
   * For a read of `abs`: the bytes to serve instead of the export's when `abs` is a file of a live fetch that changed
   * on the share, else undefined (serve the export). Asks the share at most once per file per `trustMs`, waits at
   * most `giveUpMs`, and after a failure reads from the export for `coolMs`. Never throws.
   */
  async revalidate(abs: string): Promise<Uint8Array | undefined> {
    for (const [key, state] of this.states) {
      const live = this.live.get(key);
      if (live === undefined || state.dir === undefined || state.listing === undefined || state.request === undefined) continue;
      if (!abs.startsWith(state.dir + path.sep)) continue;
      const rel = abs
        .slice(state.dir.length + 1)
        .split(path.sep)
        .join("/");
      const entry = state.listing.get(rel);
      if (entry === undefined) return undefined;
      return this.revalidateFile(key, state.request, live, rel, entry);
    }
    return undefined;
  }

  private async revalidateFile(
    key: string,
    request: WebdavFetchRequest,
    live: LiveFetch,
    rel: string,
    entry: DavEntry,
  ): Promise<Uint8Array | undefined> {
    const now = this.nowMs();
    if (live.coolUntil > now) return undefined;
    const last = live.checked.get(rel);
    if (last !== undefined && now - last.at < this.timing.trustMs) return last.override?.bytes;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.timing.giveUpMs);
    try {
      const share = DavShare.open(request, this.options.env, this.timing.giveUpMs);
      const current = await share.tag(rel, controller.signal);
      let override: Override | undefined;
      // Gone from the share (or a folder now), or grown past the size limit: the export serves until a listing.
      if (current !== null && current.tag !== entry.tag && current.size <= (this.options.maxFileBytes ?? Infinity)) {
        const tag = current.tag;
        override = last?.override?.tag === tag ? last.override : { tag, bytes: await share.download(rel, controller.signal) };
      }
      live.checked.set(rel, override === undefined ? { at: this.nowMs() } : { at: this.nowMs(), override });
      return override?.bytes;
    } catch (error) {
      this.cool(key, live, error instanceof DavFailure ? error : describeDavFailure(error, request.path, this.timing.giveUpMs));
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }

  private cool(key: string, live: LiveFetch, failure: DavFailure): void {
    live.coolUntil = this.nowMs() + this.timing.coolMs;
    live.coolReason = failure.message;
    live.checked.clear();
    if (live.coolTimer !== undefined) return;
    this.options.onCooling?.(key, true);
    live.coolTimer = setTimeout(() => {
      live.coolTimer = undefined;
      live.coolUntil = 0;
      this.options.onCooling?.(key, false);
    }, this.timing.coolMs);
    live.coolTimer.unref();
  }

  private nowMs(): number {
    return this.options.now().getTime();
  }

  /** The fetch keys the current shelf uses: every export none of them serves is removed after the grace period. */
  retain(keys: Iterable<string>): void {
    const wanted = new Set(keys);
    for (const key of [...this.states.keys()]) {
      if (wanted.has(key)) continue;
      this.states.delete(key);
      const live = this.live.get(key);
      if (live?.coolTimer !== undefined) clearTimeout(live.coolTimer);
      this.live.delete(key);
    }
    this.exports.retain([...this.states.values()].flatMap((state) => (state.dir === undefined ? [] : [state.dir])));
  }

  /** Stop the timers and remove the superseded exports they were waiting for. */
  async close(): Promise<void> {
    for (const live of this.live.values()) if (live.coolTimer !== undefined) clearTimeout(live.coolTimer);
    await this.exports.close();
  }

  /** Remove half-built exports a crashed process left behind. */
  private async sweepBuilds(): Promise<void> {
    const cutoff = this.nowMs() - STALE_BUILD_MS;
    const root = path.join(this.options.cacheDir, "webdav");
    for (const id of await names(root)) {
      for (const name of await names(path.join(root, id))) {
        if (!name.endsWith(".tmp")) continue;
        const candidate = path.join(root, id, name);
        try {
          if ((await stat(candidate)).mtimeMs < cutoff) await rm(candidate, { recursive: true, force: true });
        } catch {
          // Gone already.
        }
      }
    }
  }
}

/** The digest of a listing: paths in code-unit order with their tags and sizes. */
export function digestListing(listing: DavListing): string {
  const hash = createHash("sha256");
  for (const rel of [...listing.keys()].sort()) {
    const entry = listing.get(rel) as DavEntry;
    hash.update(`${rel}\0${entry.tag}\0${entry.size}\n`);
  }
  return hash.digest("hex");
}

function sameEntry(a: DavEntry | undefined, b: DavEntry): boolean {
  return a !== undefined && a.tag === b.tag && a.size === b.size;
}

/** Exports are never written once in place, so a file of one can be a hard link to the same file of another. */
async function linkOrCopy(from: string, to: string): Promise<boolean> {
  try {
    await link(from, to);
    return true;
  } catch {
    try {
      await copyFile(from, to);
      return true;
    } catch {
      return false;
    }
  }
}

async function names(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch {
    return [];
  }
}
