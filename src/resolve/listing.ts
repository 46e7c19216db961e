// §4.4: the listing is indexes, not skills — a dozen rows whatever the size of the shelf — unless `full`.
import { formatCount, ROW_DESCRIPTION_CHARS } from "./documents.js";
import {
  compareCodeUnits,
  FILES_FILE,
  formatOneLine,
  formatSkillMdUri,
  formatSkillUri,
  INDEX_FILE,
  MARKDOWN,
  parseSkillUri,
  SKILL_FILE,
} from "../address/index.js";
import { memoize } from "../memo/index.js";
import type { FolderNode, LibraryView, ShelfView } from "./view.js";
import { libraryView, viewOf } from "./view.js";
import type { ListingRow, Scope } from "./types.js";
import type { Shelf, Skill } from "../shelf/index.js";

/** Visible libraries sorted by name: library index, top-level folder indexes, `_files.md`; then with `full`
 *  one row per visible skill (its SKILL.md) sorted by URI. Memoised per (shelf, scope). */
export function listingRows(shelf: Shelf, scope: Scope, full: boolean): readonly ListingRow[] {
  const view = viewOf(shelf, scope);
  const cached = view.listings.get(full);
  // Stryker disable next-line ConditionalExpression: equivalent; the cache only saves work, a second listing is the same.
  if (cached !== undefined) return cached;
  const libs = visibleLibraries(shelf, scope);
  const rows: ListingRow[] = [];
  for (const lib of libs) rows.push(...libraryRows(lib));
  if (full) rows.push(...byUri(libs.flatMap(skillRows)));
  Object.freeze(rows);
  view.listings.set(full, rows);
  return rows;
}

/** One library's part of the listing with one row per skill: its index rows, then its skills' rows by URI; none
 *  when the scope does not see it. That listing is every visible library's index rows by library name, then all
 *  their skill rows by URI, and a library's skill URIs sort together (they all begin `skill://<library>/`): two
 *  shelves list the same exactly when each library's part is the same. */
export function libraryListing(shelf: Shelf, scope: Scope, name: string): readonly ListingRow[] {
  const lib = libraryView(viewOf(shelf, scope), name);
  return lib === null ? [] : [...libraryRows(lib), ...byUri(skillRows(lib))];
}

function skillRows(lib: LibraryView): ListingRow[] {
  return [...lib.skills.values()].map((skill) => ({
    uri: formatSkillMdUri(lib.library.name, skill.address),
    name: skill.name,
    description: skill.description,
    mimeType: MARKDOWN,
  }));
}

function byUri(rows: ListingRow[]): ListingRow[] {
  return rows.sort((a, b) => compareCodeUnits(a.uri, b.uri));
}

/** A key that sorts listing rows (code-unit order) exactly as `listingRows` orders them, computed from the row's
 *  URI alone: per library by name its index, its folder indexes by name, its `_files.md`; then the skill rows by
 *  URI. A listing cursor holds it, so a page asked for after a rebuild resumes at the first row after it. */
export function listingKey(uri: string): string {
  const parsed = parseSkillUri(uri);
  if (parsed === null) return `2${uri}`;
  const [first, second] = parsed.segments;
  const library = `0${parsed.library}\u0000`;
  if (parsed.segments.length === 1 && first === INDEX_FILE) return `${library}0`;
  if (parsed.segments.length === 2 && second === INDEX_FILE) return `${library}1${first as string}`;
  if (parsed.segments.length === 1 && first === FILES_FILE) return `${library}2`;
  return `1${uri}`;
}

/** Every skill the scope sees, sorted by SKILL.md URI (for `skills/list` and friends). Memoised per (shelf, scope). */
export function visibleSkills(shelf: Shelf, scope: Scope): readonly Skill[] {
  return sortedSkills(viewOf(shelf, scope));
}

const sortedSkills = memoize((view: ShelfView): readonly Skill[] => {
  const out: { uri: string; skill: Skill }[] = [];
  for (const lib of visibleLibraries(view.shelf, view.scope)) {
    for (const skill of lib.skills.values()) {
      out.push({ uri: formatSkillMdUri(lib.library.name, skill.address), skill });
    }
  }
  out.sort((a, b) => compareCodeUnits(a.uri, b.uri));
  return Object.freeze(out.map((entry) => entry.skill));
});

/** The visible skill whose SKILL.md `uri` names (after normalisation), or null: `skills/get`'s lookup. */
export function findSkillBySkillMd(shelf: Shelf, scope: Scope, uri: string): Skill | null {
  const parsed = parseSkillUri(uri);
  // Stryker disable next-line ConditionalExpression: equivalent; a bare SKILL.md would name the skill at "", which no view holds.
  if (parsed === null || parsed.segments.length < 2 || parsed.segments[parsed.segments.length - 1] !== SKILL_FILE) return null;
  const lib = libraryView(viewOf(shelf, scope), parsed.library);
  return lib?.skills.get(parsed.segments.slice(0, -1).join("/")) ?? null;
}

function visibleLibraries(shelf: Shelf, scope: Scope): LibraryView[] {
  const view = viewOf(shelf, scope);
  const names = [...shelf.libraries.keys()].sort(compareCodeUnits);
  const out: LibraryView[] = [];
  for (const name of names) {
    const lib = libraryView(view, name);
    if (lib !== null) out.push(lib);
  }
  return out;
}

function libraryRows(lib: LibraryView): ListingRow[] {
  const name = lib.library.name;
  const rows: ListingRow[] = [];
  const root = lib.folders.get("");
  if (root !== undefined) {
    const about = formatOneLine(lib.library.description, ROW_DESCRIPTION_CHARS);
    rows.push({
      uri: formatSkillUri(name, [INDEX_FILE]),
      name: `${name}/${INDEX_FILE}`,
      description: `Library index: ${formatCount(root.count, "skill")}.${about === "" ? "" : ` ${about}`}`,
      mimeType: MARKDOWN,
    });
    for (const child of [...root.folders].sort(compareCodeUnits)) {
      const folder = lib.folders.get(child) as FolderNode;
      rows.push({
        uri: formatSkillUri(name, [child, INDEX_FILE]),
        name: `${name}/${child}/${INDEX_FILE}`,
        description: `Folder index: ${formatCount(folder.count, "skill")}.`,
        mimeType: MARKDOWN,
      });
    }
  }
  if (lib.files.length > 0) {
    rows.push({
      uri: formatSkillUri(name, [FILES_FILE]),
      name: `${name}/${FILES_FILE}`,
      description: `${formatCount(lib.files.length, "library file")} outside every skill.`,
      mimeType: MARKDOWN,
    });
  }
  return rows;
}
