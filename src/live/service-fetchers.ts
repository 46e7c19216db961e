// The fetchers a shelf service builds from: the settings they take, opening them over one cache directory (a
// temporary one when none is given), and the two facts a rebuild reads off them — the config's digest, which keys
// the cache record, and whether a fetch moved to another commit.
import { createHash } from "node:crypto";
import { mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Config } from "../config/index.js";
import { type Fetcher, fetchedKind, type LiveTiming, openFetchers, type Tree } from "../sources/index.js";

/** What the fetchers of a shelf service are opened with. */
export interface FetcherSettings {
  /** Where git fetches and local harvests are cached (`--cache-dir`). Absent: git uses a private temporary
   *  directory, removed on close, and local harvests are not recorded. */
  readonly cacheDir?: string;
  /** The environment git runs with and credentials' `{env: NAME}` are read from; the CLI passes the process's.
   *  Default: an empty one (git still runs; a credential read from it is unset). */
  readonly env?: NodeJS.ProcessEnv;
  /** How long a superseded export stays on disk for requests still reading the previous shelf. */
  readonly exportGraceMs?: number;
  readonly gitTimeoutMs?: number;
  /** How long one WebDAV listing or download may take (default 30 s). */
  readonly webdavTimeoutMs?: number;
  /** The revalidation timing of `cache: live` WebDAV sources (tests shorten it). */
  readonly liveTiming?: Partial<LiveTiming>;
}

export function movedCommit(before: ReadonlyMap<string, Tree>, after: ReadonlyMap<string, Tree>): boolean {
  for (const [key, tree] of after) {
    const previous = before.get(key);
    if (previous !== undefined && previous.commit !== tree.commit) return true;
  }
  return false;
}

/** Any change to the config discards the cache record. */
export function digestConfig(config: Config): string {
  return createHash("sha256").update(JSON.stringify(config)).digest("hex");
}

/** The fetchers a config needs, over one cache directory (a temporary one when none is given and a fetched source
 *  needs one). `onCooling` is set once the service exists: a live fetch that starts or stops cooling is then
 *  reported on /health by a rescan. */
export interface Fetchers {
  readonly byKind: ReadonlyMap<string, Fetcher>;
  readonly tempCacheDir: string | undefined;
  /** Absolute once, here: exported files are read back by path long after the working directory could change. */
  readonly givenCacheDir: string | undefined;
  onCooling: (key: string) => void;
}

export async function openFetchersOf(config: Config, configDigest: string, now: () => Date, options: FetcherSettings): Promise<Fetchers> {
  const needsCache = config.sources.some((source) => fetchedKind(source.kind) !== undefined);
  const givenCacheDir = options.cacheDir === undefined ? undefined : path.resolve(options.cacheDir);
  const tempCacheDir = givenCacheDir === undefined && needsCache ? await mkdtemp(path.join(os.tmpdir(), "skillshelf-cache-")) : undefined;
  const cacheDir = givenCacheDir ?? tempCacheDir;
  const fetchers: Fetchers = { byKind: new Map(), tempCacheDir, givenCacheDir, onCooling: () => undefined };
  if (cacheDir === undefined) return fetchers;
  const byKind = await openFetchers(
    config.sources,
    {
      cacheDir,
      configDigest,
      config,
      env: options.env ?? {},
      now,
      ...(options.exportGraceMs === undefined ? {} : { graceMs: options.exportGraceMs }),
      ...(options.liveTiming === undefined ? {} : { live: options.liveTiming }),
      // The same object: the fetchers' cooling callback reads `onCooling` from it once the service sets it.
      onCooling: (key) => fetchers.onCooling(key),
    },
    { git: options.gitTimeoutMs, webdav: options.webdavTimeoutMs },
  );
  return Object.assign(fetchers, { byKind });
}
