// What the MCP layer needs of the live shelf, as a port: the shelf a request starts on, the one serve-time
// read, and the search. The layer below provides it; the MCP layer never touches the disk, the content cache or
// the holder.
import type { ReadOutcome, ScopeOn } from "../resolve/index.js";
import type { SearchOutcome, SearchRequest } from "../search/index.js";
import type { Shelf } from "../shelf/index.js";

export interface ShelfAccess {
  /** The shelf a request starts on: a request takes it once per step and compiles its scope against it. */
  readonly current: Shelf;
  /** Resolve and read `uri` under the caller's scope, compiled against whichever shelf the read lands on. */
  read(uri: string, scopeOn: ScopeOn): Promise<ReadOutcome>;
  /** Ranked skills for `request` under the caller's scope, compiled against the shelf the search runs on. */
  search(request: SearchRequest, scopeOn: ScopeOn): Promise<SearchOutcome>;
}
