// The usage store's schema: one list of versioned migrations, the same SQL on the embedded engine (PGlite) and on
// PostgreSQL. A migration is never edited once released; a change to the schema is a new entry at the end. The
// tables are part of the interface (docs/usage.md shows how to query them).

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/** The table that records which migrations a database has run. */
export const MIGRATIONS_TABLE = "skillshelf_migrations";

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "usage counts",
    sql: `
CREATE TABLE usage_reads (
  day date NOT NULL,
  library text NOT NULL,
  skill text NOT NULL,
  digest text NOT NULL,
  client text NOT NULL,
  surface text NOT NULL,
  file text NOT NULL,
  reads bigint NOT NULL,
  PRIMARY KEY (day, library, skill, digest, client, surface, file)
);
CREATE INDEX usage_reads_skill ON usage_reads (library, skill);
CREATE TABLE usage_searches (
  day date NOT NULL,
  query text NOT NULL,
  client text NOT NULL,
  surface text NOT NULL,
  searches bigint NOT NULL,
  zero_results bigint NOT NULL,
  PRIMARY KEY (day, query, client, surface)
);
`,
  },
  {
    version: 2,
    name: "prompts fetched, searches followed by a read",
    sql: `
CREATE TABLE usage_prompts (
  day date NOT NULL,
  library text NOT NULL,
  prompt text NOT NULL,
  client text NOT NULL,
  surface text NOT NULL,
  fetches bigint NOT NULL,
  PRIMARY KEY (day, library, prompt, client, surface)
);
ALTER TABLE usage_searches ADD COLUMN followed bigint NOT NULL DEFAULT 0;
`,
  },
  {
    version: 3,
    name: "page sessions shared by replicas",
    sql: `
CREATE TABLE page_sessions (
  id_hash text PRIMARY KEY,
  sealed text NOT NULL,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX page_sessions_expiry ON page_sessions (expires_at);
CREATE TABLE page_keys (
  name text PRIMARY KEY,
  key text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
`,
  },
];

/** The newest schema version this build knows. */
export const SCHEMA_VERSION = MIGRATIONS.reduce((max, migration) => Math.max(max, migration.version), 0);
