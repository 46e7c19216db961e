// What the harvest steps share for one plugin: the sorted walk, the reader, the skipped rows.
import type { FileReader } from "./digest.js";
import type { Pacer } from "./pacer.js";
import type { SkipRows } from "./skip-rows.js";
import type { WalkEntry } from "./walk.js";
import type { HarvestedSkill } from "./types.js";
import type { Naming } from "../config/index.js";
import type { GuardFinding } from "../guard/index.js";

export interface HarvestContext {
  /** Every walked file, sorted by path in code-unit order. */
  readonly entries: readonly WalkEntry[];
  /** Paths of symlinks leaving the root, sorted. */
  readonly escapes: readonly string[];
  readonly fileBytes: number;
  readonly reader: FileReader;
  /** Yields to the event loop between slices of synchronous disk work. */
  readonly pacer: Pacer;
  readonly skipped: SkipRows;
  /** Rows about what was served although it bends a rule (naming: lenient). */
  readonly warnings: SkipRows;
  readonly naming: Naming;
  /** The previous harvest's served skills by directory, whose parsed frontmatter an unchanged SKILL.md reuses. */
  readonly priorSkills: ReadonlyMap<string, HarvestedSkill>;
  /** What the guard found in prompt files (read here, not through the reader). */
  readonly promptFindings: GuardFinding[];
}

/** The slice of a sorted list whose paths lie under `dir` (everything for `""`): paths with one prefix are
 *  contiguous in code-unit order, so this is a binary search, not a scan. */
export function under<T>(sorted: readonly T[], dir: string, pathOf: (item: T) => string): readonly T[] {
  if (dir === "") return sorted;
  const prefix = `${dir}/`;
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (pathOf(sorted[mid] as T) < prefix) lo = mid + 1;
    else hi = mid;
  }
  let end = lo;
  while (end < sorted.length && pathOf(sorted[end] as T).startsWith(prefix)) end++;
  return sorted.slice(lo, end);
}
