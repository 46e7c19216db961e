// Signed-in page sessions in the store, so that a restart keeps people signed in and every replica on one database
// serves them. The browser holds a random 256-bit id; a row is keyed by the id's SHA-256 and its value sealed
// (AES-256-GCM) under a key derived from the id (HKDF), so the database alone names no session and holds no access
// token in the clear. While the database is away a session is kept by this process (`local`) and named once in the
// log; a sign-out deletes it on both. The store also keeps one random key every replica shares, for what the page
// seals into a browser (a sign-in under way, form tokens when no client token exists to derive them from).
import { createHash, hkdfSync, randomBytes } from "node:crypto";
import { seal, unseal } from "../seal/index.js";
import type { UsageStore } from "./store.js";

const ID_PATTERN = /^[A-Za-z0-9_-]{43}$/;
/** Expired rows are deleted by an add at most this often. */
const PRUNE_MS = 60_000;

/** What keeps a session while the database is away (the page's in-memory store). */
export interface LocalSessions<T> {
  put(id: string, value: T, until: number): void;
  get(id: string | undefined): T | undefined;
  delete(id: string | undefined): void;
}

export interface StoredSessionsOptions<T> {
  /** A value read back from the database, checked (undefined: not a session of this build). */
  readonly parse: (value: unknown) => T | undefined;
  readonly now?: () => number;
  /** Entering and leaving the fallback to this process's memory, once each; absent: the store's log. */
  readonly onChange?: (level: "info" | "warn", message: string, fields: Record<string, unknown>) => void;
}

export class StoredSessions<T> {
  private readonly processKey = randomBytes(32);
  private keys: readonly Uint8Array[] = [this.processKey];
  private shared: Uint8Array | undefined;
  private loadingKey: Promise<void> | undefined;
  private prunedAt = 0;
  private degraded = false;
  private readonly now: () => number;

  constructor(
    private readonly store: UsageStore,
    private readonly local: LocalSessions<T>,
    private readonly options: StoredSessionsOptions<T>,
  ) {
    this.now = options.now ?? Date.now;
  }

  /** Keeps `value` until `until` (ms since the epoch) under a new random id, which it answers. */
  async add(value: T, until: number): Promise<string> {
    const id = randomBytes(32).toString("base64url");
    try {
      const db = await this.store.reader();
      if (this.now() - this.prunedAt >= PRUNE_MS) {
        this.prunedAt = this.now();
        await db.query("DELETE FROM page_sessions WHERE expires_at <= $1", [new Date(this.now())]);
      }
      await db.query("INSERT INTO page_sessions (id_hash, sealed, expires_at) VALUES ($1, $2, $3)", [
        hashOf(id),
        seal(keyOf(id), JSON.stringify(value)),
        new Date(until),
      ]);
      this.recovered();
    } catch (error) {
      this.local.put(id, value, until);
      this.fellBack(error);
    }
    return id;
  }

  /** The session under `id` while it lives: from the database, else (kept while it was away) from this process. */
  async get(id: string | undefined): Promise<T | undefined> {
    if (id === undefined || !ID_PATTERN.test(id)) return undefined;
    try {
      const db = await this.store.reader();
      const rows = await db.query("SELECT sealed FROM page_sessions WHERE id_hash = $1 AND expires_at > $2", [
        hashOf(id),
        new Date(this.now()),
      ]);
      this.recovered();
      const sealed = rows[0]?.["sealed"];
      if (typeof sealed !== "string") return this.local.get(id);
      const plain = unseal(keyOf(id), sealed);
      return plain === undefined ? undefined : this.options.parse(JSON.parse(plain));
    } catch (error) {
      this.fellBack(error);
      return this.local.get(id);
    }
  }

  /** Ends the session under `id`, in the database and in this process. */
  async delete(id: string | undefined): Promise<void> {
    if (id === undefined || !ID_PATTERN.test(id)) return;
    this.local.delete(id);
    try {
      const db = await this.store.reader();
      await db.query("DELETE FROM page_sessions WHERE id_hash = $1", [hashOf(id)]);
    } catch (error) {
      this.fellBack(error);
    }
  }

  /** The keys that seal what a browser carries: the replicas' shared key once read from the store, then this
   *  process's own (what it sealed before the shared key was known still opens here). */
  sealKeys(): readonly Uint8Array[] {
    if (this.shared === undefined) void this.ready();
    return this.keys;
  }

  /** Settles once the shared key is read, or reading it failed (the database is away: the process key serves). */
  async ready(): Promise<void> {
    if (this.shared === undefined) await (this.loadingKey ??= this.loadKey().finally(() => (this.loadingKey = undefined)));
  }

  /** Reads the shared key, made by the first replica to ask (the others read the one it wrote). */
  private async loadKey(): Promise<void> {
    try {
      const db = await this.store.reader();
      await db.query("INSERT INTO page_keys (name, key) VALUES ('page', $1) ON CONFLICT (name) DO NOTHING", [
        randomBytes(32).toString("base64url"),
      ]);
      const rows = await db.query("SELECT key FROM page_keys WHERE name = 'page'");
      const key = rows[0]?.["key"];
      if (typeof key === "string") {
        this.shared = Buffer.from(key, "base64url");
        this.keys = [this.shared, this.processKey];
      }
    } catch {
      // The database is away: the process key serves until a later call reads the shared one.
    }
  }

  private fellBack(error: unknown): void {
    if (this.degraded) return;
    this.degraded = true;
    (this.options.onChange ?? this.store.note.bind(this.store))(
      "warn",
      "page sessions kept by this process only: the store is unavailable",
      {
        error: error instanceof Error ? error.message : String(error),
        effect: "a browser signing in now stays signed in on this replica, until it restarts",
      },
    );
  }

  private recovered(): void {
    if (!this.degraded) return;
    this.degraded = false;
    (this.options.onChange ?? this.store.note.bind(this.store))("info", "page sessions in the store again", {});
  }
}

function hashOf(id: string): string {
  return createHash("sha256").update(id, "utf8").digest("hex");
}

function keyOf(id: string): Buffer {
  return Buffer.from(hkdfSync("sha256", Buffer.from(id, "utf8"), Buffer.alloc(0), "skillshelf page session", 32));
}
