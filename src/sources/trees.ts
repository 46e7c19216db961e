// The trees one build reads: each fetch key materialised once per build, whatever the number of plugins and
// marketplaces reading it (one clone for many plugins).
import fs from "node:fs";
import nodePath from "node:path";
import type { SourceConfig } from "../config/index.js";
import type { FetchPlan } from "./fetch-plan.js";
import type { GitFailureKind } from "./git-errors.js";
import type { FetchedTree, GitFetchRequest } from "./git-fetcher.js";
import type { DavFetchedTree, WebdavFetchRequest } from "./webdav-fetcher.js";

/** What materialises git trees: the GitFetcher, or a stand-in in tests. */
export interface GitTrees {
  materialize(request: GitFetchRequest, refresh: boolean): Promise<FetchedTree>;
}

/** What materialises WebDAV exports: the WebdavFetcher, or a stand-in in tests. */
export interface WebdavTrees {
  materialize(request: WebdavFetchRequest, refresh: boolean): Promise<DavFetchedTree>;
}

export interface Tree {
  readonly key: string;
  readonly kind: "local" | "git" | "webdav" | "failed";
  readonly status: "ok" | "stale" | "failed";
  /** Absolute root of the tree (internal). Absent when there is nothing to read. */
  readonly rootAbs?: string;
  /** The commit a git tree holds, or the digest of the listing a WebDAV export holds; absent for local folders,
   *  which can change under us at any time. */
  readonly commit?: string;
  readonly built?: string;
  readonly error?: string;
  readonly failure?: GitFailureKind;
  /** The source a git or WebDAV tree came through (its refresh interval and credentials). */
  readonly source?: string;
  /** A live WebDAV fetch whose share failed a revalidation: reads come from the export for a while. */
  readonly cooling?: boolean;
  /** Why it is cooling (a fixed sentence, never a URL or credential). */
  readonly coolingError?: string;
}

export interface TreeTableOptions {
  readonly git?: GitTrees;
  readonly webdav?: WebdavTrees;
  /** Whether this build re-resolves the refs of this git fetch (or lists this WebDAV folder) on the remote. */
  readonly refresh?: (key: string, source: SourceConfig) => boolean;
}

export class TreeTable {
  private readonly trees = new Map<string, Promise<Tree>>();

  constructor(private readonly options: TreeTableOptions) {}

  get(plan: FetchPlan): Promise<Tree> {
    let tree = this.trees.get(plan.key);
    if (tree === undefined) {
      tree = this.materialize(plan);
      this.trees.set(plan.key, tree);
    }
    return tree;
  }

  /** Every tree this build asked for, by fetch key. */
  async all(): Promise<Map<string, Tree>> {
    const entries = await Promise.all([...this.trees].map(async ([key, tree]) => [key, await tree] as const));
    return new Map(entries);
  }

  private async materialize(plan: FetchPlan): Promise<Tree> {
    if (plan.kind === "local") return { key: plan.key, kind: "local", status: "ok", rootAbs: plan.abs };
    if (plan.kind === "failed") return { key: plan.key, kind: "failed", status: "failed", error: plan.error };
    if (plan.kind === "webdav") return this.materializeWebdav(plan);
    const git = this.options.git;
    if (git === undefined) {
      return {
        key: plan.key,
        kind: "git",
        status: "failed",
        error: "git sources need a cache directory, and none was given",
        source: plan.source.name,
      };
    }
    const request: GitFetchRequest = {
      key: plan.key,
      url: plan.url,
      source: plan.source,
      ...(plan.ref === undefined ? {} : { ref: plan.ref }),
    };
    const fetched = await git.materialize(request, this.options.refresh?.(plan.key, plan.source) ?? false);
    return {
      key: plan.key,
      kind: "git",
      status: fetched.status,
      source: plan.source.name,
      ...(fetched.dir === undefined ? {} : { rootAbs: fetched.dir }),
      ...(fetched.commit === undefined ? {} : { commit: fetched.commit }),
      ...(fetched.built === undefined ? {} : { built: fetched.built }),
      ...(fetched.error === undefined ? {} : { error: fetched.error }),
      ...(fetched.failure === undefined ? {} : { failure: fetched.failure }),
    };
  }

  private async materializeWebdav(plan: FetchPlan & { kind: "webdav" }): Promise<Tree> {
    const webdav = this.options.webdav;
    if (webdav === undefined) {
      return {
        key: plan.key,
        kind: "webdav",
        status: "failed",
        error: "WebDAV sources need a cache directory, and none was given",
        source: plan.source.name,
      };
    }
    const request: WebdavFetchRequest = { key: plan.key, url: plan.url, path: plan.path, source: plan.source };
    const fetched = await webdav.materialize(request, this.options.refresh?.(plan.key, plan.source) ?? false);
    return {
      key: plan.key,
      kind: "webdav",
      status: fetched.status,
      source: plan.source.name,
      ...(fetched.dir === undefined ? {} : { rootAbs: fetched.dir }),
      ...(fetched.version === undefined ? {} : { commit: fetched.version }),
      ...(fetched.built === undefined ? {} : { built: fetched.built }),
      ...(fetched.error === undefined ? {} : { error: fetched.error }),
      ...(fetched.failure === undefined ? {} : { failure: fetched.failure }),
      ...(fetched.cooling === true ? { cooling: true } : {}),
      ...(fetched.coolingError === undefined ? {} : { coolingError: fetched.coolingError }),
    };
  }
}

export type InsideResult = { readonly ok: true; readonly abs: string } | { readonly ok: false; readonly error: string };

/**
 * `subdir` of a tree, refused when a symlink on the way leads out of the tree: the walk would otherwise read
 * whatever the link names (a crafted repository could point it at /etc). A missing subdir is not refused here:
 * harvest reports it as a missing plugin root.
 */
export function resolveInside(rootAbs: string, subdir: string, fetch: string): InsideResult {
  if (subdir === "") return { ok: true, abs: rootAbs };
  const abs = nodePath.join(rootAbs, ...subdir.split("/"));
  let rootReal: string;
  let real: string;
  try {
    rootReal = fs.realpathSync.native(rootAbs);
    real = fs.realpathSync.native(abs);
  } catch {
    return { ok: true, abs };
  }
  const prefix = rootReal.endsWith(nodePath.sep) ? rootReal : rootReal + nodePath.sep;
  if (real !== rootReal && !real.startsWith(prefix)) {
    return { ok: false, error: `The subdirectory ${subdir} of fetch ${fetch} leads out of the fetch through a symlink.` };
  }
  return { ok: true, abs };
}
