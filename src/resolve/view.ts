// What one scope sees of one shelf, computed once and memoised: WeakMap by shelf, then Map by scope key.
// Every per-request lookup after this is a map hit on a segment path; no request scans the skills.
import type { ListingRow, Scope } from "./types.js";
import { isLibraryVisible, isVisible } from "./scope.js";
import { compareCodeUnits, generatedDocumentOf, hasHiddenSegment, isAddressableSegment, joinPath } from "../address/index.js";
import { memoizeBy } from "../memo/index.js";
import type { HarvestedPlugin } from "../harvest/index.js";
import type { Library, LibraryFile, Shelf, Skill } from "../shelf/index.js";

/** A level of the address tree that holds at least one visible skill somewhere below it. */
export interface FolderNode {
  /** Segments below the library (`[]` for the library itself). */
  readonly segments: readonly string[];
  /** Visible skills anywhere below. */
  count: number;
  /** Names of child folders (each holds a visible skill). */
  readonly folders: Set<string>;
  /** Visible skills directly at this level. */
  readonly skills: Skill[];
}

/** The skill manifest as served, and the directories inside the skill it implies (for hints). */
/** One file of a skill's manifest: the path below the skill, and the size and digest of what a read of it answers. */
export interface ManifestEntry {
  readonly path: string;
  readonly size: number;
  readonly hash: string;
}

export interface Manifest {
  /** The `_manifest` document as served. */
  readonly text: string;
  /** What it lists, in its order. */
  readonly files: readonly ManifestEntry[];
  readonly dirs: ReadonlySet<string>;
}

export interface LibraryView {
  readonly library: Library;
  /** Served plugins the scope admits, in library order. */
  readonly plugins: readonly HarvestedPlugin[];
  readonly pluginById: ReadonlyMap<string, HarvestedPlugin>;
  /** Visible skills keyed by address path. */
  readonly skills: ReadonlyMap<string, Skill>;
  /** Keyed by address path below the library (`""` is the library root). */
  readonly folders: ReadonlyMap<string, FolderNode>;
  /** Visible library files in plugin order, then path order (the order of `_files.md`). */
  readonly files: readonly LibraryFile[];
  readonly fileByPath: ReadonlyMap<string, LibraryFile>;
  /** Proper ancestor directories of visible library files. */
  readonly fileDirs: ReadonlySet<string>;
  /** Every skill directory of the library's served plugins (served or skipped), per fetch, relative to the fetch. */
  readonly skillDirsByFetch: ReadonlyMap<string, ReadonlySet<string>>;
  /** Rendered `_index.md` pages per folder key: `[0]` is the document itself, `[k]` is `_index-k.md`. */
  readonly indexPages: Map<string, readonly string[]>;
  /** Rendered `_files.md` pages, likewise. */
  filesPages?: readonly string[];
  readonly manifests: Map<string, Manifest>;
}

export interface ShelfView {
  readonly shelf: Shelf;
  readonly scope: Scope;
  readonly libraries: Map<string, LibraryView | null>;
  /** Listing rows, by `full`. */
  readonly listings: Map<boolean, readonly ListingRow[]>;
}

/** Scopes are few (clients × narrowings); the cap only bounds memory against a flood of distinct ones. */
const MAX_SCOPES_PER_SHELF = 64;

/** Keyed by the scope's key within its shelf: a scope is only ever applied to the shelf it was compiled against, so
 *  one key names one plugin set per shelf. */
export const viewOf: (shelf: Shelf, scope: Scope) => ShelfView = memoizeBy(
  MAX_SCOPES_PER_SHELF,
  (scope: Scope) => scope.key,
  (shelf, scope) => ({ shelf, scope, libraries: new Map(), listings: new Map() }),
);

/** The library as the scope sees it, or null when it does not exist or lies outside the scope. */
export function libraryView(view: ShelfView, name: string): LibraryView | null {
  let lib = view.libraries.get(name);
  if (lib === undefined) {
    const library = view.shelf.libraries.get(name);
    lib = library !== undefined && isLibraryVisible(view.scope, name) ? buildLibraryView(view, library) : null;
    view.libraries.set(name, lib);
  }
  return lib;
}

