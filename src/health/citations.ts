// §3.6: every citation in a served SKILL.md (found at harvest, harvest/citations.ts), resolved exactly as a client
// would; those that answer *not found*, and are no directory holding served files, are dangling. External URLs
// (any scheme) and in-page anchors are not citations.
import { FULL_SCOPE, readDirectory, resolve } from "../resolve/index.js";
import { formatSkillMdUri, PLUGIN_ROOT, pluginRootUri, SKILL_DIR_SPELLINGS, type SkillFolders } from "../address/index.js";
import { memoize } from "../memo/index.js";
import { type Library, type Shelf, type Skill, skillFolders } from "../shelf/index.js";
import type { HarvestedSkill } from "../harvest/index.js";

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

export interface Dangling {
  /** The SKILL.md URI of the citing skill. */
  readonly skill: string;
  /** The citation as the author wrote it. */
  readonly cites: string;
}

/** Dangling citations per plugin id, each skill's in citation order. Each shelf's audit runs on first use: only
 *  operators read it, so it never delays the first request. */
export const auditCitations: (shelf: Shelf) => ReadonlyMap<string, readonly Dangling[]> = memoize((shelf) => {
  const out = new Map<string, Dangling[]>();
  for (const library of shelf.libraries.values()) {
    for (const [plugin, rows] of danglingIn(shelf, library)) out.set(plugin, [...(out.get(plugin) ?? []), ...rows]);
  }
  return out;
});

/** Each shelf's audit so far, by library name. */
const audited = memoize((_shelf: Shelf) => new Map<string, ReadonlyMap<string, readonly Dangling[]>>());

/** One library's part of the audit (its skills' dangling citations per plugin id), computed once per shelf: the
 *  audit can be run a library at a time (health.ts `buildHealthInSteps`). */
export function danglingIn(shelf: Shelf, library: Library): ReadonlyMap<string, readonly Dangling[]> {
  const held = audited(shelf);
  let found = held.get(library.name);
  if (found === undefined) held.set(library.name, (found = findDangling(shelf, library)));
  return found;
}

function findDangling(shelf: Shelf, library: Library): Map<string, Dangling[]> {
  const raw = new Map<string, HarvestedSkill>();
  for (const id of library.plugins) {
    for (const skill of shelf.plugins.get(id)?.skills ?? []) raw.set(`${id}\0${skill.dir}`, skill);
  }
  const out = new Map<string, Dangling[]>();
  const folders = new Map<string, SkillFolders>();
  for (const skill of library.skills.values()) {
    const harvested = raw.get(`${skill.plugin}\0${skill.dir}`);
    const plugin = shelf.plugins.get(skill.plugin);
    if (harvested === undefined || plugin === undefined) continue;
    let skills = folders.get(plugin.id);
    if (skills === undefined) folders.set(plugin.id, (skills = skillFolders(library.name, plugin)));
    // Citations are reported as the author wrote them (harvest found them in the body before substitution).
    for (const cites of harvested.cites) {
      const target = citationUri(skill, cites, skills);
      if (target === null || resolve(shelf, FULL_SCOPE, target).kind !== "notFound") continue;
      // `[templates/](templates/)` names a directory: it leads somewhere when the directory holds served files.
      if (readDirectory(shelf, FULL_SCOPE, target.replace(/\/+$/, "")).kind === "directory") continue;
      const rows = out.get(skill.plugin) ?? [];
      rows.push({ skill: formatSkillMdUri(skill.library, skill.address), cites });
      out.set(skill.plugin, rows);
    }
  }
  return out;
}

/** The URI a client would read for a citation, or null when it is not a citation (a URL, an anchor). */
function citationUri(skill: Skill, cites: string, skills: SkillFolders): string | null {
  const target = cites.replace(/[#?].*$/, "");
  if (target === "" || cites.startsWith("#")) return null;
  for (const placeholder of [...SKILL_DIR_SPELLINGS, PLUGIN_ROOT]) {
    if (!target.startsWith(placeholder)) continue;
    const rest = target.slice(placeholder.length);
    // `cd ${CLAUDE_SKILL_DIR}` (or `cd {baseDir}`) names a directory to work in, not a file to read.
    if (rest === "" || rest === "/") return null;
    // Read where it is served: a plugin-root path into a served skill is that skill's address.
    return placeholder === PLUGIN_ROOT ? pluginRootUri(rest, { libraryUri: `skill://${skill.library}`, skills }) : skill.uri + rest;
  }
  if (target.startsWith("skill://")) return target;
  if (SCHEME.test(target) || target.startsWith("/") || target.startsWith("//")) return null;
  // Relative to the skill's SKILL.md; the resolver normalises `..` and clamps at the library.
  return `${skill.uri}/${target}`;
}
