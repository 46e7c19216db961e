// Each plugin as a bare git repository in the cache directory, made with git's own plumbing (`git fast-import`
// writes the blobs, trees and the commit in one process): the tree holds exactly the served bytes, the commit's
// author, committer, dates and message are fixed or derived from the content, so a content makes the same commit
// wherever it is made after the same history. A new content is a new commit on top of the previous one; the
// history is cut to the newest `history` commits once it reaches twice that (the cut commit is marked shallow, so no
// id changes). Repositories are made lazily, one build per repository at a time (concurrent requests for the same
// content share it), and the least recently used ones are removed when the directory outgrows its byte bound.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdir, readdir, rm, stat, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import type { ListedPlugin, PluginContent } from "./catalog.js";
import { formatManifest, MANIFEST_PATH } from "./catalog.js";

/** The one branch of every repository. */
export const BRANCH = "main";
const REF = `refs/heads/${BRANCH}`;
/** The author and committer of every commit. */
const IDENT = "skillshelf <skillshelf@localhost>";
/** 2024-01-01T00:00:00Z: the date of a repository's first commit; each later one is a second after its parent. */
const EPOCH = 1_704_067_200;
const TRAILER = "Content-Digest: ";

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

export class PluginRepoError extends Error {}

/** What git needs and nothing of the user's: no system or global config, no hooks, no prompts. */
export function gitEnv(extra: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_TERMINAL_PROMPT: "0",
    HOME: "/nonexistent",
    LANG: "C",
    ...extra,
  };
}

interface GitResult {
  readonly stdout: Buffer;
}

