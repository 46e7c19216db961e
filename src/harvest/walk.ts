// The one walk of a plugin root: every regular file reachable under it, by the name it was reached by.
import fs, { type Dirent } from "node:fs";
import nodePath from "node:path";

import type { GlobSet } from "./globs.js";
import type { Pacer } from "./pacer.js";
import { errorCode, isHiddenSegment, joinPath } from "../address/index.js";
import type { DiskFile } from "./types.js";

/** Folders never walked, whatever a glob spells: dependencies and version-control stores. */
const NEVER_WALKED: ReadonlySet<string> = new Set(["node_modules", ".git", ".hg", ".svn", ".bzr", "_darcs", "CVS"]);

export interface WalkEntry extends DiskFile {
  /** Some segment of `path` is hidden; the entry is only here because a glob spelled that segment out. */
  readonly hidden: boolean;
  /** Some execute bit is set (the guard's rule on executables outside `scripts/`). */
  readonly executable: boolean;
}

export interface WalkResult {
  /** In walk order (unsorted). */
  readonly files: WalkEntry[];
  /** Paths of symlinks whose target lies outside the root: dropped, reported only where they would be served. */
  readonly escapes: string[];
  /** Directories that could not be listed (permissions, I/O), by path relative to the root (`.` the root), with
   *  the error code: reported as skipped rows, never silently dropped. */
  readonly unreadable: { readonly path: string; readonly code: string }[];
  /** Paths of `SKILL.md` files inside hidden folders no glob opts in to: never harvested, reported as skipped. */
  readonly hiddenSkills: string[];
}

export type RootCheck = { readonly ok: true; readonly real: string } | { readonly ok: false; readonly problem: "missing" | "notDirectory" };

/** The root's real path, the base of every containment check. */
export function openRoot(rootAbs: string): RootCheck {
  try {
    const real = fs.realpathSync.native(rootAbs);
    return fs.statSync(real).isDirectory() ? { ok: true, real } : { ok: false, problem: "notDirectory" };
  } catch {
    return { ok: false, problem: "missing" };
  }
}

interface PendingDir {
  readonly real: string;
  readonly rel: string;
  readonly hidden: boolean;
  /** Real paths of the directories on the way down, so a link back up is a loop, not a descent. */
  readonly chain: readonly string[];
}

/**
 * Walk `rootReal` once. Skips `node_modules/`, version-control folders and hidden names (§3.2) unless `optIns` matches the path; follows a
 * symlink only when its real target lies inside the root (ConfigMap mounts are made of such links), and drops it
 * when the target leaves the root, dangles, or is a directory already on the way down (a loop).
 */
export async function walkRoot(rootReal: string, optIns: GlobSet, pacer: Pacer): Promise<WalkResult> {
  const walk = new RootWalk(rootReal, optIns);
  const stack: PendingDir[] = [{ real: rootReal, rel: "", hidden: false, chain: [] }];
  for (let dir = stack.pop(); dir !== undefined; dir = stack.pop()) {
    if (pacer.due()) await pacer.pause();
    stack.push(...walk.enter(dir));
  }
  return walk.result;
}

/** What one walk found so far, and how it treats one directory entry. */
class RootWalk {
  readonly result: WalkResult = { files: [], escapes: [], unreadable: [], hiddenSkills: [] };
  private readonly rootPrefix: string;

  constructor(
    private readonly rootReal: string,
    private readonly optIns: GlobSet,
  ) {
    this.rootPrefix = rootReal.endsWith(nodePath.sep) ? rootReal : rootReal + nodePath.sep;
  }

  /** Record the files of `dir`; answer the directories below it still to walk. */
  enter(dir: PendingDir): PendingDir[] {
    let dirents: Dirent[];
    try {
      dirents = fs.readdirSync(dir.real, { withFileTypes: true });
    } catch (error) {
      // Unreadable (permissions, I/O): reported, and the rest of the plugin still serves. Vanished: nothing to say.
      const code = errorCode(error);
      if (code !== "ENOENT") this.result.unreadable.push({ path: dir.rel === "" ? "." : dir.rel, code });
      return [];
    }
    const chain = [...dir.chain, dir.real];
    const below: PendingDir[] = [];
    for (const dirent of dirents) {
      const next = this.visit(dir, chain, dirent);
      if (next !== null) below.push(next);
    }
    return below;
  }

  /** One entry of `dir`: a file is recorded, a directory to walk is answered, anything else is passed over. */
  private visit(dir: PendingDir, chain: readonly string[], dirent: Dirent): PendingDir | null {
    const name = dirent.name;
    if (NEVER_WALKED.has(name)) return null;
    const path = joinPath(dir.rel, name);
    const hiddenName = isHiddenSegment(name);
    if (hiddenName && !this.optIns.match(path)) {
      // `..data`-style folders are a ConfigMap mount's internals, served through its visible links.
      if (dirent.isDirectory() && !name.startsWith("..")) findSkillMds(nodePath.join(dir.real, name), path, this.result.hiddenSkills);
      return null;
    }
    const abs = nodePath.join(dir.real, name);
    const hidden = dir.hidden || hiddenName;
    if (dirent.isDirectory()) return { real: abs, rel: path, hidden, chain };
    if (dirent.isFile()) {
      const stat = statOf(abs);
      if (stat?.isFile()) this.addFile(abs, path, hidden, stat);
      return null;
    }
    // Sockets, FIFOs and devices are never harvested.
    return dirent.isSymbolicLink() ? this.followLink(abs, path, hidden, chain) : null;
  }

  /** A link is followed only to a real path inside the root, and never back up the directories it sits in. */
  private followLink(abs: string, path: string, hidden: boolean, chain: readonly string[]): PendingDir | null {
    let real: string;
    try {
      real = fs.realpathSync.native(abs);
    } catch {
      return null; // Dangling, or a loop of links (ELOOP).
    }
    // Containment on real paths: a link that resolves outside the root must never be read through.
    if (real !== this.rootReal && !real.startsWith(this.rootPrefix)) {
      this.result.escapes.push(path);
      return null;
    }
    const stat = statOf(real);
    if (stat?.isDirectory()) return chain.includes(real) ? null : { real, rel: path, hidden, chain };
    // The real path, not the link: a link re-pointed after harvest cannot redirect a read outside the root.
    if (stat?.isFile()) this.addFile(real, path, hidden, stat);
    return null;
  }

  private addFile(real: string, path: string, hidden: boolean, stat: fs.Stats): void {
    this.result.files.push({ path, abs: real, size: stat.size, mtimeMs: stat.mtimeMs, hidden, executable: (stat.mode & 0o111) !== 0 });
  }
}

function statOf(abs: string): fs.Stats | undefined {
  try {
    return fs.statSync(abs, { throwIfNoEntry: false });
  } catch {
    return undefined; // Unreadable: nothing to serve.
  }
}

/** The `SKILL.md` files under a hidden directory the walk does not enter, found by name alone (directory entries,
 *  no stat, no links followed), so none is left unexplained. Unreadable directories are passed over. */
function findSkillMds(real: string, rel: string, out: string[]): void {
  const stack: [string, string][] = [[real, rel]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    let dirents: Dirent[];
    try {
      dirents = fs.readdirSync(next[0], { withFileTypes: true });
    } catch {
      continue;
    }
    for (const dirent of dirents) {
      if (NEVER_WALKED.has(dirent.name)) continue;
      const path = joinPath(next[1], dirent.name);
      if (dirent.isDirectory()) stack.push([nodePath.join(next[0], dirent.name), path]);
      else if (dirent.name === "SKILL.md" && dirent.isFile()) out.push(path);
    }
  }
}
