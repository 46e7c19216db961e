// The usage store: counts held in memory and written in batches to the embedded database or to PostgreSQL. Counting
// is a synchronous update of a map: a read never waits for the database, and a database that is down or slow only
// delays the writes. While it is away the counts stay in memory up to a bound; past it uses are dropped and counted
// (on /health and in the log). The next flush after it returns opens it again, migrates it and writes what is held.
import type { SqlBackend, Queryable } from "./backend.js";
import { migrate } from "./migrate.js";
import { PendingCounts, type PromptRow, type PromptUse, type ReadRow, type ReadUse, type SearchRow, type SearchUse } from "./counts.js";
import { SearchFollows } from "./follows.js";
import { SCHEMA_VERSION } from "./schema.js";

export type StoreState = "starting" | "up" | "down" | "closed";

/** What /health shows of the store. */
export interface UsageStatus {
  readonly backend: "embedded" | "postgresql";
  readonly state: StoreState;
  /** Uses held in memory, not yet written. */
  readonly pending: number;
  /** Uses dropped since the start: the buffer was full while the database was away. */
  readonly dropped: number;
  /** Uses written since the start. */
  readonly written: number;
  /** Searches pushed out of the follow window's bound before it ended: whether a read followed them is unknown. */
  readonly searchesUntracked: number;
  readonly schemaVersion?: number;
  readonly lastFlush?: string;
  /** Why the last attempt to open or write failed (cleared by the next success). */
  readonly lastError?: string;
}

export interface UsageStoreOptions {
  readonly backend: "embedded" | "postgresql";
  /** Opens the database; called again after a failure, at the next flush. */
  readonly open: () => Promise<SqlBackend>;
  readonly now: () => Date;
  readonly flushMs: number;
  /** Distinct rows held in memory. */
  readonly buffer: number;
  readonly retentionMs: number;
  /** Rows in one INSERT statement. */
  readonly batchRows?: number;
  /** Whether a search was followed by a read (follows.ts); a fresh one with the defaults when absent. */
  readonly follows?: SearchFollows;
  /** State changes (up, down, dropping), for the log. */
  readonly onChange?: (level: "info" | "warn", message: string, fields: Record<string, unknown>) => void;
}

const DAY_MS = 86_400_000;
const DEFAULT_BATCH_ROWS = 500;

export function dayOf(time: Date): string {
  return time.toISOString().slice(0, 10);
}

/** `dayOf` for a stream of times, formatting a day once: counting asks it for every use. */
class DayClock {
  private day = Number.NaN;
  private text = "";

  of(time: Date): string {
    const day = Math.floor(time.getTime() / DAY_MS);
    if (day !== this.day) {
      this.day = day;
      this.text = dayOf(time);
    }
    return this.text;
  }
}

export class StoreUnavailableError extends Error {}

export class UsageStore {
  private pending: PendingCounts;
  private db: SqlBackend | undefined;
  private opening: Promise<SqlBackend> | undefined;
  private flushing: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private state: StoreState = "starting";
  private dropped = 0;
  private written = 0;
  private lastFlush: string | undefined;
  private lastError: string | undefined;
  private schemaVersion: number | undefined;
  private prunedDay: string | undefined;
  private droppingSince: number | undefined;
  private readonly follows: SearchFollows;
  private readonly days = new DayClock();

  constructor(private readonly options: UsageStoreOptions) {
    this.pending = new PendingCounts(options.buffer);
    this.follows = options.follows ?? new SearchFollows();
  }

  /** Opens the database in the background and flushes every `flushMs` from now on. */
  start(): void {
    if (this.timer !== undefined || this.state === "closed") return;
    this.timer = setInterval(() => void this.flush(), this.options.flushMs);
    this.timer.unref();
    void this.flush();
  }

  /** A read; it marks the searches of the same client that found this skill within the window as followed. */
  countRead(use: ReadUse): void {
    if (this.state === "closed") return;
    const now = this.options.now();
    if (!this.pending.addRead(this.days.of(now), use)) this.drop(1);
    for (const search of this.follows.read(use.client, `${use.library}/${use.skill}`, now.getTime())) {
      if (!this.pending.addSearch(search.day, search, { searches: 0, zeroResults: 0, followed: 1 })) this.drop(1);
    }
  }

