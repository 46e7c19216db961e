// The trees one build reads: each fetch key materialised once per build, whatever the number of plugins and
// marketplaces reading it (one clone for many plugins).
import fs from "node:fs";
import nodePath from "node:path";
import { SOURCE_KINDS, type SourceConfig } from "../config/index.js";
import type { FetchPlan } from "./fetch-plan.js";
import type { FailureKind, Fetcher, FetchRequest } from "./fetcher.js";

export interface Tree {
  readonly key: string;
  /** `local`, `failed` (nothing to fetch), or the kind of the source it was fetched through (`git`, `webdav`, …). */
  readonly kind: string;
  readonly status: "ok" | "stale" | "failed";
  /** Absolute root of the tree (internal). Absent when there is nothing to read. */
  readonly rootAbs?: string;
  /** What a fetched tree holds: the commit of a git tree, the digest of the listing a WebDAV export holds; absent
   *  for local folders, which can change under us at any time. */
  readonly commit?: string;
  readonly built?: string;
  readonly error?: string;
  readonly failure?: FailureKind;
  /** The source a fetched tree came through (its refresh interval and credentials). */
  readonly source?: string;
  /** A live fetch whose source failed a re-check: reads come from the export for a while. */
  readonly cooling?: boolean;
  /** Why it is cooling (a fixed sentence, never a URL or credential). */
  readonly coolingError?: string;
}

export interface TreeTableOptions {
  /** The fetcher of each source kind in use, by kind; a kind without one fails its fetches plainly. */
  readonly fetchers?: ReadonlyMap<string, Fetcher>;
  /** Whether this build asks the source of this fetch again (re-resolves a git ref, lists a WebDAV folder). */
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
    const kind = plan.source.kind;
    const fetcher = this.options.fetchers?.get(kind);
    if (fetcher === undefined) {
      const word = SOURCE_KINDS.get(kind)?.word ?? kind;
      const error = `${word} sources need a cache directory, and none was given`;
      return { key: plan.key, kind, status: "failed", error, source: plan.source.name };
    }
    const request: FetchRequest = {
      key: plan.key,
      source: plan.source,
      path: plan.path,
      ...(plan.ref === undefined ? {} : { ref: plan.ref }),
    };
    const fetched = await fetcher.materialize(request, this.options.refresh?.(plan.key, plan.source) ?? false);
    return {
      key: plan.key,
      kind,
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
