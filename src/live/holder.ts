// The one owner of the current shelf. A rebuild builds off to the side and swaps the reference; a request
// takes `current` once and finishes on that shelf whatever happens meanwhile. It also knows whether the watcher
// saw a change that no finished rescan has taken in yet, so a read that met a file changed since the harvest can
// wait for the shelf that publishes the new bytes instead of answering "not found".
import type { Shelf } from "../shelf/index.js";

export type ShelfListener = (next: Shelf, previous: Shelf) => void;

/** How long a read waits for a pending rescan before it answers with what it has. */
const CATCH_UP_MS = 2000;

export class ShelfHolder {
  private shelf: Shelf;
  private readonly listeners = new Set<ShelfListener>();
  /** Changes the watcher saw, and how many of them a finished rescan has taken in. */
  private seen = 0;
  private absorbed = 0;
  private readonly waiters = new Set<{ readonly upTo: number; readonly done: () => void }>();

  constructor(initial: Shelf) {
    this.shelf = initial;
  }

  get current(): Shelf {
    return this.shelf;
  }

  swap(next: Shelf): void {
    const previous = this.shelf;
    this.shelf = next;
    for (const listener of this.listeners) listener(next, previous);
  }

  /** The watcher saw a change; answers the count a rescan started now takes in. */
  sawChange(): number {
    return ++this.seen;
  }

  /** A rescan started when the count was `upTo` has finished (swapped or not): waiters up to it go on. */
  absorbedChanges(upTo: number): void {
    this.absorbed = Math.max(this.absorbed, upTo);
    for (const waiter of this.waiters) if (waiter.upTo <= this.absorbed) waiter.done();
  }

  /** Wait (at most `limitMs`) until every change seen so far is taken in; false at once when none is pending. */
  async catchUp(limitMs = CATCH_UP_MS): Promise<boolean> {
    if (this.absorbed >= this.seen) return false;
    await new Promise<void>((resolve) => {
      const waiter = {
        upTo: this.seen,
        done: () => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          resolve();
        },
      };
      const timer = setTimeout(waiter.done, limitMs);
      timer.unref();
      this.waiters.add(waiter);
    });
    return true;
  }

  /** Returns the function that stops listening. */
  onSwap(listener: ShelfListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
