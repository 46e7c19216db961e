// Sources: materialise fetches (local folders, file sources, and every fetched kind: git repositories, WebDAV
// folders, each behind the one `Fetcher` interface) and keep the cache directory.
export { cacheDirProblem, defaultCacheDir } from "./cache-dir.js";
export { RECORD_FILE } from "./cache-record.js";
export { planFetch, type FetchPlan } from "./fetch-plan.js";
export {
  type FailureKind,
  type Fetched,
  type Fetcher,
  type FetcherContext,
  type FetchRequest,
  LIVE_TIMING,
  type LiveTiming,
  SourceFailure,
  type SourceKind,
} from "./fetcher.js";
export { fetchedKind, openFetchers, registerSourceKind } from "./kinds.js";
export { ExportRetention } from "./export-retention.js";
export { resolveInside, TreeTable, type Tree } from "./trees.js";
export { isDirectorySync } from "./directories.js";
