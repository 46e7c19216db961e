// A source kind that exists only in the tests, written the way a new kind is: this one file exports its rules and
// its fetcher as a `SourceKind`, and one `registerSourceKind(MEMORY_KIND)` line makes it known to the config, the
// address grammar and the shelf. Its sources are folders of files held in memory (`memory://<store>`), exported to
// the cache directory under a digest of their content; a store can be taken down to make the source unreachable.
import { createHash, randomBytes } from "node:crypto";
import { mkdir, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import type { SourceKindRules } from "../../src/config/index.js";
import {
  ExportRetention,
  type Fetched,
  type Fetcher,
  type FetcherContext,
  type FetchRequest,
  SourceFailure,
  type SourceKind,
} from "../../src/sources/index.js";

/** Folder path → (relative file path → text). */
export interface MemoryStore {
  readonly folders: Map<string, Record<string, string>>;
  down: boolean;
}

/** The stores `memory://<name>` sources read, by name. */
export const MEMORY_STORES = new Map<string, MemoryStore>();

const RULES: SourceKindRules = { kind: "memory", word: "memory", schemes: ["memory"], refs: false };

class MemoryFetcher implements Fetcher {
  private readonly states = new Map<string, Fetched>();
  private readonly inflight = new Map<string, Promise<Fetched>>();
  private readonly exports: ExportRetention;

  constructor(private readonly context: FetcherContext) {
    this.exports = new ExportRetention(context.graceMs ?? 60_000, (dir) => rm(dir, { recursive: true, force: true }));
  }

  materialize(request: FetchRequest, refresh: boolean): Promise<Fetched> {
    const running = this.inflight.get(request.key);
    if (running !== undefined) return running;
    const job = this.once(request, refresh).finally(() => this.inflight.delete(request.key));
    this.inflight.set(request.key, job);
    return job;
  }

  private async once(request: FetchRequest, refresh: boolean): Promise<Fetched> {
    const known = this.states.get(request.key);
    // A known tree (or failure) serves until a refresh asks the store again.
    if (known !== undefined && !refresh) return known;
    let next: Fetched;
    try {
      next = await this.fetch(request, known);
    } catch (error) {
      const failure = error instanceof SourceFailure ? error : new SourceFailure("memory", "other", "the store failed");
      next =
        known?.dir === undefined
          ? { key: request.key, status: "failed", error: failure.message, failure: failure.kind }
          : { ...known, status: "stale", error: `refresh failed: ${failure.message}; serving the last export`, failure: failure.kind };
    }
    this.states.set(request.key, next);
    if (next.dir !== undefined) this.exports.add(next.dir);
    return next;
  }

  private async fetch(request: FetchRequest, known: Fetched | undefined): Promise<Fetched> {
    const store = MEMORY_STORES.get(new URL(request.source.url).host);
    if (store === undefined || store.down) throw new SourceFailure("memory", "unreachable", "the store could not be reached");
    const files = store.folders.get(request.path);
    if (files === undefined) throw new SourceFailure("memory", "missing", `the folder /${request.path} does not exist`);
    const version = createHash("sha256")
      .update(JSON.stringify(Object.entries(files).sort()))
      .digest("hex");
    const dir = path.join(this.context.cacheDir, "memory", version);
    if (!(await exists(dir))) {
      const temp = `${dir}.${randomBytes(6).toString("hex")}.tmp`;
      for (const [rel, text] of Object.entries(files)) {
        await mkdir(path.dirname(path.join(temp, rel)), { recursive: true });
        await writeFile(path.join(temp, rel), text);
      }
      await rename(temp, dir);
    }
    const built = known?.version === version && known.built !== undefined ? known.built : this.context.now().toISOString();
    return { key: request.key, status: "ok", dir, version, built };
  }

  retain(keys: Iterable<string>): Promise<void> {
    const wanted = new Set(keys);
    for (const key of [...this.states.keys()]) if (!wanted.has(key)) this.states.delete(key);
    this.exports.retain([...this.states.values()].flatMap((state) => (state.dir === undefined ? [] : [state.dir])));
    return Promise.resolve();
  }

  close(): Promise<void> {
    return this.exports.close();
  }
}

async function exists(dir: string): Promise<boolean> {
  return stat(dir).then(
    () => true,
    () => false,
  );
}

export const MEMORY_KIND: SourceKind = { rules: RULES, open: (context) => Promise.resolve(new MemoryFetcher(context)) };
