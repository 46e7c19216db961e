// §3.6: every citation in a served SKILL.md (found at harvest, harvest/citations.ts), resolved exactly as a client
// would; those that answer *not found*, and are no directory holding served files, are dangling. External URLs
// (any scheme) and in-page anchors are not citations.
import { FULL_SCOPE, readDirectory, resolve } from "../resolve/index.js";
import { formatSkillMdUri, PLUGIN_ROOT, pluginRootUri, SKILL_DIR_SPELLINGS, type SkillFolders } from "../address/index.js";
import { memoize, memoizeOn } from "../memo/index.js";
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
  const known = held.get(library.name);
  if (known !== undefined) return known;
  const found = new Map<string, Dangling[]>();
  for (const { plugin, row, elsewhere } of citationsOf(library, shelf)) {
    if (elsewhere !== undefined && !leadsNowhere(shelf, elsewhere)) continue;
    const rows = found.get(plugin) ?? [];
    rows.push(row);
    found.set(plugin, rows);
  }
  held.set(library.name, found);
  return found;
}

/** A citation of a library's skill as far as the library alone decides it: dangling, or pointing at another
 *  library (`elsewhere`: the URI to resolve on each shelf). */
interface Cited {
  readonly plugin: string;
  readonly row: Dangling;
  readonly elsewhere?: string;
}

/** The citations of each library, worked out once per Library object. A citation into the library itself resolves
 *  the same on every shelf that library is part of — a rebuild keeps a library only when its plan and every
 *  plugin's harvest are the very same, and the resolver clamps `..` at the library — so the audit of a shelf
 *  rebuilt after a one-skill edit resolves only the changed library's citations and those into other libraries. */
const citationsOf: (library: Library, shelf: Shelf) => readonly Cited[] = memoizeOn(findCitations);

function findCitations(library: Library, shelf: Shelf): Cited[] {
  const raw = new Map<string, HarvestedSkill>();
  for (const id of library.plugins) {
    for (const skill of shelf.plugins.get(id)?.skills ?? []) raw.set(`${id}\0${skill.dir}`, skill);
  }
  const inside = `skill://${library.name}/`;
  const out: Cited[] = [];
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
      if (target === null) continue;
      const row = { skill: formatSkillMdUri(skill.library, skill.address), cites };
      if (!target.startsWith(inside)) out.push({ plugin: skill.plugin, row, elsewhere: target });
      else if (leadsNowhere(shelf, target)) out.push({ plugin: skill.plugin, row });
    }
  }
  return out;
}

/** Whether `target` answers *not found* and is no directory holding served files (`[templates/](templates/)`
 *  names a directory: it leads somewhere when the directory holds served files). */
function leadsNowhere(shelf: Shelf, target: string): boolean {
  return (
    resolve(shelf, FULL_SCOPE, target).kind === "notFound" &&
    readDirectory(shelf, FULL_SCOPE, target.replace(/\/+$/, "")).kind !== "directory"
  );
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