function buildLibraryView(view: ShelfView, library: Library): LibraryView {
  const plugins: HarvestedPlugin[] = [];
  for (const id of library.served) {
    const plugin = view.shelf.plugins.get(id);
    // Stryker disable next-line ConditionalExpression: defence in depth; a library serves only plugins the shelf holds.
    if (plugin !== undefined && isVisible(view.scope, library.name, id)) plugins.push(plugin);
  }
  const pluginById = new Map(plugins.map((plugin) => [plugin.id, plugin]));

  const skills = new Map<string, Skill>();
  const folders = new Map<string, FolderNode>();
  for (const skill of library.skills.values()) {
    // Only admitted plugins, and only addresses a URI can reach, so every index line reads back.
    if (!pluginById.has(skill.plugin) || skill.address.length === 0) continue;
    if (!skill.address.every(isAddressableSegment)) continue;
    skills.set(skill.address.join("/"), skill);
    addToFolders(folders, skill);
  }

  const files = visibleFiles(library, plugins);
  const fileByPath = new Map(files.map((file) => [file.path, file]));
  const fileDirs = new Set<string>();
  for (const file of files) {
    // Stryker disable next-line StringLiteral: equivalent; starting at 0 only adds "", the library root, which no hint or read asks of fileDirs.
    for (let end = file.path.indexOf("/"); end !== -1; end = file.path.indexOf("/", end + 1)) {
      fileDirs.add(file.path.slice(0, end));
    }
  }

  return {
    library,
    plugins,
    pluginById,
    skills,
    folders,
    files,
    fileByPath,
    fileDirs,
    skillDirsByFetch: skillDirsByFetch(view.shelf, library),
    indexPages: new Map(),
    manifests: new Map(),
  };
}

// skills/a/b (address [a, b]) => folders "" (count+1, folder a), "a" (count+1, skill b).
function addToFolders(folders: Map<string, FolderNode>, skill: Skill): void {
  const address = skill.address;
  let key = "";
  for (let depth = 0; depth < address.length; depth++) {
    let node = folders.get(key);
    if (node === undefined) {
      node = { segments: address.slice(0, depth), count: 0, folders: new Set(), skills: [] };
      folders.set(key, node);
    }
    node.count++;
    const child = address[depth] as string;
    if (depth === address.length - 1) node.skills.push(skill);
    else node.folders.add(child);
    key = key === "" ? child : `${key}/${child}`;
  }
}

/** Library files of admitted plugins in plugin order then path order, minus any a read would refuse
 *  (hidden, reserved, unaddressable, inside a skill): `_files.md` never names what does not read back. */
function visibleFiles(library: Library, plugins: readonly HarvestedPlugin[]): LibraryFile[] {
  const out: LibraryFile[] = [];
  for (const plugin of plugins) {
    const own: LibraryFile[] = [];
    for (const file of library.files.values()) {
      if (file.plugin !== plugin.id) continue;
      const segments = file.path.split("/");
      const last = segments[segments.length - 1];
      if (!segments.every(isAddressableSegment) || hasHiddenSegment(segments)) continue;
      if (generatedDocumentOf(last as string) !== null || insideSkillAddress(library, segments)) continue;
      own.push(file);
    }
    own.sort((a, b) => compareCodeUnits(a.path, b.path));
    out.push(...own);
  }
  return out;
}

/** Whether some prefix of `segments` (itself included) is a skill address of the library, ignoring scope. */
export function insideSkillAddress(library: Library, segments: readonly string[]): boolean {
  let key = "";
  for (const segment of segments) {
    key = key === "" ? segment : `${key}/${segment}`;
    if (library.skillAddresses.has(key)) return true;
  }
  return false;
}

/** Skill directories are compared relative to the fetch, so plugins sharing one fetch (marketplace entries
 *  with `strict: false`, nested plugin roots) refuse each other's skill directories too. Scope-independent. */
function skillDirsByFetch(shelf: Shelf, library: Library): Map<string, Set<string>> {
  return skillDirs(library, shelf);
}

// Per library alone: a library kept from the previous shelf has the very same plugin harvests.
const skillDirs = memoizeBy(
  1,
  // Stryker disable next-line StringLiteral: equivalent; one entry per library, so any constant key does.
  (_shelf: Shelf) => "",
  (library: Library, shelf): Map<string, Set<string>> => {
    const byFetch = new Map<string, Set<string>>();
    for (const id of library.served) {
      const plugin = shelf.plugins.get(id);
      // Stryker disable next-line ConditionalExpression: defence in depth; a library serves only plugins the shelf holds.
      if (plugin === undefined) continue;
      let dirs = byFetch.get(plugin.fetch);
      if (dirs === undefined) {
        dirs = new Set();
        byFetch.set(plugin.fetch, dirs);
      }
      for (const dir of plugin.skillDirs) dirs.add(joinPath(plugin.root, dir));
    }
    return byFetch;
  },
);