  /** A search, with the skills it found (`library/skill` each), held for the follow window. */
  countSearch(use: SearchUse, found: readonly string[] = []): void {
    if (this.state === "closed") return;
    const now = this.options.now();
    const day = this.days.of(now);
    if (!this.pending.addSearch(day, use, { searches: 1, zeroResults: use.results === 0 ? 1 : 0, followed: 0 })) this.drop(1);
    const key = { day, query: use.query, client: use.client, surface: use.surface };
    if (this.follows.searched(key, found, now.getTime()) && this.follows.untracked === 1)
      this.options.onChange?.(
        "warn",
        "searches pushed out before their follow window ended: the count of searches never followed is not exact",
        {
          held: this.follows.size,
        },
      );
  }

  countPrompt(use: PromptUse): void {
    if (this.state === "closed") return;
    if (!this.pending.addPrompt(this.days.of(this.options.now()), use)) this.drop(1);
  }

  /** A line for the log, through the store's own (what shares the database, such as page sessions, reports here). */
  note(level: "info" | "warn", message: string, fields: Record<string, unknown>): void {
    this.options.onChange?.(level, message, fields);
  }

  status(): UsageStatus {
    return {
      backend: this.options.backend,
      state: this.state,
      pending: this.pending.uses,
      dropped: this.dropped,
      written: this.written,
      searchesUntracked: this.follows.untracked,
      ...(this.schemaVersion === undefined ? {} : { schemaVersion: this.schemaVersion }),
      ...(this.lastFlush === undefined ? {} : { lastFlush: this.lastFlush }),
      ...(this.lastError === undefined ? {} : { lastError: this.lastError }),
    };
  }

  /** Writes what is held (one flush at a time: a call during one waits for it, then runs its own). */
  async flush(): Promise<void> {
    while (this.flushing !== undefined) await this.flushing;
    if (this.state === "closed" && this.db === undefined) return;
    this.flushing = this.flushOnce().finally(() => (this.flushing = undefined));
    return this.flushing;
  }

  /** The database, for the read side; refused while it is away. */
  async reader(): Promise<Queryable> {
    if (this.db !== undefined && this.state === "up") return this.db;
    throw new StoreUnavailableError(`the usage database is ${this.state}${this.lastError === undefined ? "" : `: ${this.lastError}`}`);
  }

  /** Stops the timer, writes what is held (once), closes the database. */
  async close(): Promise<void> {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    if (this.state !== "closed" && this.pending.rows > 0) await this.flush();
    else if (this.flushing !== undefined) await this.flushing;
    this.state = "closed";
    const db = this.db ?? (await this.opening?.catch(() => undefined));
    this.db = undefined;
    await db?.close().catch(() => undefined);
  }

  private drop(uses: number): void {
    this.dropped += uses;
    if (this.droppingSince === undefined) {
      this.droppingSince = this.dropped;
      this.options.onChange?.("warn", "usage counts dropped: the buffer is full while the database is away", {
        buffer: this.options.buffer,
        backend: this.options.backend,
      });
    }
  }

  private async connect(): Promise<SqlBackend> {
    if (this.db !== undefined) return this.db;
    this.opening ??= (async () => {
      const db = await this.options.open();
      try {
        const migrated = await migrate(db);
        this.schemaVersion = migrated.version;
        if (migrated.applied.length > 0)
          this.options.onChange?.("info", "usage database migrated", { backend: db.kind, applied: migrated.applied });
        if (migrated.version > SCHEMA_VERSION)
          this.options.onChange?.("warn", "the usage database was migrated by a newer skillshelf: counting on with this build's tables", {
            version: migrated.version,
            known: SCHEMA_VERSION,
          });
      } catch (error) {
        await db.close().catch(() => undefined);
        throw error;
      }
      return db;
    })().finally(() => (this.opening = undefined));
    this.db = await this.opening;
    return this.db;
  }

