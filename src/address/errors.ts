// The code of a failed system call, the one way every layer names it in a message or a skipped row.

/** `EACCES` for a Node errno error; `fallback` for anything without a code. */
export function errorCode(error: unknown, fallback = "unknown"): string {
  return typeof error === "object" && error !== null && "code" in error ? String(error.code) : fallback;
}

/** What the codes an operator fixes outside the server mean, in words: a full disk must say so. */
const CAUSES: Readonly<Record<string, string>> = {
  ENOSPC: "the disk is full",
  EDQUOT: "the disk quota is used up",
  EROFS: "the file system is read-only",
  EMFILE: "this process has too many files open",
  ENFILE: "the system has too many files open",
  ENOMEM: "out of memory",
};

/** `ENOSPC: the disk is full` for a code with a cause an operator acts on, else the code alone (`EACCES`). */
export function describeErrorCode(error: unknown, fallback = "unknown"): string {
  const code = errorCode(error, fallback);
  const cause = CAUSES[code];
  return cause === undefined ? code : `${code}: ${cause}`;
}
