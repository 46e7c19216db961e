// A map that holds at most `capacity` entries, the oldest insertion going first when a new key needs room.
//
// The obvious way, deleting `map.keys().next().value`, is quadratic: a deleted entry of a JavaScript Map stays as a
// hole in its insertion order until the table is next rebuilt, and every `keys()` walks the holes from the front.
// A cache of 100,000 entries fed 300,000 keys spent 6 s in that walk. Here the insertion order is kept in an array
// read from a moving head, so an eviction costs the same whatever the map has seen.

interface Held<V> {
  readonly value: V;
  /** When the key was inserted: its listing in the order evicts it only if it is this insertion's. */
  readonly seq: number;
}

/** A Map bounded to `capacity` entries: `set` of a new key drops the oldest key still held once the map is full. */
export class BoundedMap<K, V> {
  private readonly entries = new Map<K, Held<V>>();
  /** Insertions in order from `head`; one whose key was deleted (or deleted and set again) since is skipped. */
  private order: { readonly key: K; readonly seq: number }[] = [];
  private head = 0;
  private seq = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`capacity must be a positive integer, not ${capacity}`);
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: K): V | undefined {
    return this.entries.get(key)?.value;
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  /** Set `key`: an existing key keeps its place in the order; a new one is the newest, evicting the oldest if full. */
  set(key: K, value: V): this {
    const held = this.entries.get(key);
    if (held !== undefined) {
      this.entries.set(key, { value, seq: held.seq });
      return this;
    }
    while (this.entries.size >= this.capacity) this.dropOldest();
    const seq = this.seq++;
    this.entries.set(key, { value, seq });
    this.order.push({ key, seq });
    // Insertions of keys deleted by hand pile up in `order`: it is rebuilt once it is twice as long as needed.
    if (this.order.length - this.head > 2 * this.capacity) this.compact();
    return this;
  }

  delete(key: K): boolean {
    return this.entries.delete(key);
  }

  /** The live keys, oldest first. */
  keys(): IterableIterator<K> {
    return this.entries.keys();
  }

  private dropOldest(): void {
    while (this.head < this.order.length) {
      const { key, seq } = this.order[this.head] as { key: K; seq: number };
      this.head++;
      if (this.entries.get(key)?.seq === seq) {
        this.entries.delete(key);
        break;
      }
    }
    if (this.head >= this.capacity) this.compact();
  }

  private compact(): void {
    this.order = this.order.slice(this.head).filter(({ key, seq }) => this.entries.get(key)?.seq === seq);
    this.head = 0;
  }
}
