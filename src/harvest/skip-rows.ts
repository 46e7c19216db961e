// Skipped rows (§3.5), collected once per plugin: deduplicated (a nested skill's file is also its outer skill's)
// and sorted by path.
import { compareCodeUnits, type SkipRow } from "../address/index.js";

export class SkipRows {
  readonly #rows = new Map<string, SkipRow>();

  add(path: string, reason: string): void {
    const key = `${path}\u0000${reason}`;
    if (!this.#rows.has(key)) this.#rows.set(key, { path, reason });
  }

  /** Sorted by path (code-unit order), then reason. */
  sorted(): SkipRow[] {
    return [...this.#rows.values()].sort((a, b) => compareCodeUnits(a.path, b.path) || compareCodeUnits(a.reason, b.reason));
  }
}
