// `resources/directory/read` (SEP-2640): the direct children of a directory address, as the scope sees it.
// Every directory counts: a library, a folder, a skill root, a subdirectory inside a skill, a directory of
// library files. Files and unknown addresses are not directories. Generated documents are not listed: a
// directory read shows the tree itself, and the indexes stay one read away.
import { compareCodeUnits, formatSkillUri, isAddressableSegment, MARKDOWN, parseSkillUri, SKILL_FILE } from "../address/index.js";
import { memoize } from "../memo/index.js";
import { formatNotFound } from "./hints.js";
import { lookup, prefixKeys } from "./lookup.js";
import { libraryView, viewOf, type LibraryView } from "./view.js";
import type { Scope } from "./types.js";
import type { Shelf, Skill } from "../shelf/index.js";

export const DIRECTORY_TYPE = "inode/directory";

interface DirectoryEntry {
  readonly uri: string;
  readonly name: string;
  readonly mimeType: string;
  readonly size?: number;
  readonly description?: string;
}

export type DirectoryAnswer =
  | { readonly kind: "directory"; readonly uri: string; readonly entries: readonly DirectoryEntry[] }
  | { readonly kind: "notFound"; readonly uri: string; readonly message: string };

type Child = { readonly kind: "dir" } | { readonly kind: "file"; readonly entry: DirectoryEntry };

export function readDirectory(shelf: Shelf, scope: Scope, uri: string): DirectoryAnswer {
  const parsed = parseSkillUri(uri);
  const lib = parsed === null ? null : libraryView(viewOf(shelf, scope), parsed.library);
  // Stryker disable next-line ConditionalExpression: equivalent; no address, no library view.
  if (parsed === null || lib === null) return notFound(uri, null, null);
  const segments = parsed.segments;
  const children = childrenOf(lib, segments);
  if (children.size === 0) return notFound(uri, lib, segments);
  const base = (name: string): string => formatSkillUri(lib.library.name, [...segments, name]);
  const entries: DirectoryEntry[] = [];
  for (const [name, child] of children) {
    entries.push(child.kind === "file" ? child.entry : { uri: base(name), name, mimeType: DIRECTORY_TYPE });
  }
  entries.sort((a, b) => compareCodeUnits(a.uri, b.uri));
  return { kind: "directory", uri, entries };
}

function notFound(uri: string, lib: LibraryView | null, segments: readonly string[] | null): DirectoryAnswer {
  return { kind: "notFound", uri, message: formatNotFound(uri, lib, segments).message };
}

/** Children by name; none when the address is no directory the scope sees. A child that is no file is a directory,
 *  whatever else its value holds. */
function childrenOf(lib: LibraryView, segments: readonly string[]): Map<string, Child> {
  const keys = prefixKeys(segments);
  // Inside (or at) a visible skill: its files decide, nested skills' files included.
  for (let i = segments.length; i >= 1; i--) {
    const skill = lib.skills.get(keys[i] as string);
    if (skill !== undefined) return skillChildren(lib, skill, segments.slice(i));
  }
  const key = keys[segments.length] as string;
  const out = new Map<string, Child>();
  const folder = lib.folders.get(key);
  if (folder !== undefined) {
    // Stryker disable next-line ObjectLiteral,StringLiteral: equivalent; a child that is no file is a directory.
    for (const name of folder.folders) out.set(name, { kind: "dir" });
    // Stryker disable next-line ObjectLiteral,StringLiteral: equivalent; a child that is no file is a directory.
    for (const skill of folder.skills) out.set(skill.address[skill.address.length - 1] as string, { kind: "dir" });
  }
  for (const [name, child] of libraryFileChildren(lib).get(key) ?? []) if (!out.has(name)) out.set(name, child);
  // No folder and no directory of library files: empty, which the caller answers as not found.
  return out;
}

function skillChildren(lib: LibraryView, skill: Skill, rest: readonly string[]): Map<string, Child> {
  const prefix = rest.length === 0 ? "" : `${rest.join("/")}/`;
  const out = new Map<string, Child>();
  for (const path of skill.files.keys()) {
    if (!path.startsWith(prefix)) continue;
    // Only what a read answers with a file, as the manifest lists: no hidden path, no name a generated document
    // takes, no segment a URI cannot carry. A directory is listed only when it holds such a file.
    const segments = [...skill.address, ...path.split("/")];
    if (!segments.every(isAddressableSegment)) continue;
    const target = lookup(lib, segments);
    if (target?.kind !== "file") continue;
    const file = target.file;
    const tail = path.slice(prefix.length);
    const cut = tail.indexOf("/");
    if (cut !== -1) {
      // Stryker disable next-line ObjectLiteral,StringLiteral: equivalent; a child that is no file is a directory.
      out.set(tail.slice(0, cut), { kind: "dir" });
      continue;
    }
    const entry: DirectoryEntry =
      path === SKILL_FILE
        ? {
            uri: formatSkillUri(lib.library.name, segments),
            name: skill.name,
            mimeType: MARKDOWN,
            size: file.size,
            description: skill.description,
          }
        : { uri: formatSkillUri(lib.library.name, segments), name: tail, mimeType: file.mimeType, size: file.size };
    out.set(tail, { kind: "file", entry });
  }
  return out;
}

/** Library files grouped by their directory key (`""` for the library root), computed once per view. */
const libraryFileChildren = memoize((lib: LibraryView): Map<string, Map<string, Child>> => {
  const byDir = new Map<string, Map<string, Child>>();
  for (const file of lib.files) {
    const segments = file.path.split("/");
    let key = "";
    segments.forEach((segment, depth) => {
      const children = byDir.get(key) ?? new Map<string, Child>();
      byDir.set(key, children);
      if (depth === segments.length - 1) {
        const uri = formatSkillUri(lib.library.name, segments);
        children.set(segment, { kind: "file", entry: { uri, name: segment, mimeType: file.file.mimeType, size: file.file.size } });
      } else {
        // A name is a file or a directory, never both: setting it again changes nothing.
        // Stryker disable next-line ObjectLiteral,StringLiteral: equivalent; a child that is no file is a directory.
        children.set(segment, { kind: "dir" });
      }
      key = key === "" ? segment : `${key}/${segment}`;
    });
  }
  return byDir;
});