  private async flushOnce(): Promise<void> {
    const batch = this.pending;
    this.pending = new PendingCounts(this.options.buffer);
    try {
      const db = await this.connect();
      if (batch.rows > 0) await db.transaction((tx) => writeBatch(tx, batch, this.options.batchRows ?? DEFAULT_BATCH_ROWS));
      await this.prune(db);
      this.written += batch.uses;
      this.lastFlush = this.options.now().toISOString();
      if (this.state !== "up" && this.state !== "closed") {
        this.options.onChange?.("info", "usage database up: counting resumed", { backend: this.options.backend, written: batch.uses });
      }
      if (this.state !== "closed") this.state = "up";
      this.lastError = undefined;
      this.droppingSince = undefined;
    } catch (error) {
      // Nothing of a failed transaction was written: its rows go back, as far as there is room.
      const lost = this.pending.restore(batch);
      if (lost > 0) this.drop(lost);
      const message = error instanceof Error ? error.message : String(error);
      if (this.state !== "down" || this.lastError !== message) {
        this.options.onChange?.("warn", "usage database unavailable: counts are held in memory", {
          backend: this.options.backend,
          error: message,
          pending: this.pending.uses,
        });
      }
      this.lastError = message;
      if (this.state !== "closed") this.state = "down";
    }
  }

  /** Daily rows older than the retention are deleted once a day. */
  private async prune(db: Queryable): Promise<void> {
    const today = dayOf(this.options.now());
    if (this.prunedDay === today) return;
    const oldest = dayOf(new Date(this.options.now().getTime() - this.options.retentionMs + DAY_MS));
    await db.query("DELETE FROM usage_reads WHERE day < $1::date", [oldest]);
    await db.query("DELETE FROM usage_searches WHERE day < $1::date", [oldest]);
    await db.query("DELETE FROM usage_prompts WHERE day < $1::date", [oldest]);
    this.prunedDay = today;
  }
}

async function writeBatch(tx: Queryable, batch: PendingCounts, batchRows: number): Promise<void> {
  const reads = [...batch.reads.values()];
  for (let start = 0; start < reads.length; start += batchRows) {
    const rows = reads.slice(start, start + batchRows);
    await tx.query(
      `INSERT INTO usage_reads (day, library, skill, digest, client, surface, file, reads) VALUES ${placeholders(rows.length, 8, 1)}
       ON CONFLICT (day, library, skill, digest, client, surface, file) DO UPDATE SET reads = usage_reads.reads + EXCLUDED.reads`,
      rows.flatMap((row: ReadRow) => [row.day, row.library, row.skill, row.digest, row.client, row.surface, row.file, row.reads]),
    );
  }
  const searches = [...batch.searches.values()];
  for (let start = 0; start < searches.length; start += batchRows) {
    const rows = searches.slice(start, start + batchRows);
    await tx.query(
      `INSERT INTO usage_searches (day, query, client, surface, searches, zero_results, followed) VALUES ${placeholders(rows.length, 7, 1)}
       ON CONFLICT (day, query, client, surface) DO UPDATE SET searches = usage_searches.searches + EXCLUDED.searches,
         zero_results = usage_searches.zero_results + EXCLUDED.zero_results, followed = usage_searches.followed + EXCLUDED.followed`,
      rows.flatMap((row: SearchRow) => [row.day, row.query, row.client, row.surface, row.searches, row.zeroResults, row.followed]),
    );
  }
  const prompts = [...batch.prompts.values()];
  for (let start = 0; start < prompts.length; start += batchRows) {
    const rows = prompts.slice(start, start + batchRows);
    await tx.query(
      `INSERT INTO usage_prompts (day, library, prompt, client, surface, fetches) VALUES ${placeholders(rows.length, 6, 1)}
       ON CONFLICT (day, library, prompt, client, surface) DO UPDATE SET fetches = usage_prompts.fetches + EXCLUDED.fetches`,
      rows.flatMap((row: PromptRow) => [row.day, row.library, row.prompt, row.client, row.surface, row.fetches]),
    );
  }
}

/** `($1::date, $2, …), (…)`: the first column of each row is a day. */
function placeholders(rows: number, columns: number, dateColumns: number): string {
  const out: string[] = [];
  for (let r = 0; r < rows; r++) {
    const cells: string[] = [];
    for (let c = 1; c <= columns; c++) cells.push(`$${r * columns + c}${c <= dateColumns ? "::date" : ""}`);
    out.push(`(${cells.join(", ")})`);
  }
  return out.join(", ");
}
