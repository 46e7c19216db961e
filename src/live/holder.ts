// The one owner of the current shelf. A rebuild builds off to the side and swaps the reference; a request
// takes `current` once and finishes on that shelf whatever happens meanwhile.
import type { Shelf } from "../model.js";

export type ShelfListener = (next: Shelf, previous: Shelf) => void;

export class ShelfHolder {
  private shelf: Shelf;
  private readonly listeners = new Set<ShelfListener>();

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

  /** Returns the function that stops listening. */
  onSwap(listener: ShelfListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
