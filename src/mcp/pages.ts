// Pages of a sorted list behind an opaque cursor. A cursor holds the sort key of the last item of the previous
// page, so a rebuild between two pages neither repeats nor skips what stayed: the next page starts at the
// first key after it. `skill://a/x/SKILL.md` => base64url("after:skill://a/x/SKILL.md").
import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";

const CURSOR_PREFIX = "after:";

export function badCursor(): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, "Invalid cursor: pass back the nextCursor of the previous page unchanged");
}

function formatCursor(lastKey: string): string {
  return Buffer.from(CURSOR_PREFIX + lastKey, "utf8").toString("base64url");
}

/** The key to resume after, or null when the cursor is not one this server issued. */
function parseCursor(cursor: string): string | null {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  const text = Buffer.from(cursor, "base64url").toString("utf8");
  return text.startsWith(CURSOR_PREFIX) && text.length > CURSOR_PREFIX.length ? text.slice(CURSOR_PREFIX.length) : null;
}

/** The key to resume after: none for a first page; a cursor this server did not issue is refused. */
export function resumeAfter(cursor: string | undefined): string | null {
  if (cursor === undefined) return null;
  const after = parseCursor(cursor);
  if (after === null) throw badCursor();
  return after;
}

export interface Page<T> {
  readonly items: readonly T[];
  readonly nextCursor?: string;
}

/** How much one page may hold: at most `count` items and, with `bytes`, at most that many bytes of `sizeOf`
 *  (a page always holds at least one item). */
export interface PageBound<T> {
  readonly count: number;
  readonly bytes?: number;
  readonly sizeOf?: (item: T) => number;
}

/** One page of `sorted` (sorted by `keyOf`, code-unit order) after the cursor's key. */
export function paginate<T>(sorted: readonly T[], keyOf: (item: T) => string, after: string | null, bound: PageBound<T>): Page<T> {
  let start = 0;
  if (after !== null) {
    // Binary search for the first key greater than `after`.
    let high = sorted.length;
    while (start < high) {
      const mid = (start + high) >>> 1;
      if (keyOf(sorted[mid] as T) <= after) start = mid + 1;
      else high = mid;
    }
  }
  let end = Math.min(sorted.length, start + bound.count);
  if (bound.bytes !== undefined && bound.sizeOf !== undefined) {
    let used = 0;
    for (let i = start; i < end; i++) {
      used += bound.sizeOf(sorted[i] as T);
      if (used > bound.bytes && i > start) {
        end = i;
        break;
      }
    }
  }
  const items = sorted.slice(start, end);
  const last = items[items.length - 1];
  return end < sorted.length && last !== undefined ? { items, nextCursor: formatCursor(keyOf(last)) } : { items };
}
