// The two engines behind the usage store, reduced to what it needs: a parameterised query, a transaction and a
// close. PGlite (PostgreSQL built to WebAssembly) runs in this process on a folder of the cache directory;
// `postgres` is the client of a PostgreSQL server that replicas share. Both run the same SQL.
import { mkdir } from "node:fs/promises";
import type { PGlite } from "@electric-sql/pglite";
import type { Sql } from "postgres";

export type Row = Readonly<Record<string, unknown>>;

export interface Queryable {
  query(sql: string, params?: readonly unknown[]): Promise<readonly Row[]>;
}

export interface SqlBackend extends Queryable {
  /** `embedded` or `postgresql`: what /health and the log name. */
  readonly kind: "embedded" | "postgresql";
  /** Several statements without parameters (a migration). */
  exec(sql: string): Promise<void>;
  /** `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: Queryable & { exec(sql: string): Promise<void> }) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** PGlite on `dir` (created when missing). Loaded on first use: a server that counts nothing never loads it. */
export async function openEmbedded(dir: string): Promise<SqlBackend> {
  await mkdir(dir, { recursive: true });
  const { PGlite } = await import("@electric-sql/pglite");
  const db: PGlite = await PGlite.create(dir);
  return {
    kind: "embedded",
    async query(sql, params = []) {
      return (await db.query<Row>(sql, [...params])).rows;
    },
    async exec(sql) {
      await db.exec(sql);
    },
    transaction(work) {
      return db.transaction((tx) =>
        work({
          query: async (sql, params = []) => (await tx.query<Row>(sql, [...params])).rows,
          exec: async (sql) => void (await tx.exec(sql)),
        }),
      );
    },
    close: () => db.close(),
  };
}

export interface PostgresOptions {
  /** Seconds to wait for a connection before a flush counts as failed. */
  readonly connectTimeoutSeconds?: number;
  /** Milliseconds a statement may run before the server cancels it. */
  readonly statementTimeoutMs?: number;
}

/** A pool of at most two connections to `url`; connections are opened on first use and again after an outage. */
export async function openPostgres(url: string, options: PostgresOptions = {}): Promise<SqlBackend> {
  const { default: postgres } = await import("postgres");
  const sql: Sql = postgres(url, {
    max: 2,
    connect_timeout: options.connectTimeoutSeconds ?? 10,
    idle_timeout: 60,
    onnotice: () => undefined,
    connection: { statement_timeout: options.statementTimeoutMs ?? 30_000, application_name: "skillshelf" },
  });
  return {
    kind: "postgresql",
    async query(text, params = []) {
      return (await sql.unsafe(text, [...params] as never[])) as unknown as Row[];
    },
    async exec(text) {
      await sql.unsafe(text);
    },
    async transaction(work) {
      return (await sql.begin((tx) =>
        work({
          query: async (text, params = []) => (await tx.unsafe(text, [...params] as never[])) as unknown as Row[],
          exec: async (text) => void (await tx.unsafe(text)),
        }),
      )) as never;
    },
    close: () => sql.end({ timeout: 5 }),
  };
}
