// What the page keeps on the server for a browser signed in with the provider: entries under random ids (the only
// thing the browser holds, in an HttpOnly cookie), each dropped when it expires. `SessionKeeper` is what the page
// asks of wherever they live: the store when the server has one (shared by replicas, kept over a restart; the layer
// above wires it), else this process's memory (`MemorySessions`), bounded so that no number of visitors can grow it
// past its size (the expired go first, then the oldest: `memo/ExpiringMap`).
import { randomBytes } from "node:crypto";
import { ExpiringMap } from "../memo/index.js";

/** A browser signed in with the provider, as the server keeps it: the access token never leaves the server. */
export interface PageSession {
  readonly accessToken: string;
  readonly displayName: string;
}

/** A session read back from a store: its two fields, or undefined. */
export function parsePageSession(value: unknown): PageSession | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const accessToken: unknown = Reflect.get(value, "accessToken");
  const displayName: unknown = Reflect.get(value, "displayName");
  return typeof accessToken === "string" && typeof displayName === "string" ? { accessToken, displayName } : undefined;
}

/** Browsers signed in with the provider at once that the page keeps in memory when it has no store. (A sign-in under
 *  way is kept in the browser that started it, sealed: it costs the server nothing.) */
export const MAX_SESSIONS = 10_000;

export interface SessionKeeper<T> {
  /** Keeps `value` until `until` (ms since the epoch); answers its new random id (256 bits, base64url). */
  add(value: T, until: number): Promise<string>;
  /** The value under `id` while it lives. */
  get(id: string | undefined): Promise<T | undefined>;
  /** Ends the session under `id` (never throws: a keeper that cannot reach its store says so in the log). */
  delete(id: string | undefined): Promise<void>;
  /** The keys that seal what a browser carries for this server (a sign-in under way; form tokens when no client
   *  token exists to derive them from): the first seals, each opens. */
  sealKeys(): readonly Uint8Array[];
  /** Settles once the keys are as shared as they can be now (the store's key read when the store is up). */
  ready(): Promise<void>;
}

/** Sessions in this process's memory: lost on a restart, seen by this replica only. */
export class MemorySessions<T> implements SessionKeeper<T> {
  private readonly store: ExpiringStore<T>;
  private readonly keys: readonly Uint8Array[] = [randomBytes(32)];

  constructor(capacity: number, now: () => number = Date.now) {
    this.store = new ExpiringStore(capacity, now);
  }

  add(value: T, until: number): Promise<string> {
    return Promise.resolve(this.store.add(value, until));
  }

  get(id: string | undefined): Promise<T | undefined> {
    return Promise.resolve(this.store.get(id));
  }

  delete(id: string | undefined): Promise<void> {
    this.store.delete(id);
    return Promise.resolve();
  }

  sealKeys(): readonly Uint8Array[] {
    return this.keys;
  }

  ready(): Promise<void> {
    return Promise.resolve();
  }
}

const ID_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export class ExpiringStore<T> {
  private readonly entries: ExpiringMap<string, T>;

  constructor(capacity: number, now: () => number = Date.now) {
    this.entries = new ExpiringMap(capacity, now);
  }

  get size(): number {
    return this.entries.size;
  }

  /** Keep `value` until `until` (ms since the epoch); answers its new random id (256 bits, base64url). */
  add(value: T, until: number): string {
    const id = randomBytes(32).toString("base64url");
    this.put(id, value, until);
    return id;
  }

  /** Keep `value` under `id` (made by the caller) until `until`. */
  put(id: string, value: T, until: number): void {
    this.entries.set(id, value, until);
  }

  /** The value under `id` while it lives; an expired one is dropped. */
  get(id: string | undefined): T | undefined {
    if (id === undefined || !ID_PATTERN.test(id)) return undefined;
    return this.entries.get(id);
  }

  /** The value under `id`, removed: it can be used once. */
  take(id: string | undefined): T | undefined {
    const value = this.get(id);
    if (value !== undefined) this.entries.delete(id as string);
    return value;
  }

  delete(id: string | undefined): void {
    if (id !== undefined) this.entries.delete(id);
  }
}
