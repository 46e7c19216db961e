// Real git repositories made at test time in a temporary directory, with a fixed identity and clock so commits
// are reproducible, and no user or system git config involved.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const made: string[] = [];

const GIT_ENV: NodeJS.ProcessEnv = {
  PATH: process.env.PATH,
  HOME: os.tmpdir(),
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_AUTHOR_NAME: "Test",
  GIT_AUTHOR_EMAIL: "test@example.com",
  GIT_COMMITTER_NAME: "Test",
  GIT_COMMITTER_EMAIL: "test@example.com",
  LC_ALL: "C",
};

/** A fresh temporary directory (its real path), removed by `removeTemps`. */
export function makeTemp(prefix = "skillshelf-git-test-"): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  made.push(dir);
  return dir;
}

export function removeTemps(): void {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, env: GIT_ENV, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
}

export type Files = Readonly<Record<string, string | null | { readonly symlink: string }>>;

/** Write `files` (null deletes) into the work tree of `repo`. */
export function writeFiles(repo: string, files: Files): void {
  for (const [rel, content] of Object.entries(files)) {
    const abs = path.join(repo, ...rel.split("/"));
    if (content === null) {
      fs.rmSync(abs, { recursive: true, force: true });
      continue;
    }
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    if (typeof content === "string") fs.writeFileSync(abs, content);
    else fs.symlinkSync(content.symlink, abs);
  }
}

/** `git init -b main` at `<base>/<name>` with one commit of `files`. Answers the repository directory. */
export function makeRepo(base: string, name: string, files: Files): string {
  const repo = path.join(base, name);
  fs.mkdirSync(repo, { recursive: true });
  git(repo, "init", "-q", "-b", "main");
  commitFiles(repo, files, "first");
  return repo;
}

/** Commit `files` on the checked-out branch; answers the new commit id. */
export function commitFiles(repo: string, files: Files, message: string): string {
  writeFiles(repo, files);
  git(repo, "add", "-A");
  git(repo, "commit", "-q", "--allow-empty", "-m", message);
  return git(repo, "rev-parse", "HEAD");
}

export function skillMd(name: string, description = `Use ${name}.`, body = `# ${name}\n`): string {
  return `---\nname: ${name}\ndescription: ${description}\n---\n${body}`;
}

/** Every regular file under `dir`, relative, for greps over a cache directory. */
export function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (at: string): void => {
    for (const entry of fs.readdirSync(at, { withFileTypes: true })) {
      const abs = path.join(at, entry.name);
      if (entry.isDirectory()) walk(abs);
      else if (entry.isFile()) out.push(abs);
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return out;
}