/** Runs git with `input` on stdin; a non-zero exit is a PluginRepoError naming the command and git's message. */
export function runGit(git: string, args: readonly string[], input?: (stdin: NodeJS.WritableStream) => Promise<void>): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(git, ["-c", "core.hooksPath=/dev/null", ...args], { env: gitEnv(), stdio: ["pipe", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", (error) => reject(new PluginRepoError(`git ${args[0] ?? ""}: ${error.message}`)));
    child.stdin.on("error", () => undefined);
    child.on("close", (code) => {
      if (code === 0) return resolve({ stdout: Buffer.concat(out) });
      const message = Buffer.concat(err).toString("utf8").trim().split("\n").slice(-3).join("; ");
      reject(
        new PluginRepoError(`git ${args.filter((arg) => !arg.startsWith("--git-dir")).join(" ")} exited with ${String(code)}: ${message}`),
      );
    });
    if (input === undefined) child.stdin.end();
    else
      input(child.stdin).then(
        () => child.stdin.end(),
        (error: unknown) => {
          child.kill();
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
  });
}

/** The message of the commit for `content`: the plugin, its version and the content digest as a trailer. */
export function commitMessage(content: PluginContent): string {
  return `${content.listed.name} ${content.version}\n\n${TRAILER}${content.digest}\n`;
}

/** The folder name of a plugin's repository: a digest of (library, plugin), so no name can escape the folder. */
export function repoName(listed: Pick<ListedPlugin, "library" | "plugin">): string {
  return `${createHash("sha256").update(`${listed.library}\0${listed.plugin}`).digest("hex").slice(0, 32)}.git`;
}

const write = (stdin: NodeJS.WritableStream, chunk: string | Uint8Array): Promise<void> =>
  new Promise((resolve, reject) => {
    if (stdin.write(chunk)) return resolve();
    const onDrain = (): void => {
      stdin.off("error", onError);
      resolve();
    };
    const onError = (error: Error): void => {
      stdin.off("drain", onDrain);
      reject(error);
    };
    stdin.once("drain", onDrain);
    stdin.once("error", onError);
  });

export class PluginRepos {
  private readonly git: string;
  private readonly history: number;
  private readonly maxBytes: number;
  /** Builds under way, by repository and content digest. */
  private readonly building = new Map<string, Promise<BuiltRepo>>();
  /** The tail of each repository's queue: one build per repository at a time. */
  private readonly queues = new Map<string, Promise<unknown>>();
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
    const head = await this.head(dir);
    if (head !== null && head.digest === content.digest) {
      this.stats.reused++;
      await touch(dir);
      return { dir, commit: head.commit };
    }
    if (head === null) {
      await rm(dir, { recursive: true, force: true });
      await mkdir(path.dirname(dir), { recursive: true });
      await runGit(this.git, ["init", "--quiet", "--bare", `--initial-branch=${BRANCH}`, dir]);
    }
    const commit = await this.commit(dir, content, read, head);
    this.stats.built++;
    await this.cut(dir);
    await touch(dir);
    void this.evict(dir).catch(() => undefined);
    return { dir, commit };
  }

  /** The branch's commit, its content digest and the number of commits kept; null when there is no usable repository. */
  private async head(dir: string): Promise<{ commit: string; digest: string; date: number } | null> {
    try {
      const { stdout } = await runGit(this.git, [`--git-dir=${dir}`, "log", "-1", "--format=%H%n%ct%n%B", REF]);
      const [commit, date, ...body] = stdout.toString("utf8").split("\n");
      const trailer = body.find((line) => line.startsWith(TRAILER));
      if (commit === undefined || !/^[0-9a-f]{40}$/.test(commit) || trailer === undefined) return null;
      return { commit, digest: trailer.slice(TRAILER.length), date: Number(date) };
    } catch {
      return null;
    }
  }

  /** One `git fast-import` run: every file of the content (the tree is made from nothing: `deleteall`), the manifest,
   *  and a commit on top of the branch. */
  private async commit(
    dir: string,
    content: PluginContent,
    read: ReadEntry,
    parent: { commit: string; date: number } | null,
  ): Promise<string> {
    const manifest = formatManifest(content);
    const message = commitMessage(content);
    const date = parent === null ? EPOCH : parent.date + 1;
    await runGit(this.git, [`--git-dir=${dir}`, "fast-import", "--quiet", "--done", "--date-format=raw"], async (stdin) => {
      const data = async (bytes: Uint8Array | string): Promise<void> => {
        const buffer = typeof bytes === "string" ? Buffer.from(bytes, "utf8") : bytes;
        await write(stdin, `data ${buffer.byteLength}\n`);
        await write(stdin, buffer);
        await write(stdin, "\n");
      };
      await write(stdin, `commit ${REF}\nauthor ${IDENT} ${date} +0000\ncommitter ${IDENT} ${date} +0000\n`);
      await data(message);
      if (parent !== null) await write(stdin, `from ${parent.commit}\n`);
      await write(stdin, "deleteall\n");
      for (const entry of content.entries) {
        const bytes = "text" in entry ? entry.text : await read(entry.uri);
        if (bytes === null) throw new PluginRepoError(`${content.listed.plugin}: ${entry.path} could not be read`);
        await write(stdin, `M 100644 inline ${quotePath(entry.path)}\n`);
        await data(bytes);
      }
      await write(stdin, `M 100644 inline ${MANIFEST_PATH}\n`);
      await data(manifest);
      await write(stdin, "done\n");
    });
    const head = await this.head(dir);
    if (head === null || head.digest !== content.digest)
      throw new PluginRepoError(`${content.listed.plugin}: the new commit is not on ${REF}`);
    return head.commit;
  }

  /** Past twice the bound, the oldest commit kept is marked shallow and everything older is dropped. */
  private async cut(dir: string): Promise<void> {
    const { stdout } = await runGit(this.git, [`--git-dir=${dir}`, "rev-list", REF]);
    const commits = stdout.toString("utf8").trim().split("\n");
    if (commits.length < this.history * 2) return;
    await writeFile(path.join(dir, "shallow"), `${commits[this.history - 1] as string}\n`);
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
