// The resource listing in pages of at most MAX_DOCUMENT_BYTES of JSON: a handful of index rows is one page, and
// a full listing (one row per skill) of a large shelf is many, each resumed from its cursor.
import { listingKey, MAX_DOCUMENT_BYTES, type ListingRow } from "../resolve/index.js";
import { paginate, resumeAfter, type Page } from "./pages.js";

/** Room for the result's envelope (`{"resources":[…],"nextCursor":…}`) within the bound. */
const ENVELOPE_BYTES = 1024;

const COMPACT = {
  count: Number.POSITIVE_INFINITY,
  bytes: MAX_DOCUMENT_BYTES - ENVELOPE_BYTES,
  sizeOf: (row: ListingRow): number => Buffer.byteLength(JSON.stringify(row)) + 1,
};

/** As the list_resources tool prints it: indented two spaces inside the array (6 lines), then `,\n`. */
const INDENTED = { ...COMPACT, sizeOf: (row: ListingRow): number => Buffer.byteLength(JSON.stringify(row, null, 2)) + 14 };

/** The page of `rows` after `cursor` (none: the first); a cursor this server did not issue is refused.
 *  `indented`: sized for `JSON.stringify(rows, null, 2)`, as the list_resources tool prints it. */
export function listingPage(rows: readonly ListingRow[], cursor: string | undefined, indented = false): Page<ListingRow> {
  return paginate(rows, (row) => listingKey(row.uri), resumeAfter(cursor), indented ? INDENTED : COMPACT);
}
