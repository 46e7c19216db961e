// The bytes of recently read files, so a hot file is read from disk once. The shelf holds no file bytes (a
// 10,000-skill shelf has ~150 MB of them); this cache holds what clients actually read, up to a budget, evicting
// the least recently read. It holds bytes, not decoded strings: they live outside the JS heap, so they do not
// count towards how far the heap may grow before it is collected (docs/operations.md); decoding them again per
// read costs about a microsecond. It is keyed by digest: a digest names exactly one sequence of bytes, so an entry
// is right for every file, library and shelf generation that publishes it, and a file that changed on disk
// publishes a new digest after the rescan instead of reaching a stale entry.

/** 32 MiB: the hot part of a large shelf, a small share of the process. */
const CONTENT_CACHE_BYTES = 32 * 1024 * 1024;
/** Larger files are read each time: one would push out hundreds of small ones. */
const CONTENT_ENTRY_BYTES = 256 * 1024;

export class ContentCache {
  readonly #entries = new Map<string, Uint8Array>();
  #bytes = 0;
  /** Reads answered from the cache, and reads that had to go to the disk (for /metrics). */
  readonly stats = { hits: 0, misses: 0 };

  constructor(
    readonly budgetBytes = CONTENT_CACHE_BYTES,
    readonly entryBytes = Math.min(CONTENT_ENTRY_BYTES, budgetBytes),
  ) {}

  /** The bytes published under `digest`, now the most recently read; undefined when not held. */
  get(digest: string): Uint8Array | undefined {
    const bytes = this.#entries.get(digest);
    this.stats[bytes === undefined ? "misses" : "hits"]++;
    if (bytes !== undefined) {
      this.#entries.delete(digest);
      this.#entries.set(digest, bytes);
    }
    return bytes;
  }

  /** Hold `bytes` (verified against `digest` by the caller), evicting the least recently read over the budget. */
  set(digest: string, bytes: Uint8Array): void {
    if (bytes.byteLength > this.entryBytes || this.#entries.has(digest)) return;
    this.#entries.set(digest, bytes);
    this.#bytes += bytes.byteLength;
    for (const [oldest, held] of this.#entries) {
      if (this.#bytes <= this.budgetBytes) break;
      this.#entries.delete(oldest);
      this.#bytes -= held.byteLength;
    }
  }

  /** Entries and bytes held. */
  get size(): { readonly entries: number; readonly bytes: number } {
    return { entries: this.#entries.size, bytes: this.#bytes };
  }
}
