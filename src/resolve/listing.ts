// §4.4: the listing is indexes, not skills — a dozen rows whatever the size of the shelf — unless `full`.
import { formatCount, formatOneLine } from "./documents.js";
import {
  compareCodeUnits,
  FILES_FILE,
  formatSkillMdUri,
  formatSkillUri,
  INDEX_FILE,
  MARKDOWN,
  memoize,
  parseSkillUri,
  SKILL_FILE,
} from "../address/index.js";
import type { FolderNode, LibraryView, ShelfView } from "./view.js";
import { libraryView, viewOf } from "./view.js";
import type { ListingRow, Scope } from "./types.js";
import type { Shelf, Skill } from "../shelf/index.js";

/** Visible libraries sorted by name: library index, top-level folder indexes, `_files.md`; then with `full`
 *  one row per visible skill (its SKILL.md) sorted by URI. Memoised per (shelf, scope). */
export function listingRows(shelf: Shelf, scope: Scope, full: boolean): readonly ListingRow[] {
  const view = viewOf(shelf, scope);
  const cached = view.listings.get(full);
  if (cached !== undefined) return cached;
  const libs = visibleLibraries(shelf, scope);
  const rows: ListingRow[] = [];
  for (const lib of libs) rows.push(...libraryRows(lib));
  if (full) {
    const skills: ListingRow[] = [];
    for (const lib of libs) {
      for (const skill of lib.skills.values()) {
        skills.push({
          uri: formatSkillMdUri(lib.library.name, skill.address),
          name: skill.name,
          description: skill.description,
          mimeType: MARKDOWN,
        });
      }
    }
    skills.sort((a, b) => compareCodeUnits(a.uri, b.uri));
    rows.push(...skills);
  }
  Object.freeze(rows);
  view.listings.set(full, rows);
  return rows;
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
    const about = formatOneLine(lib.library.description);
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
