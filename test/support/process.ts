// The built CLI as a real child process: one-shot runs (`check`, `schema`) and long-lived servers whose
// address comes from the startup line on stderr, exactly as an operator would see it.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { tempDir } from "./temp.js";

export const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const CLI = path.join(REPO_ROOT, "dist", "cli.js");
export const EXAMPLE_CONFIG = path.join(REPO_ROOT, "plugins.example.yaml");

/** The CLI under test is the built one (`npm test` builds first); say so plainly when it is missing. */
export function assertBuilt(): void {
  if (!existsSync(CLI)) throw new Error("dist/cli.js is missing: run `npm run build` (npm test builds before vitest)");
}

/** Where the CLI's default cache directory lands in tests: a private temporary directory, never the user's (made
 *  again for the next test file once the last one's temporary directories are removed). */
let cacheHome: string | undefined;
function testCacheHome(): string {
  if (cacheHome === undefined || !existsSync(cacheHome)) cacheHome = tempDir("skillshelf-test-cache-");
  return cacheHome;
}

/** The parent's environment without SKILLSHELF_* settings, so a developer's shell never changes a result, and
 *  with the default cache directory (under XDG_CACHE_HOME) in a temporary directory. */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith("SKILLSHELF_")) env[key] = value;
  }
  return { ...env, XDG_CACHE_HOME: testCacheHome(), ...extra };
}

export interface CliResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface RunOptions {
  readonly cwd?: string;
  readonly env?: Record<string, string>;
}

/** Run the CLI to completion. */
export function runCli(args: readonly string[], options: RunOptions = {}): Promise<CliResult> {
  assertBuilt();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: options.cwd ?? REPO_ROOT,
      env: cleanEnv(options.env),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.once("error", reject);
    child.once("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

export interface ServerProcess {
  /** The MCP endpoint the startup line names, e.g. http://127.0.0.1:41851/mcp. */
  readonly url: URL;
  /** http://127.0.0.1:PORT */
  readonly origin: string;
  readonly port: number;
  readonly child: ChildProcess;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  /** Everything it wrote to stdout so far (nothing, over HTTP). */
  stdout(): string;
  /** Send `signal` (default SIGTERM) and wait for the exit. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const LISTENING = /listening on (http:\/\/\S+\/mcp)/;
const running = new Set<ChildProcess>();

/** `skillshelf serve --transport http --port 0 …`: resolves once the startup line names the URL. */
export function startHttpServer(args: readonly string[], options: RunOptions = {}): Promise<ServerProcess> {
  return spawnServer(["serve", "--transport", "http", "--host", "127.0.0.1", "--port", "0", ...args], options);
}

/** The CLI with exactly `argv` (settings may come from `options.env`), resolved once it logs its URL. */
export function spawnServer(argv: readonly string[], options: RunOptions = {}): Promise<ServerProcess> {
  assertBuilt();
  const child = spawn(process.execPath, [CLI, ...argv], {
    cwd: options.cwd ?? REPO_ROOT,
    // No drain window unless a test asks for one: nothing polls these servers' readiness.
    env: cleanEnv({ SKILLSHELF_DRAIN_SECONDS: "0", ...options.env }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  let stderr = "";
  let stdout = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once("exit", (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
    });
  });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    void exited.then(({ code, signal }) =>
      reject(new Error(`the server exited (code ${code}, signal ${signal}) before listening:\n${stderr}`)),
    );
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      const before = stderr;
      stderr += chunk;
      const match = LISTENING.exec(stderr);
      if (match === null || LISTENING.test(before)) return;
      const url = new URL(match[1] as string);
      resolve({
        url,
        origin: url.origin,
        port: Number(url.port),
        child,
        stderr: () => stderr,
        stdout: () => stdout,
        stop: (signal = "SIGTERM") => {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          return exited;
        },
      });
    });
  });
}

/** Kill whatever a failed test left running (afterAll safety net; a passing test stops its own). */
export function killStragglers(): void {
  for (const child of running) child.kill("SIGKILL");
  running.clear();
}
