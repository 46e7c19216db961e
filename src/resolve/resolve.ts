// §2: resolve(shelf, scope, uri) → Answer. Pure: no disk, no clock, no globals beyond the memo of views.
import { filesPages, indexPages, manifestOf } from "./documents.js";
import { formatNotFound } from "./hints.js";
import { lookup } from "./lookup.js";
import { formatPageName, formatSkillUri, JSON_TYPE, MARKDOWN, mimeTypeFor, parseSkillUri } from "../address/index.js";
import { libraryView, viewOf } from "./view.js";
import type { Answer, Scope } from "./types.js";
import type { Shelf } from "../shelf/index.js";

/** What a read of `uri` answers for a caller limited to `scope`. Never throws; the answer's `uri` is as sent. */
export function resolve(shelf: Shelf, scope: Scope, uri: string): Answer {
  const sent = String(uri);
  const address = parseSkillUri(sent);
  if (address === null) return formatNotFound(sent, null, null);
  // A library that does not exist and one outside the scope are the same: plain not found.
  const lib = libraryView(viewOf(shelf, scope), address.library);
  if (lib === null) return formatNotFound(sent, null, null);
  const target = lookup(lib, address.segments);
  switch (target?.kind) {
    case "index":
    case "files": {
      const text = (target.kind === "index" ? indexPages(lib, target.folder) : filesPages(lib))[target.page];
      // A page past the last: the name is reserved for the document, so nothing else answers it.
      if (text === undefined) return formatNotFound(sent, null, null);
      return { kind: "document", uri: sent, mimeType: MARKDOWN, text };
    }
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

/** The URIs of the pages `uri` (an `_index.md` or `_files.md`) is split into; none when it is whole or no document. */
export function documentPages(shelf: Shelf, scope: Scope, uri: string): string[] {
  const address = parseSkillUri(uri);
  const lib = address === null ? null : libraryView(viewOf(shelf, scope), address.library);
  // Stryker disable next-line ConditionalExpression: equivalent; no address, no library view.
  if (address === null || lib === null) return [];
  const target = lookup(lib, address.segments);
  if ((target?.kind !== "index" && target?.kind !== "files") || target.page !== 0) return [];
  const pages = target.kind === "index" ? indexPages(lib, target.folder) : filesPages(lib);
  const parent = address.segments.slice(0, -1);
  return pages.slice(1).map((_text, i) => formatSkillUri(lib.library.name, [...parent, formatPageName(target.kind, i + 1)]));
}
