// Runs the system `git` with no shell, no user or system configuration, no hooks and no prompts. Credentials
// reach git only through the environment of the one child that needs them, read back by an askpass script that
// holds no secret itself: never argv (visible to every user in `ps`), never a URL, never a file.
import { execFile } from "node:child_process";
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { SecretRef, SourceConfig } from "../config/index.js";
import { classifyGitFailure, gitFailure } from "./git-errors.js";

const DEFAULT_GIT_TIMEOUT_MS = 10 * 60_000;
/** Git processes at once, whatever the number of fetches: a big config must not fork a storm. */
const MAX_PARALLEL = 4;

// Settings that make every run independent of whoever runs skillshelf: a repository's hooks never run, no
// credential helper of the user's is asked (and none could store our secret), fsmonitor never starts a daemon.
const FIXED_CONFIG = [
  "-c",
  "core.hooksPath=/dev/null",
  "-c",
  "credential.helper=",
  "-c",
  "core.fsmonitor=false",
  "-c",
  "core.autocrlf=false",
  "-c",
  "advice.detachedHead=false",
];

/** Environment variables passed through: what git needs to find programs, proxies and CA certificates. */
const PASSTHROUGH = [
  "PATH",
  "TMPDIR",
  "SYSTEMROOT",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "NO_PROXY",
  "ALL_PROXY",
  "http_proxy",
  "https_proxy",
  "no_proxy",
  "all_proxy",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "GIT_SSL_CAINFO",
  "GIT_SSL_CAPATH",
];

const USERNAME_VAR = "SKILLSHELF_GIT_USERNAME";
const PASSWORD_VAR = "SKILLSHELF_GIT_PASSWORD";
// Git asks "Username for '…': " then "Password for '…': "; the answer is read from this child's environment.
const ASKPASS = `#!/bin/sh\ncase "$1" in\n  Username*) printf '%s\\n' "$${USERNAME_VAR}" ;;\n  *) printf '%s\\n' "$${PASSWORD_VAR}" ;;\nesac\n`;
/** GitHub and most hosts take any user name with a token; this one documents what the password is. */
const DEFAULT_GIT_USERNAME = "x-access-token";

export interface GitRunOptions {
  /** The source whose credentials (if any) this run may use. */
  readonly source?: SourceConfig;
  /** Extra environment for this run (e.g. GIT_INDEX_FILE). */
  readonly env?: Readonly<Record<string, string>>;
  /** What the run is for, in failure messages: `fetch`, `ls-remote`. */
  readonly action: string;
}

export interface GitRunnerOptions {
  /** Where credentials' `{env: NAME}` are read, when used. */
  readonly env: NodeJS.ProcessEnv;
  readonly timeoutMs?: number;
  readonly program?: string;
}

export class GitRunner {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  private constructor(
    /** Private (0700) directory: HOME for git, and the askpass script. */
    private readonly home: string,
    private readonly options: GitRunnerOptions,
  ) {}

  static async create(options: GitRunnerOptions): Promise<GitRunner> {
    const home = await mkdtemp(path.join(os.tmpdir(), "skillshelf-git-"));
    await chmod(home, 0o700);
    const askpass = path.join(home, "askpass.sh");
    await writeFile(askpass, ASKPASS, { mode: 0o700 });
    await chmod(askpass, 0o700);
    return new GitRunner(home, options);
  }

  async close(): Promise<void> {
    await rm(this.home, { recursive: true, force: true });
  }

  /** Run `git <args>` and answer its stdout; a failure is a SourceFailure whose message names no path or secret. */
  async run(args: readonly string[], options: GitRunOptions): Promise<string> {
    const env = this.environment(options);
    await this.acquire();
    try {
      return await new Promise<string>((resolve, reject) => {
        execFile(
          this.options.program ?? "git",
          [...FIXED_CONFIG, ...args],
          {
            env,
            timeout: this.options.timeoutMs ?? DEFAULT_GIT_TIMEOUT_MS,
            killSignal: "SIGKILL",
            maxBuffer: 64 * 1024 * 1024,
            windowsHide: true,
          },
          (error, stdout, stderr) => {
            if (error === null) resolve(stdout);
            else reject(classifyGitFailure(error, stderr, options.action, options.source?.auth !== undefined));
          },
        );
      });
    } finally {
      this.release();
    }
  }

  private environment(options: GitRunOptions): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = {};
    for (const name of PASSTHROUGH) {
      const value = this.options.env[name];
      if (value !== undefined) env[name] = value;
    }
    Object.assign(env, {
      // The private directory stands in for HOME and XDG_CONFIG_HOME, so no ~/.gitconfig or credential store is read.
      HOME: this.home,
      XDG_CONFIG_HOME: path.join(this.home, "config"),
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: "/dev/null",
      // Never wait on a terminal: a missing or refused credential is an error, not a prompt nobody answers.
      GIT_TERMINAL_PROMPT: "0",
      GCM_INTERACTIVE: "never",
      // Only the transports a source can declare: no ext::, no ssh command from a crafted URL.
      GIT_ALLOW_PROTOCOL: "file:http:https",
      // English messages: failures are classified from them, and their text is never shown as is.
      LC_ALL: "C",
      LANG: "C",
      ...options.env,
    });
    const auth = options.source?.auth;
    if (auth !== undefined) {
      env.GIT_ASKPASS = path.join(this.home, "askpass.sh");
      env[USERNAME_VAR] = this.secret(auth.username, options.source?.name ?? "") ?? DEFAULT_GIT_USERNAME;
      env[PASSWORD_VAR] = this.secret(auth.password, options.source?.name ?? "") ?? "";
    }
    return env;
  }

  /** A plain string, or the value of `{env: NAME}` now; an unset variable is a credential failure naming it. */
  private secret(value: string | SecretRef | undefined, source: string): string | undefined {
    if (value === undefined || typeof value === "string") return value;
    const secret = this.options.env[value.env];
    if (secret === undefined || secret === "") {
      throw gitFailure("auth", `the credentials of source '${source}' are unavailable: environment variable ${value.env} is not set`);
    }
    return secret;
  }

  private async acquire(): Promise<void> {
    if (this.active < MAX_PARALLEL) {
      this.active++;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next === undefined) this.active--;
    else next();
  }
}
