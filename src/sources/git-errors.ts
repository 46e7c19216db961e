// A git failure in words an operator can act on. Git's own stderr is never shown: it names the repository URL
// (an absolute path for git+file) and cache paths, so it is read only to pick one of these fixed sentences.
import { describeErrorCode } from "../address/index.js";
import { type FailureKind, SourceFailure } from "./fetcher.js";

/** A failure of a git source. */
export function gitFailure(kind: FailureKind, message: string): SourceFailure {
  return new SourceFailure("git", kind, message);
}

const AUTH =
  /Authentication failed|could not read (Username|Password)|terminal prompts disabled|returned error: 40[13]|Access denied|HTTP Basic/i;
const UNREACHABLE =
  /does not appear to be a git repository|Repository not found|not found|Could not resolve host|Connection refused|Failed to connect|unable to access|Could not read from remote|No such file or directory|timed out/i;

/** Git's words for a write that found no room (its stderr is read, never shown). */
const DISK_FULL = /No space left on device|Disk quota exceeded/i;

interface ExecError {
  readonly code?: unknown;
  readonly killed?: boolean;
  readonly signal?: unknown;
}

/** `error` as execFile gave it, with the child's stderr; `hasAuth` tells a refused credential from a missing one. */
export function classifyGitFailure(error: ExecError, stderr: string, action: string, hasAuth: boolean): SourceFailure {
  if (error.code === "ENOENT") return gitFailure("other", "the git program was not found: install git to serve git sources");
  if (error.killed === true || error.signal === "SIGKILL")
    return gitFailure("timeout", `git ${action} did not finish in time and was stopped`);
  if (DISK_FULL.test(stderr)) return gitFailure("other", `git ${action} failed: the disk holding the cache directory is full (ENOSPC)`);
  if (AUTH.test(stderr)) {
    return hasAuth
      ? gitFailure("auth", "the git host refused the credentials")
      : // GitHub answers 401 for a repository that does not exist, so without auth this may be a typo too.
        gitFailure("unreachable", "the git host asked for credentials, and the source declares no auth (or the repository does not exist)");
  }
  if (UNREACHABLE.test(stderr))
    return gitFailure("unreachable", "the repository could not be reached: it may not exist, or its host is down");
  const code = typeof error.code === "number" ? ` (exit ${error.code})` : "";
  return gitFailure("other", `git ${action} failed${code}`);
}

/** Any thrown value as a failure of a git source, never with a message that was not written here. */
export function asGitFailure(error: unknown, action: string): SourceFailure {
  if (error instanceof SourceFailure) return error;
  return gitFailure("other", `${action} failed (${describeErrorCode(error)})`);
}
