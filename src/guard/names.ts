// Look-alike and impersonating names: a skill whose name is a Unicode confusable of another's (same skeleton,
// different spelling), within one edit of a skill's name in another library, or the very name of a skill from
// another source. Warnings that name both addresses; found through an index of one-deletion keys, not by
// comparing every pair.
import unhomoglyph from "unhomoglyph";
import { compareCodeUnits } from "../address/index.js";

export interface NamedSkill {
  /** The SKILL.md URI. */
  readonly uri: string;
  readonly library: string;
  readonly name: string;
  /** Where its bytes come from (the fetch): the same name from the same source is one skill served twice. */
  readonly source: string;
}

export type LookAlikeKind = "name-confusable" | "name-one-edit" | "name-taken";

export interface LookAlike {
  readonly rule: LookAlikeKind;
  readonly skill: string;
  readonly other: string;
  readonly reason: string;
}

/** The UTS #39 skeleton: NFD, each character mapped by Unicode's confusables table (unhomoglyph), NFD again. */
export function skeletonOf(name: string): string {
  return unhomoglyph(name.normalize("NFD")).normalize("NFD");
}

/** Names shorter than this differ by one edit from too many honest names to mean anything. */
const MIN_EDIT_LENGTH = 5;

/** Whether `a` becomes `b` by one insertion, deletion, substitution or swap of neighbours. */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return false;
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true; // substitution
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2); // swap
  }
  const [long, short] = a.length > b.length ? [a, b] : [b, a];
  return long.slice(i + 1) === short.slice(i);
}

function deletionKeys(name: string): string[] {
  const keys = [name];
  for (let i = 0; i < name.length; i++) keys.push(name.slice(0, i) + name.slice(i + 1));
  return keys;
}

export function findLookAlikes(skills: readonly NamedSkill[]): LookAlike[] {
  const found = new Map<string, LookAlike>();
  const add = (rule: LookAlikeKind, a: NamedSkill, b: NamedSkill, reason: string): void => {
    const [skill, other] = compareCodeUnits(a.uri, b.uri) <= 0 ? [a, b] : [b, a];
    const key = `${skill.uri}\0${other.uri}`;
    if (!found.has(key)) found.set(key, { rule, skill: skill.uri, other: other.uri, reason });
  };
  const bySkeleton = new Map<string, NamedSkill[]>();
  const byKey = new Map<string, NamedSkill[]>();
  // Groups grow in place: copying a group on each insertion is quadratic in its size.
  const into = (map: Map<string, NamedSkill[]>, key: string, skill: NamedSkill): void => {
    const group = map.get(key);
    if (group === undefined) map.set(key, [skill]);
    else group.push(skill);
  };
  for (const skill of skills) {
    into(bySkeleton, skeletonOf(skill.name), skill);
    if (skill.name.length < MIN_EDIT_LENGTH) continue;
    for (const key of new Set(deletionKeys(skill.name))) into(byKey, key, skill);
  }
  for (const group of bySkeleton.values()) {
    for (const [i, a] of group.entries()) {
      for (const b of group.slice(i + 1)) {
        if (a.name !== b.name) add("name-confusable", a, b, `"${a.name}" and "${b.name}" look the same (Unicode confusables)`);
        else if (a.library !== b.library && a.source !== b.source)
          add("name-taken", a, b, `"${a.name}" is the name of a skill from another source in another library`);
      }
    }
  }
  for (const group of byKey.values()) {
    for (const [i, a] of group.entries()) {
      for (const b of group.slice(i + 1)) {
        if (a.library !== b.library && withinOneEdit(a.name, b.name))
          add("name-one-edit", a, b, `"${a.name}" and "${b.name}" differ by one edit across libraries`);
      }
    }
  }
  return [...found.values()].sort((x, y) => compareCodeUnits(x.skill, y.skill) || compareCodeUnits(x.other, y.other));
}
