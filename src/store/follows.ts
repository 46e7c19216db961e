// Whether a search was followed by a read: each search that found skills is held for a window, with the skills it
// found; a read by the same client of one of them within the window marks it followed (once). Bounded: at most
// `capacity` searches are held; a search pushed out before its window ended is counted as untracked (whether a read
// followed it can no longer be known), so the count of searches never followed stays exact or says it is not.

/** How long after a search a read of one of its results counts as following it. */
export const FOLLOW_WINDOW_MS = 10 * 60_000;
/** Searches held at once (each holds at most its results: 50 skills). */
export const FOLLOW_CAPACITY = 10_000;

/** The row a search was counted in: the one a follow adds to. */
export interface SearchKey {
  readonly day: string;
  readonly query: string;
  readonly client: string;
  readonly surface: string;
}

interface Held {
  readonly key: SearchKey;
  readonly at: number;
  /** `library/skill` of each skill it found. */
  readonly skills: ReadonlySet<string>;
}

export class SearchFollows {
  /** In the order they were made (times only grow, so the oldest is first). */
  private readonly held = new Map<number, Held>();
  private readonly byClient = new Map<string, Set<number>>();
  private next = 0;
  /** No id below this is held: the oldest is found by counting up from it, never by walking the map from its front
   *  (a Map walks the holes its deletions left, so that walk grew with every search forgotten). */
  private low = 0;
  /** Searches pushed out by the bound before their window ended. */
  untracked = 0;

  constructor(
    private readonly windowMs = FOLLOW_WINDOW_MS,
    private readonly capacity = FOLLOW_CAPACITY,
  ) {}

  /** Searches held now. */
  get size(): number {
    return this.held.size;
  }

  /** Holds a search that found `skills` (`library/skill` each), made at `at` (ms); one that found none is not held.
   *  Answers true when the bound pushed an older search out to make room. */
  searched(key: SearchKey, skills: readonly string[], at: number): boolean {
    this.expire(at);
    if (skills.length === 0) return false;
    let pushedOut = false;
    if (this.held.size >= this.capacity) {
      this.forget(this.oldest() as number);
      this.untracked++;
      pushedOut = true;
    }
    const id = this.next++;
    this.held.set(id, { key, at, skills: new Set(skills) });
    const ids = this.byClient.get(key.client) ?? new Set<number>();
    ids.add(id);
    this.byClient.set(key.client, ids);
    return pushedOut;
  }

  /** A read by `client` of skill `library/skill` at `at`: the searches of that client within the window that found
   *  it, each answered once (they are then forgotten). */
  read(client: string, skill: string, at: number): SearchKey[] {
    this.expire(at);
    const ids = this.byClient.get(client);
    if (ids === undefined) return [];
    const followed: SearchKey[] = [];
    for (const id of ids) {
      const held = this.held.get(id);
      if (held === undefined || !held.skills.has(skill)) continue;
      followed.push(held.key);
      this.forget(id);
    }
    return followed;
  }

  /** Forgets searches whose window ended before `at`: nothing followed them. */
  private expire(at: number): void {
    for (let id = this.oldest(); id !== undefined; id = this.oldest()) {
      if ((this.held.get(id) as Held).at + this.windowMs >= at) return;
      this.forget(id);
    }
  }

  /** The id of the oldest search held, if any. */
  private oldest(): number | undefined {
    while (this.low < this.next && !this.held.has(this.low)) this.low++;
    return this.low < this.next ? this.low : undefined;
  }

  private forget(id: number): void {
    const held = this.held.get(id);
    if (held === undefined) return;
    this.held.delete(id);
    const ids = this.byClient.get(held.key.client);
    ids?.delete(id);
    if (ids?.size === 0) this.byClient.delete(held.key.client);
  }
}
