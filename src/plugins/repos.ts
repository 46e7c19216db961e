// Each plugin as a bare git repository in the cache directory, made with git's own plumbing (`git fast-import`
// writes the blobs, trees and the commit in one process). The commit of a content is a root commit derived from that
// content alone: its tree holds exactly the served bytes, its author, committer, date and message are fixed or taken
// from the content, so every replica and every restart makes the same commit for the same content, whatever it
// served before. The commits of earlier contents stay in the repository under hidden refs (`refs/history/…`, never
// advertised): a client that has one says so in its fetch, and `upload-pack` (run with `UPLOAD_PACK_CONFIG`) leaves
// out every object that commit already holds, so an incremental fetch carries only what changed although the new
// commit is not a descendant. The newest `history` earlier contents are kept; once twice as many are held, the older
// half is dropped. Repositories are made lazily, one build per repository at a time (concurrent requests for the same
// content share it), and the least recently used ones are removed when the directory outgrows its byte bound.
import { createHash } from "node:crypto";
import { mkdir, readdir, rm, stat, utimes } from "node:fs/promises";
import path from "node:path";
import type { ListedPlugin, PluginContent } from "./catalog.js";
import { formatManifest, MANIFEST_PATH } from "./catalog.js";
import { PluginRepoError, runGit, writeChunk } from "./git-process.js";

/** The one branch of every repository. */
export const BRANCH = "main";
const REF = `refs/heads/${BRANCH}`;
/** The author and committer of every commit. */
const IDENT = "skillshelf <skillshelf@localhost>";
/** 2024-01-01T00:00:00Z: the author and committer date of every commit. */
const EPOCH = 1_704_067_200;
const TRAILER = "Content-Digest: ";
/** Where the commits of earlier contents are kept: `refs/history/<sequence>-<content digest>`, never advertised. */
const HISTORY = "refs/history";

/** The `-c` options of every `git upload-pack` run on these repositories (command-line configuration, which git
 *  trusts for the hook): the history refs are hidden from the ref advertisement, and `pack-objects` runs with
 *  `--shallow`, which with a thin pack treats every commit the client has as a base whose trees and blobs are left
 *  out. Without it only a shallow client's fetch would leave them out, because a new content's commit does not
 *  descend from the one the client has. The hook is given the whole `git [--shallow-file ""] pack-objects …` command
 *  line and appends the option (pack-objects takes options in any place; it has no other argument with --stdout). */
export const UPLOAD_PACK_CONFIG: readonly string[] = [
  "-c",
  `uploadpack.hideRefs=${HISTORY}`,
  "-c",
  'uploadpack.packObjectsHook=f() { "$@" --shallow; }; f',
];

export interface PluginReposOptions {
  /** The folder (below the cache directory) that holds the repositories. */
  readonly dir: string;
  /** Commits kept per repository: the history is cut back to this many once it reaches twice as many. */
  readonly history?: number;
  /** Bytes of repositories kept on disk; beyond it the least recently used are removed (and made again on demand). */
  readonly maxBytes?: number;
  /** The git program. */
  readonly git?: string;
}

export const DEFAULT_HISTORY = 16;
export const DEFAULT_REPO_BYTES = 1024 * 1024 * 1024;

/** The bytes of the served files, read through the shelf under the caller's scope; null when one cannot be read. */
export type ReadEntry = (uri: string) => Promise<Uint8Array | null>;

export interface BuiltRepo {
  readonly dir: string;
  readonly commit: string;
}

/** The message of the commit for `content`: the plugin, its version and the content digest as a trailer. */
export function commitMessage(content: PluginContent): string {
  return `${content.listed.name} ${content.version}\n\n${TRAILER}${content.digest}\n`;
}

/** The folder name of a plugin's repository: a digest of (library, plugin), so no name can escape the folder. */
export function repoName(listed: Pick<ListedPlugin, "library" | "plugin">): string {
  return `${createHash("sha256").update(`${listed.library}\0${listed.plugin}`).digest("hex").slice(0, 32)}.git`;
}

export class PluginRepos {
  private readonly git: string;
  private readonly history: number;
  private readonly maxBytes: number;
  /** Builds under way, by repository and content digest. */
  private readonly building = new Map<string, Promise<BuiltRepo>>();
  /** The tail of each repository's queue: one build per repository at a time. */
  private readonly queues = new Map<string, Promise<unknown>>();
  /** The evictions after builds, one after another. */
  private evicting: Promise<void> = Promise.resolve();
  /** Builds done since this started, and builds that found their commit already made. */
  readonly stats = { built: 0, reused: 0, removed: 0 };

