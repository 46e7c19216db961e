// Map a resolver Answer to what a read returns: text or base64 blob, or a not-found message. The only place
// that turns file metadata into bytes (through sources/content).
import type { Answer } from "../model.js";
import { NOT_FOUND_ADVICE } from "../resolve/index.js";
import { mimeTypeFor } from "../resolve/media.js";
import { decodeUtf8, readFallbackFile, readServedFile, type Content } from "../sources/content.js";

export type ReadOutcome =
  | { readonly ok: true; readonly uri: string; readonly mimeType: string; readonly text: string }
  | { readonly ok: true; readonly uri: string; readonly mimeType: string; readonly blob: string }
  | { readonly ok: false; readonly uri: string; readonly message: string };

export async function readAnswer(answer: Answer): Promise<ReadOutcome> {
  switch (answer.kind) {
    case "notFound":
      return { ok: false, uri: answer.uri, message: answer.message };
    case "document":
      return { ok: true, uri: answer.uri, mimeType: answer.mimeType, text: answer.text };
    case "file":
      return toOutcome(answer.uri, await readServedFile(answer.file), (text) => (text ? answer.mimeType : answer.file.mimeType));
    case "fallback":
      return toOutcome(answer.uri, await readFallbackFile(answer.disk), (text) => mimeTypeFor(answer.disk.path, text));
  }
}

function toOutcome(uri: string, content: Content, typeOf: (text: boolean) => string): ReadOutcome {
  // A file that vanished or changed since the harvest is not served: its bytes would disagree with the
  // published size and digest. The next rescan publishes the new ones.
  if (!content.ok) return { ok: false, uri, message: `Not found: ${uri}. ${NOT_FOUND_ADVICE}` };
  const text = decodeUtf8(content.bytes);
  return text === null
    ? { ok: true, uri, mimeType: typeOf(false), blob: Buffer.from(content.bytes).toString("base64") }
    : { ok: true, uri, mimeType: typeOf(true), text };
}
