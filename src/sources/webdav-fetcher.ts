// WebDAV fetches and their states. A fetch lists its folder once (recursively) and serves an export named by a digest
// of that listing (webdav-exports.ts), so an unchanged folder downloads nothing; a changed one downloads only the
// files whose tag moved. A failed refresh keeps the last export serving (`stale`), and at a cold start the newest
// export on disk (webdav-store.ts) serves while the share cannot be listed. For a `cache: live` source each read of a
// file is first checked against the share (webdav-live.ts).
import path from "node:path";
import { WEBDAV_RULES } from "../config/index.js";
import { isDirectory } from "./directories.js";
import { ExportRetention } from "./export-retention.js";
import type { Fetched, Fetcher, FetchRequest, LiveTiming, SourceKind } from "./fetcher.js";
import { describeDavFailure } from "./webdav-errors.js";
import { buildExport, digestListing } from "./webdav-exports.js";
import { LiveChecks } from "./webdav-live.js";
import { type DavFolder, type DavListing, DavShare } from "./webdav-share.js";
import { type DavExport, DavStore } from "./webdav-store.js";

const DEFAULT_EXPORT_GRACE_MS = 5 * 60_000;
const DEFAULT_TIMEOUT_MS = 30_000;

interface State extends Fetched {
  readonly listing?: DavListing;
  readonly folder?: DavFolder;
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

export class WebdavFetcher implements Fetcher {
  private readonly states = new Map<string, State>();
  private readonly inflight = new Map<string, Promise<Fetched>>();
  private readonly store: DavStore;
  private readonly live: LiveChecks;
  /** Every export directory this process knows of → the timer removing it, once superseded. */
  private readonly exports: ExportRetention;

  private constructor(private readonly options: WebdavFetcherOptions) {
    this.store = new DavStore(options.cacheDir);
    this.live = new LiveChecks({
      env: options.env,
      now: options.now,
      timing: options.live,
      maxFileBytes: options.maxFileBytes,
      onCooling: options.onCooling,
    });
    // An export's listing goes with it.
    this.exports = new ExportRetention(options.graceMs ?? DEFAULT_EXPORT_GRACE_MS, (dir) => this.store.remove(dir));
  }

  static async open(options: WebdavFetcherOptions): Promise<WebdavFetcher> {
    const fetcher = new WebdavFetcher(options);
    await fetcher.store.sweepBuilds(options.now().getTime());
    return fetcher;
  }

  private get timeoutMs(): number {
    return this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  /** An export for `request` (its path is the folder inside the share). `refresh` lists the share again; without it
   *  a known export is served as is. Concurrent calls for one key share one fetch. Never throws: failure is a state. */
  materialize(request: FetchRequest, refresh: boolean): Promise<Fetched> {
    const running = this.inflight.get(request.key);
    if (running !== undefined) return running;
    const folder: DavFolder = { url: request.source.url.replace(/^webdav\+/, ""), path: request.path, source: request.source };
    const job = this.materializeOnce(request.key, folder, refresh).finally(() => this.inflight.delete(request.key));
    this.inflight.set(request.key, job);
    return job;
  }

  private async materializeOnce(key: string, folder: DavFolder, refresh: boolean): Promise<Fetched> {
    const base = this.store.baseDir(folder);
    const previous = this.states.get(key);
    const known =
      previous?.dir !== undefined && path.dirname(previous.dir) === base && (await isDirectory(previous.dir)) ? previous : undefined;
    if (known !== undefined && !refresh) return this.withCooling(known);
    // A failed fetch is tried again on a refresh, not on every rebuild a local change triggers.
    if (previous?.status === "failed" && previous.folder?.url === folder.url && !refresh) return this.withCooling(previous);
    let next: State;
    try {
      next = await this.fetch(key, folder, base, known ?? (await this.store.lastExport(base)));
    } catch (error) {
      const failure = describeDavFailure(error, folder.path, this.timeoutMs);
      // At a cold start the newest export of this folder on disk serves while the share cannot be listed.
      const fallback = known ?? (failure.kind === "auth" ? undefined : await this.store.lastExport(base));
      next =
        fallback === undefined
          ? { key, status: "failed", error: failure.message, failure: failure.kind, folder }
          : {
              ...fallback,
              key,
              status: "stale",
              error: `refresh failed: ${failure.message}; serving the last export`,
              failure: failure.kind,
              folder,
            };
    }
    this.states.set(key, next);
    if (next.dir !== undefined) this.exports.add(next.dir);
    if (folder.source.cache === "live") this.live.track(key);
    if (next.dir !== previous?.dir) this.live.newExport(key);
    return this.withCooling(next);
  }

  private async fetch(key: string, folder: DavFolder, base: string, reuse: Partial<DavExport> | undefined): Promise<State> {
    const share = DavShare.open(folder, this.options.env, this.timeoutMs);
    const listing = await share.list();
    const version = digestListing(listing);
    const dir = path.join(base, version);
    if (!(await isDirectory(dir))) await buildExport(share, listing, base, dir, reuse);
    const built = reuse?.version === version && reuse.built !== undefined ? reuse.built : this.options.now().toISOString();
    return { key, status: "ok", dir, version, built, listing, folder };
  }

  /** What a fetch gives: the state without its listing and folder, and cooling when its live reads are. */
  private withCooling(state: State): Fetched {
    const { listing: _listing, folder: _folder, ...fetched } = state;
    const why = this.live.coolingReason(state.key);
    return why === undefined ? fetched : { ...fetched, cooling: true, coolingError: why };
  }

  /** For a read of `abs`: the bytes to serve instead of the export's when `abs` is a file of a live fetch that
   *  changed on the share, else undefined (serve the export). Never throws. */
  async revalidate(abs: string): Promise<Uint8Array | undefined> {
    for (const [key, state] of this.states) {
      if (!this.live.has(key) || state.dir === undefined || state.listing === undefined || state.folder === undefined) continue;
      if (!abs.startsWith(state.dir + path.sep)) continue;
      const rel = abs
        .slice(state.dir.length + 1)
        .split(path.sep)
        .join("/");
      const entry = state.listing.get(rel);
      if (entry === undefined) return undefined;
      return this.live.check(key, state.folder, rel, entry);
    }
    return undefined;
  }

  /** The fetch keys the current shelf uses: every export none of them serves is removed after the grace period. */
  async retain(keys: Iterable<string>): Promise<void> {
    const wanted = new Set(keys);
    for (const key of [...this.states.keys()]) {
      if (wanted.has(key)) continue;
      this.states.delete(key);
      this.live.forget(key);
    }
    this.exports.retain([...this.states.values()].flatMap((state) => (state.dir === undefined ? [] : [state.dir])));
    return Promise.resolve();
  }

  /** Stop the timers and remove the superseded exports they were waiting for. */
  async close(): Promise<void> {
    this.live.close();
    await this.exports.close();
  }
}

/** WebDAV folders: `webdav+https://`, `webdav+http://` sources, listed and exported to the cache directory. */
export const WEBDAV_KIND: SourceKind = {
  rules: WEBDAV_RULES,
  open: (context) =>
    WebdavFetcher.open({
      cacheDir: context.cacheDir,
      env: context.env,
      now: context.now,
      ...(context.graceMs === undefined ? {} : { graceMs: context.graceMs }),
      ...(context.timeoutMs === undefined ? {} : { timeoutMs: context.timeoutMs }),
      ...(context.live === undefined ? {} : { live: context.live }),
      maxFileBytes: context.config.limits.fileBytes,
      onCooling: context.onCooling,
    }),
};