  constructor(private readonly options: PluginReposOptions) {
    this.git = options.git ?? "git";
    this.history = options.history ?? DEFAULT_HISTORY;
    this.maxBytes = options.maxBytes ?? DEFAULT_REPO_BYTES;
  }

  get dir(): string {
    return this.options.dir;
  }

  /** The plugin's repository holding `content`: made (or a commit added) unless its branch already holds it. */
  repo(content: PluginContent, read: ReadEntry): Promise<BuiltRepo> {
    const dir = path.join(this.options.dir, repoName(content.listed));
    const key = `${dir}\0${content.digest}`;
    const running = this.building.get(key);
    if (running !== undefined) return running;
    const previous = this.queues.get(dir) ?? Promise.resolve();
    const build = previous
      .catch(() => undefined)
      .then(() => this.ensure(dir, content, read))
      .finally(() => {
        this.building.delete(key);
        if (this.queues.get(dir) === build) this.queues.delete(dir);
      });
    this.building.set(key, build);
    this.queues.set(dir, build);
    return build;
  }

  private async ensure(dir: string, content: PluginContent, read: ReadEntry): Promise<BuiltRepo> {
    let head = await this.head(dir);
    if (head !== null && head.root && head.digest === content.digest) {
      this.stats.reused++;
      await touch(dir);
      return { dir, commit: head.commit };
    }
    if (head === null || !head.root) {
      // No repository, or one whose commits descend from each other (made by an earlier release): made afresh.
      head = null;
      await rm(dir, { recursive: true, force: true });
      await mkdir(path.dirname(dir), { recursive: true });
      await runGit(this.git, ["init", "--quiet", "--bare", `--initial-branch=${BRANCH}`, dir]);
    }
    const kept = await this.kept(dir);
    const earlier = kept.find((entry) => entry.digest === content.digest);
    let commit: string;
    if (earlier !== undefined) {
      commit = earlier.commit;
      this.stats.reused++;
    } else {
      commit = await this.commit(dir, content, read);
      this.stats.built++;
    }
    await this.record(dir, commit, head, kept);
    await touch(dir);
    this.evicting = this.evicting.then(() => this.evict(dir)).catch(() => undefined);
    return { dir, commit };
  }

  /** The branch's commit, its content digest and whether it is a root commit; null when there is no usable repository. */
  private async head(dir: string): Promise<{ commit: string; digest: string; root: boolean } | null> {
    try {
      const { stdout } = await runGit(this.git, [`--git-dir=${dir}`, "log", "-1", "--format=%H%n%P%n%B", REF]);
      const [commit, parents, ...body] = stdout.toString("utf8").split("\n");
      const trailer = body.find((line) => line.startsWith(TRAILER));
      if (commit === undefined || !/^[0-9a-f]{40}$/.test(commit) || trailer === undefined) return null;
      return { commit, digest: trailer.slice(TRAILER.length), root: parents === "" };
    } catch {
      return null;
    }
  }

  /** The commits of earlier contents, oldest first. */
  private async kept(dir: string): Promise<{ ref: string; commit: string; digest: string; sequence: number }[]> {
    const { stdout } = await runGit(this.git, [`--git-dir=${dir}`, "for-each-ref", "--format=%(refname) %(objectname)", `${HISTORY}/`]);
    const out: { ref: string; commit: string; digest: string; sequence: number }[] = [];
    for (const line of stdout.toString("utf8").split("\n")) {
      const match = /^(refs\/history\/(\d{10})-([0-9a-f]{64})) ([0-9a-f]{40})$/.exec(line);
      if (match === null) continue;
      out.push({ ref: match[1] as string, sequence: Number(match[2]), digest: `sha256:${match[3] as string}`, commit: match[4] as string });
    }
    return out.sort((a, b) => a.sequence - b.sequence);
  }

  /** One `git fast-import` run: every file of the content, the manifest, and a root commit on the branch (`reset`
   *  empties the branch first; `--force` lets it move to a commit that does not descend from the one it held). */
  private async commit(dir: string, content: PluginContent, read: ReadEntry): Promise<string> {
    const manifest = formatManifest(content);
    const message = commitMessage(content);
    const args = [`--git-dir=${dir}`, "fast-import", "--quiet", "--force", "--done", "--date-format=raw"];
    await runGit(this.git, args, async (stdin) => {
      const data = async (bytes: Uint8Array | string): Promise<void> => {
        const buffer = typeof bytes === "string" ? Buffer.from(bytes, "utf8") : bytes;
        await writeChunk(stdin, `data ${buffer.byteLength}\n`);
        await writeChunk(stdin, buffer);
        await writeChunk(stdin, "\n");
      };
      await writeChunk(stdin, `reset ${REF}\n\n`);
      await writeChunk(stdin, `commit ${REF}\nauthor ${IDENT} ${EPOCH} +0000\ncommitter ${IDENT} ${EPOCH} +0000\n`);
      await data(message);
      for (const entry of content.entries) {
        const bytes = "text" in entry ? entry.text : await read(entry.uri);
        if (bytes === null) throw new PluginRepoError(`${content.listed.plugin}: ${entry.path} could not be read`);
        await writeChunk(stdin, `M 100644 inline ${quotePath(entry.path)}\n`);
        await data(bytes);
      }
      await writeChunk(stdin, `M 100644 inline ${MANIFEST_PATH}\n`);
      await data(manifest);
      await writeChunk(stdin, "done\n");
    });
    const head = await this.head(dir);
    if (head === null || head.digest !== content.digest || !head.root)
      throw new PluginRepoError(`${content.listed.plugin}: the new commit is not on ${REF}`);
    return head.commit;
  }

