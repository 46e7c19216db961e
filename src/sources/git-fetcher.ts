// Git fetches and their states: each fetch key serves one exported commit. A refresh re-resolves a branch or tag
// and exports the new commit beside the old; a failed refresh keeps the last good tree (`stale`); a pinned commit
// never touches the network once exported. Superseded exports are removed after a grace period, so a request that
// started on the previous shelf can still finish reading it.
import { readdir, rm, stat } from "node:fs/promises";
import { ExportRetention } from "./export-retention.js";
import path from "node:path";
import { GIT_RULES, type SourceConfig } from "../config/index.js";
import { readCacheRecord, writeCacheRecord, type RecordedFetch } from "./cache-record.js";
import { COMMIT } from "./fetch-plan.js";
import type { Fetched, Fetcher, FetchRequest, SourceKind } from "./fetcher.js";
import { asGitFailure } from "./git-errors.js";
import { GitRunner } from "./git-runner.js";
import { formatRepositoryId, GitStore } from "./git-store.js";
import { isDirectory } from "./directories.js";

const DEFAULT_EXPORT_GRACE_MS = 5 * 60_000;
/** Leftovers of a build that crashed are removed when older than this. */
const STALE_BUILD_MS = 60 * 60_000;

/** A git request as the store needs it: the repository URL git is given (never with userinfo: config refuses it). */
interface GitFetchRequest extends FetchRequest {
  readonly url: string;
}

/** `version` is the commit served. */
interface State extends Fetched {
  readonly repo?: string;
  readonly oid?: string;
}

export interface GitFetcherOptions {
  readonly cacheDir: string;
  /** Digest of the config: the cache record written under another config is discarded. */
  readonly configDigest: string;
  readonly env: NodeJS.ProcessEnv;
  readonly now: () => Date;
  readonly graceMs?: number;
  readonly timeoutMs?: number;
}

export class GitFetcher implements Fetcher {
  private readonly states = new Map<string, State>();
  private readonly inflight = new Map<string, Promise<Fetched>>();
  /** Every export directory this process knows of → the timer removing it, once superseded. */
  private readonly exports: ExportRetention;
  private savedRecord = "";

  private constructor(
    private readonly options: GitFetcherOptions,
    private readonly runner: GitRunner,
    private readonly store: GitStore,
  ) {
    this.exports = new ExportRetention(options.graceMs ?? DEFAULT_EXPORT_GRACE_MS, (dir) => rm(dir, { recursive: true, force: true }));
  }

  static async open(options: GitFetcherOptions): Promise<GitFetcher> {
    const runner = await GitRunner.create({
      env: options.env,
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    });
    const fetcher = new GitFetcher(options, runner, new GitStore(options.cacheDir, runner));
    await fetcher.load();
    return fetcher;
  }

  /** A tree for `request`. `refresh` re-resolves a branch or tag ref on the remote; without it a known tree is
   *  served as is. Concurrent calls for one key share one fetch. Never throws: failure is a state. */
  materialize(request: FetchRequest, refresh: boolean): Promise<Fetched> {
    const running = this.inflight.get(request.key);
    if (running !== undefined) return running;
    const url = formatRepositoryUrl(request.source, request.path);
    const job = this.materializeOnce({ ...request, url }, refresh)
      .then(withoutRecord)
      .finally(() => this.inflight.delete(request.key));
    this.inflight.set(request.key, job);
    return job;
  }

  private async materializeOnce(request: GitFetchRequest, refresh: boolean): Promise<Fetched> {
    const repo = formatRepositoryId(request.url);
    const previous = this.states.get(request.key);
    const known = previous?.dir !== undefined && previous.repo === repo && (await isDirectory(previous.dir)) ? previous : undefined;
    const pinned = request.ref !== undefined && COMMIT.test(request.ref);
    if (known !== undefined && (pinned || !refresh)) return known;
    // A failed fetch is tried again on a refresh, not on every rebuild a local change triggers.
    if (previous?.status === "failed" && !refresh) return previous;
    let next: State;
    try {
      next = pinned ? await this.fetchPinned(request, repo) : await this.fetchMoving(request, repo, known);
    } catch (error) {
      const failure = asGitFailure(error, "the fetch");
      next =
        known === undefined
          ? { key: request.key, status: "failed", error: failure.message, failure: failure.kind }
          : { ...known, status: "stale", error: `refresh failed: ${failure.message}; serving the last good tree`, failure: failure.kind };
    }
    this.states.set(request.key, next);
    if (next.dir !== undefined) this.exports.add(next.dir);
    return next;
  }

  private async fetchPinned(request: GitFetchRequest, repo: string): Promise<State> {
    const commit = request.ref as string;
    const dir = this.store.treeDir(repo, commit);
    // Exported once, served forever: the commit cannot change.
    if (!(await isDirectory(dir))) {
      await this.store.withRepository(repo, async () => {
        const gitDir = await this.store.ensureRepository(repo);
        if (!(await this.store.hasCommit(gitDir, commit))) await this.store.fetchCommit(gitDir, request.url, commit, request.source);
        await this.store.exportCommit(repo, gitDir, commit);
      });
    }
    const previous = this.states.get(request.key);
    const built = previous?.version === commit && previous.built !== undefined ? previous.built : this.options.now().toISOString();
    return { key: request.key, status: "ok", dir, version: commit, built, repo, oid: commit };
  }

