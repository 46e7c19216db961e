// The git half of the cache directory: one bare repository per repository URL, and one exported tree per
// commit. Both are built beside their final place and renamed into it, so a crash never leaves half of one.
//
//   <cache>/repos/<id>.git          bare repository (id: a digest of the URL, so no path names a host or user)
//   <cache>/trees/<id>/<commit>/    the commit's files, exported once and never modified
import { createHash, randomBytes } from "node:crypto";
import { mkdir, rename, rm } from "node:fs/promises";
import path from "node:path";
import type { SourceConfig } from "../config/index.js";
import { gitFailure } from "./git-errors.js";
import { SourceFailure } from "./fetcher.js";
import type { GitRunner } from "./git-runner.js";
import { isDirectory } from "./directories.js";

/** A ref as the remote answered it: the full ref name and the object it names (a tag object for annotated tags). */
export interface RemoteRef {
  readonly ref: string;
  readonly oid: string;
}

/** `https://github.com/grafana/skills` => 20 hex digits. */
export function formatRepositoryId(url: string): string {
  return createHash("sha256").update(url).digest("hex").slice(0, 20);
}

export class GitStore {
  private readonly locks = new Map<string, Promise<unknown>>();

  constructor(
    readonly cacheDir: string,
    private readonly git: GitRunner,
  ) {}

  repositoryDir(id: string): string {
    return path.join(this.cacheDir, "repos", `${id}.git`);
  }

  treeDir(id: string, commit: string): string {
    return path.join(this.cacheDir, "trees", id, commit);
  }

  /** Operations on one bare repository run one at a time (git's own ref locks would fail the second). */
  async withRepository<T>(id: string, work: () => Promise<T>): Promise<T> {
    const previous = this.locks.get(id) ?? Promise.resolve();
    const run = previous.then(work, work);
    const tail = run.catch(() => undefined);
    this.locks.set(id, tail);
    try {
      return await run;
    } finally {
      if (this.locks.get(id) === tail) this.locks.delete(id);
    }
  }

  /** What `ref` names on the remote: a branch first, then a tag; no ref = the remote's default branch. */
  async resolveRemote(url: string, ref: string | undefined, source: SourceConfig): Promise<RemoteRef> {
    if (ref === undefined) {
      const out = await this.git.run(["ls-remote", "--symref", "--", url, "HEAD"], { source, action: "ls-remote" });
      const lines = parseLsRemote(out);
      const head = lines.find((line) => line.ref === "HEAD" && line.symref === undefined);
      const target = lines.find((line) => line.ref === "HEAD" && line.symref !== undefined)?.symref;
      if (head === undefined) throw gitFailure("ref", "the repository has no default branch (it may be empty)");
      // The remote names its default branch; a name we would not accept in a config is fetched as plain HEAD.
      return { ref: target !== undefined && isBranchRef(target) ? target : "HEAD", oid: head.oid };
    }
    const branch = `refs/heads/${ref}`;
    const tag = `refs/tags/${ref}`;
    const out = await this.git.run(["ls-remote", "--", url, branch, tag], { source, action: "ls-remote" });
    const lines = parseLsRemote(out);
    // ls-remote matches patterns on ref tails; only the exact names count.
    const found = lines.find((line) => line.ref === branch) ?? lines.find((line) => line.ref === tag);
    if (found === undefined) throw gitFailure("ref", `ref '${ref}' is neither a branch nor a tag of the repository`);
    return found;
  }

  /** The bare repository for `id`, created (beside, then renamed) on first use. */
  async ensureRepository(id: string): Promise<string> {
    const dir = this.repositoryDir(id);
    if (await isDirectory(dir)) return dir;
    await mkdir(path.dirname(dir), { recursive: true, mode: 0o700 });
    const building = `${dir}.${randomBytes(6).toString("hex")}.tmp`;
    // An empty template: no sample hooks, no description file, nothing the repository did not need.
    await this.git.run(["init", "--quiet", "--bare", "--template=", "--", building], { action: "init" });
    try {
      await rename(building, dir);
    } catch (error) {
      await rm(building, { recursive: true, force: true });
      if (!(await isDirectory(dir))) throw error;
    }
    return dir;
  }

  /** Fetch `remote.ref` into the same name locally and answer the commit it names now. */
  async fetchRef(gitDir: string, url: string, remote: RemoteRef, source: SourceConfig): Promise<string> {
    // HEAD itself (a remote with a detached HEAD) is kept under our own namespace.
    const local = remote.ref === "HEAD" ? "refs/skillshelf/HEAD" : remote.ref;
    await this.git.run(
      ["--git-dir", gitDir, "fetch", "--quiet", "--no-tags", "--no-write-fetch-head", "--", url, `+${remote.ref}:${local}`],
      { source, action: "fetch" },
    );
    return this.commitOf(gitDir, local, remote.ref.startsWith("refs/tags/") ? remote.ref.slice("refs/tags/".length) : remote.ref);
  }

