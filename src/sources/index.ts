// Sources: materialise fetches (local folders, file sources, git repositories, WebDAV folders) and keep the cache directory.
export { cacheDirProblem, defaultCacheDir } from "./cache-dir.js";
export { RECORD_FILE } from "./cache-record.js";
export { planFetch, type FetchPlan } from "./fetch-plan.js";
export { GitFetcher } from "./git-fetcher.js";
export { resolveInside, TreeTable, type GitTrees, type Tree, type WebdavTrees } from "./trees.js";
export { LIVE_TIMING, type LiveTiming, WebdavFetcher } from "./webdav-fetcher.js";
export { isDirectorySync } from "./directories.js";
