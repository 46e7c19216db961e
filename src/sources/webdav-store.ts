// The WebDAV half of the cache directory: one folder of exports per share folder and account, each export named by
// the digest of the listing it holds, with that listing beside it (what the next export links unchanged files from,
// and what a cold start serves while the share cannot be listed).
//
//   <cache>/webdav/<id>/<digest>/        the folder's files as listed, never modified once renamed into place
//   <cache>/webdav/<id>/<digest>.json    the listing: [path, {tag, size}] pairs
import { readdir, readFile, rm, stat } from "node:fs/promises";
import path from "node:path";
import { isDirectory } from "./directories.js";
import { formatRepositoryId } from "./git-store.js";
import type { DavEntry, DavFolder, DavListing } from "./webdav-share.js";

/** Leftovers of a build that crashed are removed when older than this. */
const STALE_BUILD_MS = 60 * 60_000;

/** An export on disk: its directory, the digest of its listing, when it was made, and the listing. */
export interface DavExport {
  readonly dir: string;
  readonly version: string;
  readonly built: string;
  readonly listing: DavListing;
}

export class DavStore {
  constructor(private readonly cacheDir: string) {}

  /** `<cache>/webdav/<id>`: one folder of exports per share folder and account (a digest: no path names a host). */
  baseDir(folder: DavFolder): string {
    const username = folder.source.auth?.username;
    const id = formatRepositoryId(`${folder.url}\n${folder.path}\n${JSON.stringify(username ?? null)}`);
    return path.join(this.cacheDir, "webdav", id);
  }

  /** The newest export of `base` whose listing is on disk: what a changed folder reuses after a restart, and what a
   *  cold start serves (stale) while the share cannot be listed. */
  async lastExport(base: string): Promise<DavExport | undefined> {
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
      const entries = JSON.parse(await readFile(listingFile(path.join(base, newest.version)), "utf8")) as [string, DavEntry][];
      const listing: DavListing = new Map(entries.filter(([rel, entry]) => typeof rel === "string" && typeof entry?.tag === "string"));
      return { dir: path.join(base, newest.version), version: newest.version, built: new Date(newest.mtimeMs).toISOString(), listing };
    } catch {
      return undefined;
    }
  }

  /** Remove one export and its listing. */
  async remove(dir: string): Promise<void> {
    await rm(dir, { recursive: true, force: true });
    await rm(listingFile(dir), { force: true });
  }

  /** Remove half-built exports a crashed process left behind (older than an hour at `nowMs`). */
  async sweepBuilds(nowMs: number): Promise<void> {
    const cutoff = nowMs - STALE_BUILD_MS;
    const root = path.join(this.cacheDir, "webdav");
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

/** The listing written beside the export `dir`. */
export function listingFile(dir: string): string {
  return `${dir}.json`;
}

async function names(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch {
    return [];
  }
}
