// Sources: materialise fetches (local folders, file sources, git repositories) and keep the cache directory.
export { cacheDirProblem, defaultCacheDir } from "./cache-dir.js";
export { RECORD_FILE } from "./cache-record.js";
export { planFetch, type FetchPlan } from "./fetch-plan.js";
export { GitFetcher } from "./git-fetcher.js";
export { resolveInside, TreeTable, type GitTrees, type Tree } from "./trees.js";
export { isDirectorySync } from "./directories.js";