  /** One ref transaction: the branch at `commit`, the commit it held before kept as the newest earlier content (a
   *  content kept already moves to the newest place, the current one is not kept twice); once twice the bound is
   *  held, the oldest are dropped back to the bound and their objects removed. */
  private async record(
    dir: string,
    commit: string,
    previous: { commit: string; digest: string } | null,
    kept: readonly { ref: string; commit: string; digest: string; sequence: number }[],
  ): Promise<void> {
    const lines = [`update ${REF} ${commit}`];
    let rest = kept.filter((entry) => entry.commit !== commit && entry.commit !== previous?.commit);
    for (const entry of kept) if (!rest.includes(entry)) lines.push(`delete ${entry.ref} ${entry.commit}`);
    if (previous !== null && previous.commit !== commit) {
      const sequence = (kept.at(-1)?.sequence ?? 0) + 1;
      const ref = `${HISTORY}/${String(sequence).padStart(10, "0")}-${previous.digest.slice("sha256:".length)}`;
      lines.push(`create ${ref} ${previous.commit}`);
      rest = [...rest, { ref, commit: previous.commit, digest: previous.digest, sequence }];
    }
    const dropped = rest.length >= this.history * 2 ? rest.slice(0, rest.length - this.history) : [];
    for (const entry of dropped) lines.push(`delete ${entry.ref} ${entry.commit}`);
    await runGit(this.git, [`--git-dir=${dir}`, "update-ref", "--stdin"], (stdin) => writeChunk(stdin, `${lines.join("\n")}\n`));
    if (dropped.length === 0) return;
    await runGit(this.git, [`--git-dir=${dir}`, "repack", "-a", "-d", "-q"]);
    await runGit(this.git, [`--git-dir=${dir}`, "prune", "--expire=now"]);
  }

  /** Removes the least recently used repositories (by the time their folder was last used) beyond the byte bound;
   *  never `keep`, nor one being built. */
  private async evict(keep: string): Promise<void> {
    let names: string[];
    try {
      names = await readdir(this.options.dir);
    } catch {
      return;
    }
    const repos = await Promise.all(
      names
        .filter((name) => name.endsWith(".git"))
        .map(async (name) => {
          const dir = path.join(this.options.dir, name);
          return { dir, bytes: await sizeOf(dir), used: (await stat(dir)).mtimeMs };
        }),
    );
    let total = repos.reduce((sum, repo) => sum + repo.bytes, 0);
    repos.sort((a, b) => a.used - b.used);
    for (const repo of repos) {
      if (total <= this.maxBytes) break;
      if (repo.dir === keep || this.queues.has(repo.dir)) continue;
      await rm(repo.dir, { recursive: true, force: true });
      this.stats.removed++;
      total -= repo.bytes;
    }
  }

  /** Resolves when the evictions started by the builds so far are done. */
  async settled(): Promise<void> {
    await this.evicting;
  }

  /** Bytes of every repository on disk. */
  async bytes(): Promise<number> {
    try {
      return await sizeOf(this.options.dir);
    } catch {
      return 0;
    }
  }
}

/** fast-import's quoting: a path with a space, a quote, a backslash or a newline goes in C-style quotes. */
function quotePath(file: string): string {
  if (!/[\s"\\]/.test(file) && !file.startsWith('"')) return file;
  return `"${file.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n").replace(/\t/g, "\\t")}"`;
}

async function touch(dir: string): Promise<void> {
  const now = new Date();
  await utimes(dir, now, now).catch(() => undefined);
}

async function sizeOf(target: string): Promise<number> {
  const info = await stat(target);
  if (!info.isDirectory()) return info.size;
  let total = 0;
  for (const entry of await readdir(target)) total += await sizeOf(path.join(target, entry));
  return total;
}
