// Sources: materialise fetches (local folders, file sources, git repositories) and keep the cache directory.
export { defaultCacheDir } from "./cache-dir.js";
export { RECORD_FILE, readCacheRecord, writeCacheRecord, type CacheRecord, type RecordedFetch } from "./cache-record.js";
export { COMMIT, formatFetchKey, formatRepositoryUrl, planFetch, type FetchPlan } from "./fetch-plan.js";
export { GitFailure, type GitFailureKind } from "./git-errors.js";
export { DEFAULT_EXPORT_GRACE_MS, GitFetcher, type FetchedTree, type GitFetchRequest, type GitFetcherOptions } from "./git-fetcher.js";
export { DEFAULT_GIT_TIMEOUT_MS, DEFAULT_GIT_USERNAME, GitRunner } from "./git-runner.js";
export { resolveInside, TreeTable, type GitTrees, type Tree } from "./trees.js";
export { isDirectory, isDirectorySync } from "./directories.js";
