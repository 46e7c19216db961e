// The one serve-time read: resolve an address on the current shelf under the caller's scope, then answer it from
// the content cache or the disk (or, for a live WebDAV fetch whose file moved on the share, the share), decoded, with
// its media type. The MCP layer calls `read(uri, scopeOn)` and never
// touches the disk, the cache or the holder itself.
import { mimeTypeFor } from "../address/index.js";
import { type Answer, NOT_FOUND_ADVICE, type ReadOutcome, resolve, type ScopeOn } from "../resolve/index.js";
import type { SearchOutcome, SearchRequest } from "../search/index.js";
import type { Shelf } from "../shelf/index.js";
import type { ContentCache } from "./content-cache.js";
import type { ShelfHolder } from "./holder.js";
import { ShelfSearch } from "./search.js";
import { decodeUtf8, readFallbackFile, readServedFile } from "./served-bytes.js";

/** What a read asks before serving a file from disk: the bytes a live WebDAV share holds now when they differ from
 *  the export's (undefined: read the export). The live shelf answers it; it never throws. */
export interface LiveFiles {
  revalidate(abs: string): Promise<Uint8Array | undefined>;
  /** Rebuild from the disk now (a read found a file changed that no watcher has reported yet). */
  rescan?(): Promise<unknown>;
}

export class ShelfReader {
  private readonly searches: ShelfSearch;
  /** The rescan reads that found a changed file share: one at a time, every stale read waiting for it. */
  private rescanning: Promise<unknown> | undefined;

  constructor(
    private readonly holder: ShelfHolder,
    private readonly contents: ContentCache,
    private readonly live?: LiveFiles,
    /** How long a read that met a changed file waits for the pending rescan (the holder's default unless given). */
    private readonly catchUpMs?: number,
  ) {
    this.searches = new ShelfSearch(holder);
  }

  /** The shelf a request starts on. */
  get current(): Shelf {
    return this.holder.current;
  }

  /** Resolve and read `uri` on the current shelf. A file that changed on disk since the harvest waits for the rescan
   *  the watcher has pending (or, none pending yet, asks for one), then is read again on the shelf that publishes
   *  its new bytes, under the scope compiled against that shelf. That rescan holds the bytes it read of each changed
   *  file under the digest it publishes, so the second read answers with them even when the file on disk has
   *  changed again since: a file that exists is never "not found" for being rewritten. */
  async read(uri: string, scopeOn: ScopeOn): Promise<ReadOutcome> {
    const outcome = await readAnswer(this.resolve(uri, scopeOn), this.contents, this.live);
    if (outcome.ok || outcome.stale !== true) return outcome;
    if (!(await this.holder.catchUp(this.catchUpMs))) {
      const rescan = this.live?.rescan;
      if (rescan === undefined) return outcome;
      this.rescanning ??= rescan.call(this.live).finally(() => (this.rescanning = undefined));
      await this.rescanning;
    }
    return readAnswer(this.resolve(uri, scopeOn), this.contents, this.live);
  }

  /** Ranked skills for `request` under the caller's scope, compiled against the shelf the search runs on. */
  search(request: SearchRequest, scopeOn: ScopeOn): Promise<SearchOutcome> {
    return this.searches.search(request, scopeOn);
  }

  private resolve(uri: string, scopeOn: ScopeOn): Answer {
    const shelf = this.holder.current;
    return resolve(shelf, scopeOn(shelf), uri);
  }
}

export async function readAnswer(answer: Answer, contents: ContentCache, live?: LiveFiles): Promise<ReadOutcome> {
  switch (answer.kind) {
    case "notFound":
      return { ok: false, uri: answer.uri, message: answer.message };
    case "document":
      return { ok: true, uri: answer.uri, mimeType: answer.mimeType, text: answer.text };
    case "file": {
      // A file of a live WebDAV fetch that changed on the share serves the share's bytes; they are not held under
      // the published digest, which is the export's.
      const fresh = answer.file.bytes === undefined && live !== undefined ? await live.revalidate(answer.file.disk.abs) : undefined;
      if (fresh !== undefined) {
        const body = bodyOf(fresh);
        return { ok: true, uri: answer.uri, mimeType: "text" in body ? answer.mimeType : answer.file.mimeType, ...body };
      }
      let bytes = contents.get(answer.file.digest);
      if (bytes === undefined) {
        // A file the cache may hold is hashed on this read: its bytes will answer for every file published under
        // the same digest, so trusting an unchanged size and mtime is not enough for them.
        const held = answer.file.bytes === undefined && answer.file.size <= contents.entryBytes;
        const content = await readServedFile(answer.file, held);
        if (!content.ok) return { ...notFound(answer.uri), stale: true };
        bytes = content.bytes;
        if (held) contents.set(answer.file.digest, bytes);
      }
      const body = bodyOf(bytes);
      return { ok: true, uri: answer.uri, mimeType: "text" in body ? answer.mimeType : answer.file.mimeType, ...body };
    }
    case "fallback": {
      // A fallback read publishes no digest, so there is nothing to hold it under. One that changed since the
      // harvest waits for the rescan, as a served file does.
      const content = await readFallbackFile(answer.disk);
      if (!content.ok) return { ...notFound(answer.uri), stale: true };
      const body = bodyOf(content.bytes);
      return { ok: true, uri: answer.uri, mimeType: mimeTypeFor(answer.disk.path, "text" in body), ...body };
    }
  }
}

/** A file that vanished or changed since the harvest is not served: its bytes would disagree with the published
 *  size and digest. The next rescan publishes the new ones. */
function notFound(uri: string): ReadOutcome & { ok: false } {
  return { ok: false, uri, message: `Not found: ${uri}. ${NOT_FOUND_ADVICE}` };
}

/** UTF-8 text as a string, anything else as base64. */
function bodyOf(bytes: Uint8Array): { readonly text: string } | { readonly blob: string } {
  const text = decodeUtf8(bytes);
  return text === null ? { blob: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64") } : { text };
}
