// What changed between two shelves, as a client of one scope would notice it: the listing or any index, the
// prompts, and the bytes behind a URI. Built on the resolver, so "changed" means "reads differently".
import type { ScopeOn } from "./compile-scope.js";
import { libraryListing } from "./listing.js";
import { isLibraryVisible, isVisible } from "./scope.js";
import { visiblePrompts } from "./prompts.js";
import { documentPages, resolve } from "./resolve.js";
import type { Scope } from "./types.js";
import { FILES_FILE, formatSkillUri, INDEX_FILE, MANIFEST_FILE } from "../address/index.js";
import type { Shelf } from "../shelf/index.js";

/** A library the build kept from the previous shelf (the very same object: its plan and each plugin's harvest are
 *  unchanged), seen alike through both scopes (itself and each plugin it serves visible or not alike), reads the
 *  same on both shelves: its listing rows, indexes, manifests, files and `_files.md`. The diffs skip it, so a change
 *  in one library of a large shelf costs that library's work, not the shelf's. */
function keptAlike(name: string, previous: Shelf, before: Scope, next: Shelf, after: Scope): boolean {
  const library = previous.libraries.get(name);
  if (library === undefined || next.libraries.get(name) !== library) return false;
  if (isLibraryVisible(before, name) !== isLibraryVisible(after, name)) return false;
  return library.served.every((id) => isVisible(before, name, id) === isVisible(after, name, id));
}

/** The listing with one row per skill determines every index body; `_files.md` covers the library files. */
function libraryStructure(shelf: Shelf, scope: Scope, name: string): string {
  return JSON.stringify([libraryListing(shelf, scope, name), readKey(shelf, scope, formatSkillUri(name, [FILES_FILE]))]);
}

/** Whether the listing with one row per skill, or a library's `_files.md`, reads differently. A library added,
 *  removed or moved counts as a change, even where this scope sees none of it. */
function structureChanged(previous: Shelf, before: Scope, next: Shelf, after: Scope): boolean {
  const names = [...previous.libraries.keys()];
  const nextNames = [...next.libraries.keys()];
  if (names.length !== nextNames.length || names.some((name, i) => nextNames[i] !== name)) return true;
  return names.some(
    (name) =>
      !keptAlike(name, previous, before, next, after) && libraryStructure(previous, before, name) !== libraryStructure(next, after, name),
  );
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
    listChanged: structureChanged(previous, before, next, after),
    promptsChanged: formatPrompts(previous, before) !== formatPrompts(next, after),
  };
}

/** Every served address whose read changed (files, manifests, indexes, `_files.md`), in every library not kept
 *  alike. */
export function changedUris(previous: Shelf, next: Shelf, scopeOn: ScopeOn): string[] {
  const [before, after] = [scopeOn(previous), scopeOn(next)];
  const candidates = new Set<string>();
  for (const shelf of [previous, next]) {
    for (const library of shelf.libraries.values()) {
      if (keptAlike(library.name, previous, before, next, after)) continue;
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
