// The served bodies of recently read files, so a hot file is read from disk and decoded once. The shelf holds no
// file bytes (a 10,000-skill shelf has ~150 MB of them); this cache holds what clients actually read, up to a
// budget, evicting the least recently read. It is keyed by digest: a digest names exactly one sequence of bytes,
// so an entry is right for every file, library and shelf generation that publishes it, and a file that changed
// on disk publishes a new digest after the rescan instead of reaching a stale entry.

/** A read's body: UTF-8 text as a string, anything else as base64. */
export type Body = { readonly text: string } | { readonly blob: string };

/** 32 Mi characters (UTF-16 code units): the hot part of a large shelf, a small share of the process. */
export const CONTENT_CACHE_CHARS = 32 * 1024 * 1024;
/** Larger bodies are read each time: one would push out hundreds of small ones. */
export const CONTENT_ENTRY_CHARS = 256 * 1024;

export class ContentCache {
  readonly #entries = new Map<string, Body>();
  #chars = 0;

  constructor(
    readonly budgetChars = CONTENT_CACHE_CHARS,
    readonly entryChars = Math.min(CONTENT_ENTRY_CHARS, budgetChars),
  ) {}

  /** The body published under `digest`, now the most recently read; undefined when not held. */
  get(digest: string): Body | undefined {
    const body = this.#entries.get(digest);
    if (body !== undefined) {
      this.#entries.delete(digest);
      this.#entries.set(digest, body);
    }
    return body;
  }

  /** Hold `body` (verified against `digest` by the caller), evicting the least recently read over the budget. */
  set(digest: string, body: Body): void {
    const chars = charsOf(body);
    if (chars > this.entryChars || this.#entries.has(digest)) return;
    this.#entries.set(digest, body);
    this.#chars += chars;
    for (const [oldest, held] of this.#entries) {
      if (this.#chars <= this.budgetChars) break;
      this.#entries.delete(oldest);
      this.#chars -= charsOf(held);
    }
  }

  /** Entries and characters held (for tests and `/health`-style reports). */
  get size(): { readonly entries: number; readonly chars: number } {
    return { entries: this.#entries.size, chars: this.#chars };
  }
}

function charsOf(body: Body): number {
  return "text" in body ? body.text.length : body.blob.length;
}
