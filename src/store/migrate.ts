// Bringing a database to this build's schema: the migrations it has not run, in order, in one transaction under an
// advisory lock, so two replicas starting together on one PostgreSQL never run the same migration twice.
import type { SqlBackend } from "./backend.js";
import { MIGRATIONS, MIGRATIONS_TABLE, SCHEMA_VERSION, type Migration } from "./schema.js";

/** An arbitrary constant: the advisory lock every skillshelf process takes while it migrates. */
const MIGRATION_LOCK = 7_301_559_031;

export interface Migrated {
  /** The versions run now, in order. */
  readonly applied: readonly number[];
  /** The newest version the database has run (newer than this build's when a newer replica migrated it). */
  readonly version: number;
}

export async function migrate(db: SqlBackend, migrations: readonly Migration[] = MIGRATIONS): Promise<Migrated> {
  return db.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
    await tx.exec(
      `CREATE TABLE IF NOT EXISTS ${MIGRATIONS_TABLE} (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const rows = await tx.query(`SELECT version FROM ${MIGRATIONS_TABLE}`);
    const done = new Set(rows.map((row) => Number(row["version"])));
    const applied: number[] = [];
    for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
      if (done.has(migration.version)) continue;
      await tx.exec(migration.sql);
      await tx.query(`INSERT INTO ${MIGRATIONS_TABLE} (version, name) VALUES ($1, $2)`, [migration.version, migration.name]);
      applied.push(migration.version);
    }
    return { applied, version: Math.max(SCHEMA_VERSION, ...done) };
  });
}
