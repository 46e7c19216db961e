// Map a resolver Answer to what a read returns: text or base64 blob, or a not-found message. The only place
// that turns file metadata into bytes (through sources/content), and the only user of the content cache.
import type { ShelfHolder } from "../live/index.js";
import { type Answer, NOT_FOUND_ADVICE, resolve, type Scope } from "../resolve/index.js";
import { mimeTypeFor } from "../address/index.js";
import { decodeUtf8, readFallbackFile, readServedFile } from "../sources/index.js";
import type { ContentCache } from "./content-cache.js";

export type ReadOutcome =
  | { readonly ok: true; readonly uri: string; readonly mimeType: string; readonly text: string }
  | { readonly ok: true; readonly uri: string; readonly mimeType: string; readonly blob: string }
  | { readonly ok: false; readonly uri: string; readonly message: string; readonly stale?: true };

/** Resolve and read `uri` on the current shelf. A file that changed on disk since the harvest waits for the rescan
 *  the watcher has pending, then is read again on the shelf that publishes its new bytes. */
export async function readUri(holder: ShelfHolder, scope: Scope, uri: string, contents: ContentCache): Promise<ReadOutcome> {
  const outcome = await readAnswer(resolve(holder.current, scope, uri), contents);
  if (outcome.ok || outcome.stale !== true || !(await holder.catchUp())) return outcome;
  return readAnswer(resolve(holder.current, scope, uri), contents);
}

export async function readAnswer(answer: Answer, contents: ContentCache): Promise<ReadOutcome> {
  switch (answer.kind) {
    case "notFound":
      return { ok: false, uri: answer.uri, message: answer.message };
    case "document":
      return { ok: true, uri: answer.uri, mimeType: answer.mimeType, text: answer.text };
    case "file": {
      let bytes = contents.get(answer.file.digest);
      if (bytes === undefined) {
        // A file the cache may hold is hashed on this read: its bytes will answer for every file published under
        // the same digest, so trusting an unchanged size and mtime (§9) is not enough for them.
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
      // A fallback read publishes no digest, so there is nothing to hold it under.
      const content = await readFallbackFile(answer.disk);
      if (!content.ok) return notFound(answer.uri);
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
