// The code of a failed system call, the one way every layer names it in a message or a skipped row.

/** `EACCES` for a Node errno error; `fallback` for anything without a code. */
export function errorCode(error: unknown, fallback = "unknown"): string {
  return typeof error === "object" && error !== null && "code" in error ? String(error.code) : fallback;
}
