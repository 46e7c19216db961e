// Every fetch's state for /health, once a build has read them all.
import type { HarvestedPlugin } from "../harvest/index.js";
import type { FetchReport } from "../shelf/index.js";
import { isDirectorySync, type Tree } from "../sources/index.js";

/**
 * A git fetch reports its own state (ok, stale with the refresh error, failed). A local folder is failed when it
 * is not a directory now, with the error of the plugin at its root when there is one (it says whether the folder
 * is missing or is a file).
 */
export function reportFetches(
  trees: ReadonlyMap<string, Tree>,
  plugins: readonly HarvestedPlugin[],
  built: string,
  watch?: (fetch: string) => FetchReport["watch"],
): Map<string, FetchReport> {
  const fetches = new Map<string, FetchReport>();
  for (const [key, tree] of trees) {
    const state = watch?.(key);
    const extra = state === undefined ? {} : { watch: state };
    if (tree.kind !== "local") {
      fetches.set(key, {
        status: tree.status,
        ...(tree.built === undefined ? {} : { built: tree.built }),
        ...(tree.cooling === true ? { cooling: true } : {}),
        ...(tree.error === undefined ? (tree.coolingError === undefined ? {} : { error: tree.coolingError }) : { error: tree.error }),
        ...extra,
      });
    } else if (tree.rootAbs !== undefined && isDirectorySync(tree.rootAbs)) {
      fetches.set(key, { status: "ok", built, ...extra });
    } else {
      const atRoot = plugins.find((plugin) => plugin.fetch === key && plugin.root === "" && plugin.status === "failed");
      fetches.set(key, { status: "failed", error: atRoot?.error ?? `The folder of fetch ${key} does not exist.`, ...extra });
    }
  }
  return fetches;
}