  /** Fetch one commit by its id (kept reachable under refs/skillshelf/pins so no gc ever drops it). */
  async fetchCommit(gitDir: string, url: string, commit: string, source: SourceConfig): Promise<void> {
    try {
      await this.git.run(
        [
          "--git-dir",
          gitDir,
          "fetch",
          "--quiet",
          "--no-tags",
          "--no-write-fetch-head",
          "--",
          url,
          `+${commit}:refs/skillshelf/pins/${commit}`,
        ],
        { source, action: "fetch" },
      );
    } catch (error) {
      // A server that refuses a want by id: take every branch and tag, then look for the commit among them.
      if (error instanceof SourceFailure && error.kind === "auth") throw error;
      await this.git.run(
        [
          "--git-dir",
          gitDir,
          "fetch",
          "--quiet",
          "--no-tags",
          "--no-write-fetch-head",
          "--",
          url,
          "+refs/heads/*:refs/heads/*",
          "+refs/tags/*:refs/tags/*",
        ],
        { source, action: "fetch" },
      );
    }
    if (!(await this.hasCommit(gitDir, commit))) throw gitFailure("ref", `commit ${commit} is not in the repository`);
  }

  async hasCommit(gitDir: string, commit: string): Promise<boolean> {
    try {
      await this.git.run(["--git-dir", gitDir, "cat-file", "-e", `${commit}^{commit}`], { action: "cat-file" });
      return true;
    } catch {
      return false;
    }
  }

  /** The exported tree of `commit`, made once: files checked out into a fresh directory renamed into place. */
  async exportCommit(id: string, gitDir: string, commit: string): Promise<string> {
    const dir = this.treeDir(id, commit);
    if (await isDirectory(dir)) return dir;
    await mkdir(path.dirname(dir), { recursive: true, mode: 0o700 });
    const building = path.join(path.dirname(dir), `.${commit}.${randomBytes(6).toString("hex")}.tmp`);
    // A private index file: the bare repository has no worktree, and two exports must not share one index.
    const index = `${building}.index`;
    await mkdir(building, { mode: 0o755 });
    try {
      const env = { GIT_INDEX_FILE: index };
      await this.git.run(["--git-dir", gitDir, "read-tree", commit], { env, action: "read-tree" });
      await this.git.run(["--git-dir", gitDir, "--work-tree", building, "checkout-index", "--all", "--force"], {
        env,
        action: "checkout-index",
      });
      try {
        await rename(building, dir);
      } catch (error) {
        // Another export of the same commit won the rename: the trees are identical, keep that one.
        if (!(await isDirectory(dir))) throw error;
      }
    } finally {
      await rm(building, { recursive: true, force: true });
      await rm(index, { force: true });
    }
    return dir;
  }

  private async commitOf(gitDir: string, local: string, shown: string): Promise<string> {
    try {
      const out = await this.git.run(["--git-dir", gitDir, "rev-parse", "--verify", "--quiet", `${local}^{commit}`], {
        action: "rev-parse",
      });
      return out.trim();
    } catch {
      throw gitFailure("ref", `ref '${shown}' does not name a commit`);
    }
  }
}

/** `refs/heads/main` => true; anything with `..`, `:`, a leading `-` or odd characters => false. */
export function isBranchRef(ref: string): boolean {
  return (
    /^refs\/heads\/[A-Za-z0-9._+@][A-Za-z0-9._+@/-]*$/.test(ref) &&
    !ref.includes("..") &&
    !ref.includes("//") &&
    !ref.endsWith("/") &&
    !ref.endsWith(".lock")
  );
}

interface LsRemoteLine {
  readonly ref: string;
  readonly oid: string;
  readonly symref?: string;
}

/** `ref: refs/heads/main\tHEAD` and `<oid>\t<ref>` lines. */
export function parseLsRemote(out: string): LsRemoteLine[] {
  const lines: LsRemoteLine[] = [];
  for (const line of out.split("\n")) {
    const tab = line.indexOf("\t");
    if (tab === -1) continue;
    const left = line.slice(0, tab);
    const ref = line.slice(tab + 1).trim();
    if (left.startsWith("ref: ")) lines.push({ ref, oid: "", symref: left.slice(5).trim() });
    else lines.push({ ref, oid: left.trim() });
  }
  return lines;
}
