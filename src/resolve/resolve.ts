// §2: resolve(shelf, scope, uri) → Answer. Pure: no disk, no clock, no globals beyond the memo of views.
import { manifestOf, renderFiles, renderIndex } from "./documents.js";
import { formatNotFound } from "./hints.js";
import { lookup } from "./lookup.js";
import { JSON_TYPE, MARKDOWN, mimeTypeFor, parseSkillUri } from "../address/index.js";
import { libraryView, viewOf } from "./view.js";
import type { Answer, Scope } from "./types.js";
import type { Shelf } from "../shelf/index.js";

/** What a read of `uri` answers for a caller limited to `scope`. Never throws; the answer's `uri` is as sent. */
export function resolve(shelf: Shelf, scope: Scope, uri: string): Answer {
  const sent = typeof uri === "string" ? uri : String(uri);
  const address = parseSkillUri(sent);
  if (address === null) return formatNotFound(sent, null, null);
  // A library that does not exist and one outside the scope are the same: plain not found.
  const lib = libraryView(viewOf(shelf, scope), address.library);
  if (lib === null) return formatNotFound(sent, null, null);
  const target = lookup(lib, address.segments);
  switch (target?.kind) {
    case "index":
      return { kind: "document", uri: sent, mimeType: MARKDOWN, text: renderIndex(lib, target.folder) };
    case "files":
      return { kind: "document", uri: sent, mimeType: MARKDOWN, text: renderFiles(lib) };
    case "manifest":
      return { kind: "document", uri: sent, mimeType: JSON_TYPE, text: manifestOf(lib, target.skill).text };
    case "file":
      return { kind: "file", uri: sent, mimeType: target.file.mimeType, file: target.file };
    case "fallback":
      return { kind: "fallback", uri: sent, mimeType: mimeTypeFor(target.path), disk: target.disk };
    default:
      return formatNotFound(sent, lib, address.segments);
  }
}
