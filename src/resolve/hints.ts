// §2.4: not found, with a hint when the address is a directory the scope can see. The hint is computed from the
// library view alone, so an out-of-scope directory gets exactly the message a missing address gets.
import { manifestOf } from "./documents.js";
import { prefixKeys } from "./lookup.js";
import { FILES_FILE, formatSkillUri, INDEX_FILE, MANIFEST_FILE, SKILL_FILE, skillAddress } from "../address/index.js";
import { memoize } from "../memo/index.js";
import type { LibraryView } from "./view.js";
import type { Answer } from "./types.js";
import type { Skill } from "../shelf/index.js";

/** Advice when there is no hint: where to start, without naming any document the caller may not see. */
export const NOT_FOUND_ADVICE =
  "Start from the resource listing (resources/list, or the list_resources tool) to see what this server serves.";

/** `Not found: <uri as sent>. <hint sentence or advice>` */
export function formatNotFound(
  uri: string,
  lib: LibraryView | null,
  segments: readonly string[] | null,
): Extract<Answer, { kind: "notFound" }> {
  // Stryker disable next-line LogicalOperator,ConditionalExpression: equivalent; every caller passes both or neither.
  const hint = lib === null || segments === null ? null : formatHint(lib, segments);
  return { kind: "notFound", uri, message: `Not found: ${uri}. ${hint ?? NOT_FOUND_ADVICE}` };
}

/** The sentence naming what the directory is and which URI(s) to read instead, or null when it is no
 *  directory the scope sees. Rows in the order of docs/addresses.md. */
function formatHint(lib: LibraryView, segments: readonly string[]): string | null {
  const name = lib.library.name;
  const uri = (...tail: string[]): string => formatSkillUri(name, [...segments, ...tail]);
  const root = (file: string): string => formatSkillUri(name, [file]);

  if (segments.length === 0) {
    if (lib.skills.size > 0) return `It is a library: read ${root(INDEX_FILE)}.`;
    if (lib.files.length > 0) return `It is a library: read ${root(FILES_FILE)}.`;
    return null;
  }
  const quarantined = quarantinedSkillAt(lib, segments);
  if (quarantined !== null) {
    return `It is in ${quarantined}, a skill quarantined by a supply-chain check: it is not served until the finding is fixed or released (an admin sees why on /health and on the page at /status).`;
  }
  const keys = prefixKeys(segments);
  const key = keys[segments.length] as string;
  const isFolder = lib.folders.has(key);
  if (lib.skills.has(key)) {
    return isFolder
      ? `It is a skill and a folder: read ${uri(SKILL_FILE)}, ${uri(MANIFEST_FILE)} or ${uri(INDEX_FILE)}.`
      : `It is a skill: read ${uri(SKILL_FILE)} or ${uri(MANIFEST_FILE)}.`;
  }
  const isFileDir = lib.fileDirs.has(key);
  if (isFolder) {
    return isFileDir
      ? `It is a folder and a directory of library files: read ${uri(INDEX_FILE)} or ${root(FILES_FILE)}.`
      : `It is a folder: read ${uri(INDEX_FILE)}.`;
  }
  // Stryker disable next-line ArithmeticOperator: equivalent; the address itself is no skill (answered above), and past it there is no key.
  for (let i = segments.length - 1; i >= 1; i--) {
    const skill = lib.skills.get(keys[i] as string);
    if (skill === undefined) continue;
    // Only directories that hold a file the manifest lists: a hidden or empty directory is no hint.
    if (manifestOf(lib, skill).dirs.has(segments.slice(i).join("/"))) {
      return `It is a directory inside a skill: read ${formatSkillUri(name, [...skill.address, MANIFEST_FILE])}.`;
    }
    break;
  }
  if (isFileDir) return `It is a directory of library files: read ${root(FILES_FILE)}.`;
  // A skill lenient naming serves at the address its name gives, read at its folder's: name where it moved.
  for (let i = segments.length; i >= 1; i--) {
    const moved = movedSkills(lib).get(keys[i] as string);
    if (moved === undefined) continue;
    const rest = segments.slice(i);
    const target = formatSkillUri(name, [...moved.address, ...(rest.length === 0 ? [SKILL_FILE] : rest)]);
    return `The skill in this folder is served at the address its name ${JSON.stringify(moved.name)} gives: read ${target}.`;
  }
  // A skill the harvest skipped, at the address its directory gives: say why, so its author can fix it.
  const last = segments[segments.length - 1];
  const skillKey = last === SKILL_FILE || last === MANIFEST_FILE ? (keys[segments.length - 1] as string) : key;
  const skipped = skippedSkills(lib).get(skillKey);
  if (skipped !== undefined) return `A skill at this address was skipped: ${skipped}`;
  return null;
}

/** Address => skip reason, for every skill directory of the view's plugins that was skipped and whose address no
 *  served skill holds; the first plugin in library order names it. */
const skippedSkills = memoize((lib: LibraryView): ReadonlyMap<string, string> => {
  const out = new Map<string, string>();
  for (const plugin of lib.plugins) {
    const dirs = new Set(plugin.skillDirs);
    for (const row of plugin.skipped) {
      if (row.path === "" || !dirs.has(row.path)) continue;
      const key = skillAddress(row.path).join("/");
      if (!lib.skills.has(key) && !out.has(key)) out.set(key, row.reason);
    }
  }
  return out;
});

/** Folder address => served skill, for every skill served at the address its name gives rather than its folder's
 *  (naming: lenient), where no other skill holds the folder's address. */
const movedSkills = memoize((lib: LibraryView): ReadonlyMap<string, Skill> => {
  const out = new Map<string, Skill>();
  for (const skill of lib.skills.values()) {
    if (skill.dir === "") continue;
    const folder = skillAddress(skill.dir).join("/");
    if (folder !== skill.address.join("/") && !lib.skills.has(folder) && !out.has(folder)) out.set(folder, skill);
  }
  return out;
});

/** The SKILL.md URI of a quarantined skill of a plugin the scope admits whose folder holds `segments`, or null:
 *  an out-of-scope caller gets the message a missing address gets. */
function quarantinedSkillAt(lib: LibraryView, segments: readonly string[]): string | null {
  const path = segments.join("/");
  const prefix = `skill://${lib.library.name}/`;
  for (const row of lib.library.quarantined ?? []) {
    if (row.skill === undefined || !lib.pluginById.has(row.plugin) || !row.skill.startsWith(prefix)) continue;
    const address = row.skill.slice(prefix.length, -"/SKILL.md".length);
    if (path === address || path.startsWith(`${address}/`)) return row.skill;
  }
  return null;
}
