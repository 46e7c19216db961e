// The usage store: one schema with versioned migrations on the embedded engine (PGlite) or PostgreSQL, counts
// buffered in memory and written in batches, and the tables an admin reads.
export { openEmbedded, openPostgres, type Queryable, type SqlBackend } from "./backend.js";
export { MAX_QUERY_CHARS, normaliseQuery, type PromptUse, type ReadUse, type SearchUse } from "./counts.js";
export { FOLLOW_CAPACITY, FOLLOW_WINDOW_MS, SearchFollows, type SearchKey } from "./follows.js";
export { migrate, type Migrated } from "./migrate.js";
export {
  mostRead,
  promptsFetched,
  readSkills,
  readsByClient,
  zeroResultSearches,
  unfollowedSearches,
  type ClientReads,
  type PromptFetches,
  type UnfollowedSearch,
  type SearchCount,
  type SkillReads,
  type Window,
} from "./report.js";
export { MIGRATIONS, SCHEMA_VERSION, type Migration } from "./schema.js";
export { dayOf, StoreUnavailableError, UsageStore, type UsageStatus, type UsageStoreOptions } from "./store.js";
export { lockDataDir, openLockedEmbedded } from "./lock.js";
export { StoredSessions, type LocalSessions, type StoredSessionsOptions } from "./page-sessions.js";
