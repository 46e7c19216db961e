// §2.2, the order of lookup, as a classification of normalised segments: which thing an address is, if any.
// Rendering is left to the caller, so the manifest can classify its own paths without recursion.
import type { FolderNode, LibraryView } from "./view.js";
import { insideSkillAddress } from "./view.js";
import { generatedDocumentOf, hasHiddenSegment, joinPath, MANIFEST_FILE } from "../address/index.js";
import type { DiskFile, HarvestedPlugin } from "../harvest/index.js";
import type { ServedFile, Skill } from "../shelf/index.js";

export type Target =
  | { readonly kind: "index"; readonly folder: FolderNode; readonly page: number }
  | { readonly kind: "files"; readonly page: number }
  | { readonly kind: "manifest"; readonly skill: Skill }
  | { readonly kind: "file"; readonly file: ServedFile }
  | { readonly kind: "fallback"; readonly path: string; readonly disk: DiskFile };

/** `["grafana-lgtm", "loki", "SKILL.md"]` => loki's SKILL.md; `[]` or a directory => null. */
export function lookup(lib: LibraryView, segments: readonly string[]): Target | null {
  const n = segments.length;
  // Stryker disable next-line ConditionalExpression: equivalent; with no segment every step below finds nothing.
  if (n === 0) return null;
  const keys = prefixKeys(segments);
  const last = segments[n - 1] as string;

  // 0/2. Generated documents and their pages win over any file or nested skill at the same path (a page past
  // the last one is then not found: the name stays reserved).
  const generated = generatedDocumentOf(last);
  if (generated?.document === "index") {
    const folder = lib.folders.get(keys[n - 1] as string);
    if (folder !== undefined) return { kind: "index", folder, page: generated.page };
  }
  if (n === 1 && generated?.document === "files" && lib.files.length > 0) return { kind: "files", page: generated.page };

  // 1. The longest visible skill prefix owns the rest, so a nested skill's files belong to the nested skill.
  for (let i = n; i >= 1; i--) {
    const skill = lib.skills.get(keys[i] as string);
    if (skill === undefined) continue;
    // Stryker disable next-line ConditionalExpression: defence in depth; the fallback's skill-directory check refuses it too.
    if (i === n) return null; // the skill's directory itself: not a file
    const rest = segments.slice(i);
    if (rest.length === 1 && rest[0] === MANIFEST_FILE) return { kind: "manifest", skill };
    // Inside a skill the hidden rule always holds (§3.2), whatever the skill's own address spells.
    if (hasHiddenSegment(rest)) return null;
    const path = rest.join("/");
    const file = skill.files.get(path);
    if (file !== undefined) return { kind: "file", file };
    const plugin = lib.pluginById.get(skill.plugin);
    // Stryker disable next-line ConditionalExpression: defence in depth; a visible skill's plugin is always admitted.
    return plugin === undefined ? null : fallback(lib, plugin, rest, path);
  }

  // Outside every visible skill the hidden rule applies to library files and fallbacks alike.
  // Stryker disable next-line ConditionalExpression: defence in depth; the view and the fallback refuse hidden paths too.
  if (hasHiddenSegment(segments)) return null;
  const path = keys[n] as string;

  // 3. A library file of an admitted plugin (the view keeps only the first plugin's, in library order).
  const file = lib.fileByPath.get(path);
  if (file !== undefined) return { kind: "file", file: file.file };

  // 4. The library-level fallback; inside *any* skill address it is refused whatever the scope, so narrowing a
  // scope never uncovers a file a skill shadows.
  // Stryker disable next-line ConditionalExpression: defence in depth; the fallback makes the same check per plugin.
  if (insideSkillAddress(lib.library, segments)) return null;
  for (const plugin of lib.plugins) {
    const found = fallback(lib, plugin, segments, path);
    if (found !== null) return found;
  }
  return null;
}

/** `segments` relative to `plugin`'s root, with every refusal of §2.2. Symlinks leaving the root never reach
 *  `plugin.tree` (harvest drops them), so no path here can name a file outside the root. */
function fallback(lib: LibraryView, plugin: HarvestedPlugin, segments: readonly string[], path: string): Target | null {
  const last = segments[segments.length - 1];
  // Reserved names would pass off a disk file as a generated document or one of its pages.
  if (generatedDocumentOf(last as string) !== null) return null;
  // Stryker disable next-line all: defence in depth; both callers refuse hidden segments first, so it never decides.
  if (hasHiddenSegment(segments)) return null;
  // A skill directory (served or skipped, any plugin on this fetch) serves only through its skill, never raw:
  // a skipped skill stays skipped and a narrowed scope does not read another plugin's skill.
  const dirs = lib.skillDirsByFetch.get(plugin.fetch);
  // Stryker disable next-line ConditionalExpression: equivalent; every served plugin's fetch has an entry.
  if (dirs !== undefined && insideDir(dirs, joinPath(plugin.root, path))) return null;
  // The same path as an address must not lie inside a skill of the library (§2.2 step 1, any plugin).
  if (insideSkillAddress(lib.library, segments)) return null;
  const disk = plugin.tree.get(path);
  return disk === undefined ? null : { kind: "fallback", path, disk };
}

/** Whether `path` or one of its ancestors (the fetch root `""` included) is in `dirs`. */
function insideDir(dirs: ReadonlySet<string>, path: string): boolean {
  if (dirs.has("")) return true;
  // Stryker disable next-line StringLiteral: equivalent; starting at 0 only re-checks "", which the line above did.
  for (let end = path.indexOf("/"); end !== -1; end = path.indexOf("/", end + 1)) {
    if (dirs.has(path.slice(0, end))) return true;
  }
  return dirs.has(path);
}

/** `[a, b]` => `["", "a", "a/b"]`. */
export function prefixKeys(segments: readonly string[]): string[] {
  const keys = [""];
  let key = "";
  for (const segment of segments) {
    key = key === "" ? segment : `${key}/${segment}`;
    keys.push(key);
  }
  return keys;
}
