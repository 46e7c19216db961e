// Running git for the plugin repositories: an environment that holds nothing of the user's (no system or global
// config, no hooks, no prompts), one run with its stdin fed and its failure a PluginRepoError naming the command, and
// writing to its stdin at the pace it reads.
import { spawn } from "node:child_process";

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

/** Writes `chunk` to a child's stdin, waiting for it to drain when its buffer is full. */
export const writeChunk = (stdin: NodeJS.WritableStream, chunk: string | Uint8Array): Promise<void> =>
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
