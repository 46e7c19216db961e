// What changed between two shelves, as a client of one scope would notice it: the listing or any index, the
// prompts, and the bytes behind a URI. Built on the resolver, so "changed" means "reads differently".
import type { ScopeOn } from "./compile-scope.js";
import { listingRows } from "./listing.js";
import { visiblePrompts } from "./prompts.js";
import { documentPages, resolve } from "./resolve.js";
import type { Scope } from "./types.js";
import { FILES_FILE, formatSkillUri, INDEX_FILE, MANIFEST_FILE } from "../address/index.js";
import type { Shelf } from "../shelf/index.js";

/** The listing with one row per skill determines every index body; `_files.md` covers the library files. */
function formatStructure(shelf: Shelf, scope: Scope): string {
  const rows = listingRows(shelf, scope, true);
  const files = [...shelf.libraries.keys()].map((name) => readKey(shelf, scope, formatSkillUri(name, [FILES_FILE])));
  return JSON.stringify([rows, files]);
}

function formatPrompts(shelf: Shelf, scope: Scope): string {
  return JSON.stringify(visiblePrompts(shelf, scope).map((prompt) => [prompt.name, prompt.description, prompt.arguments, prompt.segments]));
}

/** What a read of `uri` would return, reduced to a comparable key (a digest for files, the text for documents). */
export function readKey(shelf: Shelf, scope: Scope, uri: string): string {
  const answer = resolve(shelf, scope, uri);
  switch (answer.kind) {
    case "file":
      return `f${answer.file.digest}`;
    case "fallback":
      return `d${answer.disk.size}:${answer.disk.mtimeMs}`;
    case "document":
      return `t${answer.text}`;
    case "notFound":
      return "-";
  }
}

export interface ShelfChange {
  readonly listChanged: boolean;
  readonly promptsChanged: boolean;
}

/** Each shelf is seen through the caller's scope compiled against it (`scopeOn`). */
export function diffShelves(previous: Shelf, next: Shelf, scopeOn: ScopeOn): ShelfChange {
  const [before, after] = [scopeOn(previous), scopeOn(next)];
  return {
    listChanged: formatStructure(previous, before) !== formatStructure(next, after),
    promptsChanged: formatPrompts(previous, before) !== formatPrompts(next, after),
  };
}

/** Every served address whose read changed (files, manifests, indexes, `_files.md`), over the whole shelf. */
export function changedUris(previous: Shelf, next: Shelf, scopeOn: ScopeOn): string[] {
  const [before, after] = [scopeOn(previous), scopeOn(next)];
  const candidates = new Set<string>();
  for (const shelf of [previous, next]) {
    for (const library of shelf.libraries.values()) {
      candidates.add(formatSkillUri(library.name, [INDEX_FILE]));
      candidates.add(formatSkillUri(library.name, [FILES_FILE]));
      for (const path of library.files.keys()) candidates.add(formatSkillUri(library.name, path.split("/")));
      for (const skill of library.skills.values()) {
        // Stryker disable next-line EqualityOperator: equivalent; a skill's own address is a folder only where a deeper skill adds its index.
        for (let depth = 1; depth < skill.address.length; depth++)
          candidates.add(formatSkillUri(library.name, [...skill.address.slice(0, depth), INDEX_FILE]));
        candidates.add(formatSkillUri(library.name, [...skill.address, MANIFEST_FILE]));
        for (const path of skill.paths) candidates.add(formatSkillUri(library.name, [...skill.address, ...path.split("/")]));
      }
    }
  }
  // The pages of a split index or `_files.md`, as either shelf splits it.
  for (const uri of [...candidates]) {
    for (const page of [...documentPages(previous, before, uri), ...documentPages(next, after, uri)]) candidates.add(page);
  }
  return [...candidates].filter((uri) => readKey(previous, before, uri) !== readKey(next, after, uri)).sort();
}
