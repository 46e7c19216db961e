// One flat namespace out of a tree of addresses. The discovery index (one list of names) is read by installers that
// put each skill into a folder named after it, so two visible skills with one name cannot both be in one index.
// The rule, the same at every base: the skill whose SKILL.md URI comes first in code-unit order keeps the name;
// every other is shadowed there and named with the narrower base that still reaches it. Pure.
import { compareCodeUnits, formatSkillMdUri } from "../address/index.js";
import type { Skill } from "../shelf/index.js";

/** The names an installer accepts (the `skills` installer's rule, also the Agent Skills rule restricted to ASCII):
 *  1–64 of `a-z`, `0-9` and `-`, no leading, trailing or doubled hyphen. */
export function isInstallableName(name: string): boolean {
  return /^[a-z0-9](?:[a-z0-9]|-(?!-))*$/.test(name) && name.length <= 64 && !name.endsWith("-");
}

export interface Shadowed {
  /** The name two or more skills share. */
  readonly name: string;
  /** The SKILL.md URI of the skill that keeps the name at this base. */
  readonly kept: string;
  /** The SKILL.md URIs of the skills that lose it here (they stay in the index of their own folder). */
  readonly hidden: readonly string[];
}

export interface FlatNames {
  /** The skills listed, in SKILL.md URI order. */
  readonly listed: readonly Skill[];
  readonly shadowed: readonly Shadowed[];
  /** Skills whose served name an installer refuses, with the name. */
  readonly unnamable: readonly Skill[];
}

/** The skills one index lists, out of `skills` (any order). */
export function flatNames(skills: readonly Skill[]): FlatNames {
  const ordered = skills
    .map((skill) => ({ skill, uri: formatSkillMdUri(skill.library, skill.address) }))
    .sort((a, b) => compareCodeUnits(a.uri, b.uri));
  const byName = new Map<string, { skill: Skill; uri: string }[]>();
  const unnamable: Skill[] = [];
  for (const entry of ordered) {
    if (!isInstallableName(entry.skill.name)) {
      unnamable.push(entry.skill);
      continue;
    }
    const same = byName.get(entry.skill.name);
    if (same === undefined) byName.set(entry.skill.name, [entry]);
    else same.push(entry);
  }
  const listed: Skill[] = [];
  const shadowed: Shadowed[] = [];
  for (const [name, entries] of byName) {
    const [kept, ...others] = entries as [{ skill: Skill; uri: string }, ...{ skill: Skill; uri: string }[]];
    listed.push(kept.skill);
    // The same skill served by two libraries (one plugin, one folder) is one skill: nothing is lost by listing it once.
    const hidden = others.filter((entry) => entry.skill.plugin !== kept.skill.plugin || entry.skill.dir !== kept.skill.dir);
    if (hidden.length > 0) shadowed.push({ name, kept: kept.uri, hidden: hidden.map((entry) => entry.uri) });
  }
  listed.sort((a, b) => compareCodeUnits(formatSkillMdUri(a.library, a.address), formatSkillMdUri(b.library, b.address)));
  shadowed.sort((a, b) => compareCodeUnits(a.name, b.name));
  return { listed, shadowed, unnamable };
}