  private async fetchMoving(request: GitFetchRequest, repo: string, known: State | undefined): Promise<State> {
    const remote = await this.store.resolveRemote(request.url, request.ref, request.source);
    // The remote still names what we exported: nothing to fetch (and a stale fetch recovers).
    if (known !== undefined && known.oid === remote.oid) return { ...withoutError(known), status: "ok" };
    return this.store.withRepository(repo, async () => {
      const gitDir = await this.store.ensureRepository(repo);
      const commit = await this.store.fetchRef(gitDir, request.url, remote, request.source);
      const dir = await this.store.exportCommit(repo, gitDir, commit);
      const built = known?.version === commit && known.built !== undefined ? known.built : this.options.now().toISOString();
      return { key: request.key, status: "ok", dir, version: commit, built, repo, oid: remote.oid };
    });
  }

  /** The fetch keys the current shelf uses: every export none of them serves is removed after the grace period,
   *  states of keys no longer used are forgotten, and the cache record is written when it changed. */
  async retain(keys: Iterable<string>): Promise<void> {
    const wanted = new Set(keys);
    for (const key of [...this.states.keys()]) if (!wanted.has(key)) this.states.delete(key);
    this.exports.retain([...this.states.values()].flatMap((state) => (state.dir === undefined ? [] : [state.dir])));
    await this.saveRecord();
  }

  /** Write the record of every served tree when it changed since the last write. */
  private async saveRecord(): Promise<void> {
    const fetches = new Map<string, RecordedFetch>();
    for (const [key, state] of this.states) {
      if (state.repo !== undefined && state.version !== undefined && state.oid !== undefined && state.built !== undefined) {
        fetches.set(key, { repo: state.repo, commit: state.version, oid: state.oid, built: state.built });
      }
    }
    const text = JSON.stringify([...fetches]);
    if (text === this.savedRecord) return;
    await writeCacheRecord(this.options.cacheDir, this.options.configDigest, fetches);
    this.savedRecord = text;
  }

  /** Stop the removal timers and remove what they were waiting for: nothing serves it after close. */
  async close(): Promise<void> {
    await this.exports.close();
    await this.runner.close();
  }

  private async load(): Promise<void> {
    await this.sweepBuilds();
    const recorded = await readCacheRecord(this.options.cacheDir, this.options.configDigest);
    for (const [key, entry] of recorded) {
      const dir = this.store.treeDir(entry.repo, entry.commit);
      if (!(await isDirectory(dir))) continue;
      this.states.set(key, { key, status: "ok", dir, version: entry.commit, built: entry.built, repo: entry.repo, oid: entry.oid });
      this.exports.add(dir);
    }
    this.savedRecord = JSON.stringify([...recorded].filter(([key]) => this.states.has(key)));
  }

  /** Remove half-built exports and repositories a crashed process left behind. */
  private async sweepBuilds(): Promise<void> {
    const cutoff = this.options.now().getTime() - STALE_BUILD_MS;
    const candidates: string[] = [];
    for (const parent of [
      path.join(this.options.cacheDir, "repos"),
      ...(await subdirectories(path.join(this.options.cacheDir, "trees"))),
    ]) {
      for (const name of await names(parent)) {
        if (name.endsWith(".tmp") || name.endsWith(".tmp.index")) candidates.push(path.join(parent, name));
      }
    }
    for (const candidate of candidates) {
      try {
        if ((await stat(candidate)).mtimeMs < cutoff) await rm(candidate, { recursive: true, force: true });
      } catch {
        // Gone already, or another process's business: nothing to do.
      }
    }
  }
}

/** What a fetch gives: the state without what only the cache record needs. */
function withoutRecord(state: State): Fetched {
  const { repo: _repo, oid: _oid, ...fetched } = state;
  return fetched;
}

function withoutError(state: State): State {
  const { error: _error, failure: _failure, ...rest } = state;
  return rest;
}

async function names(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch {
    return [];
  }
}

async function subdirectories(dir: string): Promise<string[]> {
  return (await names(dir)).map((name) => path.join(dir, name));
}

/** `git+https://github.com` + `grafana/skills` => `https://github.com/grafana/skills`. */
function formatRepositoryUrl(source: SourceConfig, repoPath: string): string {
  const base = source.url.replace(/^git\+/, "").replace(/\/+$/, "");
  return repoPath === "" ? base : `${base}/${repoPath}`;
}

/** Git repositories: `git+https://`, `git+http://`, `git+file://` sources, fetched with the system `git`. */
export const GIT_KIND: SourceKind = {
  rules: GIT_RULES,
  open: (context) =>
    GitFetcher.open({
      cacheDir: context.cacheDir,
      configDigest: context.configDigest,
      env: context.env,
      now: context.now,
      ...(context.graceMs === undefined ? {} : { graceMs: context.graceMs }),
      ...(context.timeoutMs === undefined ? {} : { timeoutMs: context.timeoutMs }),
    }),
};
