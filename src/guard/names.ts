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

// Two names within one edit share a deletion key: the name with one of its code units left out (or whole). Each key
// is a pair of polynomial hashes of that string, worked out from prefix and suffix hashes without building it, in
// one number below 2^52: 100,000 names make 2 million keys, and as strings they took seconds. Two names under the
// same key are still compared by withinOneEdit, so a collision of the hashes finds nothing that is not there.
const BASE = 131;
const MOD_A = 67_108_859; // primes below 2^26: a product of two residues stays exact in a double
const MOD_B = 67_108_837;
const SHIFT = 2 ** 26;

/** Write `name`'s deletion keys into `out` from `at` (a key may repeat: "aab" loses either "a" as "ab"); answers
 *  where the next name's keys go. */
function writeDeletionKeys(name: string, out: Float64Array, at: number): number {
  const n = name.length;
  // prefix[i]: the hash of name[0, i); suffix[i]: of name[i, n); power[k]: BASE^k.
  const prefixA = new Array<number>(n + 1);
  const prefixB = new Array<number>(n + 1);
  const suffixA = new Array<number>(n + 1);
  const suffixB = new Array<number>(n + 1);
  const powerA = new Array<number>(n + 1);
  const powerB = new Array<number>(n + 1);
  prefixA[0] = prefixB[0] = 0;
  powerA[0] = powerB[0] = 1;
  for (let i = 0; i < n; i++) {
    const c = name.charCodeAt(i);
    prefixA[i + 1] = ((prefixA[i] as number) * BASE + c) % MOD_A;
    prefixB[i + 1] = ((prefixB[i] as number) * BASE + c) % MOD_B;
    powerA[i + 1] = ((powerA[i] as number) * BASE) % MOD_A;
    powerB[i + 1] = ((powerB[i] as number) * BASE) % MOD_B;
  }
  suffixA[n] = suffixB[n] = 0;
  for (let i = n - 1; i >= 0; i--) {
    const c = name.charCodeAt(i);
    suffixA[i] = (c * (powerA[n - 1 - i] as number) + (suffixA[i + 1] as number)) % MOD_A;
    suffixB[i] = (c * (powerB[n - 1 - i] as number) + (suffixB[i + 1] as number)) % MOD_B;
  }
  let next = at;
  out[next++] = (prefixA[n] as number) * SHIFT + (prefixB[n] as number);
  for (let i = 0; i < n; i++) {
    const a = ((prefixA[i] as number) * (powerA[n - 1 - i] as number) + (suffixA[i + 1] as number)) % MOD_A;
    const b = ((prefixB[i] as number) * (powerB[n - 1 - i] as number) + (suffixB[i + 1] as number)) % MOD_B;
    out[next++] = a * SHIFT + b;
  }
  return next;
}

export function findLookAlikes(skills: readonly NamedSkill[]): LookAlike[] {
  const found = new Map<string, LookAlike>();
  const add = (rule: LookAlikeKind, a: NamedSkill, b: NamedSkill, reason: string): void => {
    const [skill, other] = compareCodeUnits(a.uri, b.uri) <= 0 ? [a, b] : [b, a];
    const key = `${skill.uri}\0${other.uri}`;
    if (!found.has(key)) found.set(key, { rule, skill: skill.uri, other: other.uri, reason });
  };
  const bySkeleton = new Map<string, NamedSkill[]>();
  // Every name's deletion keys with the skill they belong to, in two flat typed arrays; then only the keys that
  // occur more than once (found by one numeric sort, no map of millions of entries) are grouped. A key repeated
  // within one name groups that skill with itself, which compares nothing.
  let total = 0;
  for (const skill of skills) if (skill.name.length >= MIN_EDIT_LENGTH) total += skill.name.length + 1;
  const keys = new Float64Array(total);
  const owners = new Int32Array(total);
  let filled = 0;
  for (const [index, skill] of skills.entries()) {
    const skeleton = skeletonOf(skill.name);
    const group = bySkeleton.get(skeleton);
    if (group === undefined) bySkeleton.set(skeleton, [skill]);
    else group.push(skill);
    if (skill.name.length < MIN_EDIT_LENGTH) continue;
    const end = writeDeletionKeys(skill.name, keys, filled);
    owners.fill(index, filled, end);
    filled = end;
  }
  const sorted = keys.slice().sort();
  const shared = new Set<number>();
  for (let i = 1; i < sorted.length; i++) if (sorted[i] === sorted[i - 1]) shared.add(sorted[i] as number);
  const byKey = new Map<number, number[]>();
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as number;
    if (!shared.has(key)) continue;
    const group = byKey.get(key);
    if (group === undefined) byKey.set(key, [owners[i] as number]);
    else group.push(owners[i] as number);
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
    for (let i = 0; i < group.length; i++) {
      const a = skills[group[i] as number] as NamedSkill;
      for (let j = i + 1; j < group.length; j++) {
        const b = skills[group[j] as number] as NamedSkill;
        if (a.library !== b.library && withinOneEdit(a.name, b.name))
          add("name-one-edit", a, b, `"${a.name}" and "${b.name}" differ by one edit across libraries`);
      }
    }
  }
  return [...found.values()].sort((x, y) => compareCodeUnits(x.skill, y.skill) || compareCodeUnits(x.other, y.other));
}
