// The built CLI as a child process: `serve` over HTTP (stderr captured line by line) or over stdio. When
// dist/ is older than src/ the CLI is compiled into a private temp dir, so the test never runs stale code and
// never writes to the dist/ others may be using.
import { execFile, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const abs = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(abs) : fs.statSync(abs).mtimeMs);
  }
  return newest;
}

export interface BuiltCli {
  /** Absolute path of cli.js. */
  readonly path: string;
  remove(): void;
}

/** dist/cli.js when it is newer than every source file, else a private build of the current sources. */
export async function buildCli(): Promise<BuiltCli> {
  const dist = path.join(REPO, "dist", "cli.js");
  if (fs.existsSync(dist) && fs.statSync(dist).mtimeMs > newestMtime(path.join(REPO, "src")))
    return { path: dist, remove: () => undefined };
  const out = fs.mkdtempSync(path.join(os.tmpdir(), "skillshelf-scopes-cli-"));
  fs.writeFileSync(path.join(out, "package.json"), '{"type": "module"}\n');
  fs.symlinkSync(path.join(REPO, "node_modules"), path.join(out, "node_modules"), "dir");
  const tsc = path.join(REPO, "node_modules", "typescript", "bin", "tsc");
  // Type errors elsewhere in a tree under edit still emit JavaScript; only a missing cli.js is fatal.
  await promisify(execFile)(process.execPath, [tsc, "-p", path.join(REPO, "tsconfig.build.json"), "--outDir", path.join(out, "dist")], {
    cwd: REPO,
  }).catch(() => undefined);
  const cli = path.join(out, "dist", "cli.js");
  if (!fs.existsSync(cli)) throw new Error("the CLI did not build");
  return { path: cli, remove: () => fs.rmSync(out, { recursive: true, force: true }) };
}

/** The parent's environment without anything skillshelf or a token variable reads, plus `extra`. */
export function childEnv(extra: Readonly<Record<string, string>>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith("SKILLSHELF_") && !key.startsWith("SS_SCOPES_")) env[key] = value;
  }
  return { ...env, ...extra };
}

export interface Child {
  readonly process: ChildProcess;
  /** Every stderr line so far. */
  readonly stderr: string[];
  /** Resolves with the exit code (or the signal's name). */
  readonly exited: Promise<number | string>;
}

export function spawnCli(cli: string, args: readonly string[], env: Record<string, string>, cwd: string): Child {
  const child = spawn(process.execPath, [cli, ...args], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  const stderr: string[] = [];
  let partial = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk: string) => {
    const lines = (partial + chunk).split("\n");
    partial = lines.pop() ?? "";
    stderr.push(...lines);
  });
  child.stdout.resume();
  const exited = new Promise<number | string>((resolve) => {
    child.on("close", (code, signal) => {
      if (partial !== "") stderr.push(partial);
      resolve(code ?? signal ?? "unknown");
    });
  });
  return { process: child, stderr, exited };
}

/** The origin the child logged (`listening on http://127.0.0.1:PORT/mcp`), or a rejection naming its stderr. */
export async function waitForListening(child: Child, timeoutMs = 30_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const line of child.stderr) {
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)\/mcp/.exec(line);
      if (match !== null) return match[1] as string;
    }
    if (child.process.exitCode !== null || Date.now() > deadline) throw new Error(`the server did not start:\n${child.stderr.join("\n")}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
