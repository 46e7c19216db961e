// One log line per fetched tree (git, WebDAV, …) whose state changed between two builds: moved, stale, failed or recovered,
// and a live WebDAV fetch that started or stopped cooling.
import type { Logger } from "../log/index.js";
import type { Tree } from "../sources/index.js";

export function logFetchChanges(log: Logger | undefined, before: ReadonlyMap<string, Tree>, next: ReadonlyMap<string, Tree>): void {
  if (log === undefined) return;
  for (const [key, tree] of next) {
    if (tree.kind === "local" || tree.kind === "failed") continue;
    const was = before.get(key);
    if (tree.status === "stale" && was?.status !== "stale") log.log("warn", "fetch stale", { fetch: key, error: tree.error ?? "" });
    else if (tree.status === "failed" && was?.status !== "failed")
      log.log("error", "fetch failed", { fetch: key, error: tree.error ?? "" });
    else if (tree.status === "ok" && was !== undefined && was.status !== "ok")
      log.log("info", "fetch recovered", { fetch: key, commit: short(tree.commit) });
    if (tree.status === "ok" && tree.commit !== was?.commit) log.log("info", "fetch serves", { fetch: key, commit: short(tree.commit) });
    if (tree.cooling === true && was?.cooling !== true) log.log("warn", "fetch cooling", { fetch: key, error: tree.coolingError ?? "" });
    else if (tree.cooling !== true && was?.cooling === true) log.log("info", "fetch revalidates again", { fetch: key });
  }
}

/** `0123456789abcdef…` => `0123456789ab`. */
function short(commit: string | undefined): string {
  return commit === undefined ? "" : commit.slice(0, 12);
}
