// A map whose entries each live until a time of their own, bounded to `capacity` entries: a new key in a full map
// pushes out the expired first, then the oldest insertion.
//
// Sweeping every entry for the expired on each insertion into a full map (what the page's sessions and the token
// cache did) costs O(capacity) per insertion once the map is full, so a flood of insertions makes every one of them
// walk the whole map. Here a full map is swept at most once per `capacity / 4` insertions, and in between the oldest
// insertion goes (`BoundedMap`): O(1) per insertion, amortised. Where every entry lives equally long (sessions),
// the oldest insertion is also the first to expire, so nothing changes; where lifetimes differ (tokens), a live
// entry may go before an expired one swept later, which costs one more check of that token.
import { BoundedMap } from "./bounded.js";

interface Timed<V> {
  readonly value: V;
  /** When it expires (the `now` clock's unit): alive while now < until. */
  readonly until: number;
}

export class ExpiringMap<K, V> {
  private readonly entries: BoundedMap<K, Timed<V>>;
  private readonly sweepEvery: number;
  /** Insertions into the full map since its last sweep; the first one sweeps. */
  private sinceSweep: number;

  constructor(
    capacity: number,
    private readonly now: () => number,
  ) {
    this.entries = new BoundedMap(capacity);
    this.sweepEvery = Math.max(1, Math.floor(capacity / 4));
    this.sinceSweep = this.sweepEvery - 1;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The value under `key` while it lives; an expired one is dropped. */
  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.until <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** Keep `value` under `key` until `until`. */
  set(key: K, value: V, until: number): void {
    if (!this.entries.has(key) && this.entries.size >= this.entries.capacity && ++this.sinceSweep >= this.sweepEvery) {
      this.sinceSweep = 0;
      this.sweep();
    }
    this.entries.set(key, { value, until });
  }

  delete(key: K): boolean {
    return this.entries.delete(key);
  }

  private sweep(): void {
    const now = this.now();
    for (const key of this.entries.keys()) if ((this.entries.get(key) as Timed<V>).until <= now) this.entries.delete(key);
  }
}
