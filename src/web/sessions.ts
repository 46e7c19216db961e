// What the page keeps on the server for a browser signed in with the provider, and for a sign-in under way: entries
// under random ids (the only thing the browser holds, in an HttpOnly cookie), each dropped when it expires, the
// store bounded so that no number of visitors can grow it past its size (the expired go first, then the oldest).
import { randomBytes } from "node:crypto";

const ID_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export class ExpiringStore<T> {
  private readonly entries = new Map<string, { readonly value: T; readonly until: number }>();

  constructor(
    private readonly capacity: number,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** Keep `value` until `until` (ms since the epoch); answers its new random id (256 bits, base64url). */
  add(value: T, until: number): string {
    if (this.entries.size >= this.capacity) {
      const now = this.now();
      for (const [id, entry] of this.entries) if (entry.until <= now) this.entries.delete(id);
      if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value as string);
    }
    const id = randomBytes(32).toString("base64url");
    this.entries.set(id, { value, until });
    return id;
  }

  /** The value under `id` while it lives; an expired one is dropped. */
  get(id: string | undefined): T | undefined {
    if (id === undefined || !ID_PATTERN.test(id)) return undefined;
    const entry = this.entries.get(id);
    if (entry === undefined) return undefined;
    if (entry.until <= this.now()) {
      this.entries.delete(id);
      return undefined;
    }
    return entry.value;
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
