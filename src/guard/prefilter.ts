// Which text rules are worth running on a text, found in one pass over it: an Aho–Corasick automaton of every
// rule's trigger literals. A rule's triggers are groups of literals, each group a condition every match of the rule
// meets (the match, or the text around it, holds one of the group's literals); a rule runs only when each of its
// groups has a literal somewhere in the text. The literals are matched without regard to ASCII case, which is what
// a case-insensitive pattern without the `u` flag does (it folds no other character to an ASCII letter), and a
// superset of what a case-sensitive one matches: the prefilter may let a rule through that then finds nothing,
// never hold back one that would find something.

/** Per rule: its groups of literals (every group must be met), or undefined for a rule that always runs. A literal
 *  may start and/or end with `\b`: a word boundary there, as in a pattern without the `u` flag (a word character
 *  is an ASCII letter, digit or `_`; the text's start and end are boundaries). */
export type Triggers = readonly (readonly string[])[];

export interface Prefilter {
  /** For each rule (by its index in the list given), whether the text meets all its trigger groups. */
  scan(text: string): readonly boolean[];
}

/** ASCII letters folded to lower case; every other code unit is itself. */
function fold(code: number): number {
  return code >= 65 && code <= 90 ? code + 32 : code;
}

function isWord(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
}

const BOUNDARY = "\\b";
/** The mark on a state's group mask that some literal ending there needs a word boundary checked. */
const CHECK = 1 << 31;

/** A literal that ends at a state and needs a boundary before and/or after it. */
interface Bounded {
  readonly group: number;
  readonly length: number;
  readonly before: boolean;
  readonly after: boolean;
}

interface Literal extends Bounded {
  readonly units: readonly number[];
}

function parseLiteral(literal: string, group: number): Literal {
  const before = literal.startsWith(BOUNDARY);
  const after = literal.endsWith(BOUNDARY) && literal.length > BOUNDARY.length;
  const core = literal.slice(before ? BOUNDARY.length : 0, after ? literal.length - BOUNDARY.length : literal.length);
  if (core.length === 0) throw new Error(`trigger group ${group}: an empty literal`);
  // A boundary beside a character that is not a word character would mean a word character outside it.
  if ((before && !isWord(core.charCodeAt(0))) || (after && !isWord(core.charCodeAt(core.length - 1))))
    throw new Error(`trigger group ${group}: "${literal}" has a word boundary beside a character that is not a word character`);
  const units = [...Array(core.length).keys()].map((i) => fold(core.charCodeAt(i)));
  return { units, group, length: core.length, before, after };
}

export function buildPrefilter(rules: readonly (Triggers | undefined)[]): Prefilter {
  const groupOf: number[] = []; // group index → rule index
  const literals: Literal[] = [];
  rules.forEach((triggers, rule) => {
    for (const group of triggers ?? []) {
      if (group.length === 0) throw new Error(`rule ${rule}: an empty trigger group can never be met`);
      const index = groupOf.push(rule) - 1;
      if (index >= 31) throw new Error("more than 31 trigger groups: the prefilter keeps them in one 32-bit mask");
      for (const literal of group) literals.push(parseLiteral(literal, index));
    }
  });
  // The automaton's alphabet: one class per code unit some literal uses (both cases of an ASCII letter), 0 for the rest.
  const classOf = new Uint16Array(0x10000);
  let classes = 1;
  for (const { units } of literals) for (const unit of units) if (classOf[unit] === 0) classOf[unit] = classes++;
  for (let upper = 65; upper <= 90; upper++) classOf[upper] = classOf[upper + 32] as number;

  // The trie, then the failure links breadth first, turning it into a full transition table.
  const next: number[][] = [new Array<number>(classes).fill(-1)];
  const ends: Literal[][] = [[]];
  for (const literal of literals) {
    let state = 0;
    for (const unit of literal.units) {
      const c = classOf[unit] as number;
      let to = (next[state] as number[])[c] as number;
      if (to === -1) {
        to = next.push(new Array<number>(classes).fill(-1)) - 1;
        ends.push([]);
        (next[state] as number[])[c] = to;
      }
      state = to;
    }
    (ends[state] as Literal[]).push(literal);
  }
  const fail = new Array<number>(next.length).fill(0);
  const queue: number[] = [];
  const root = next[0] as number[];
  for (let c = 0; c < classes; c++) {
    if (root[c] === -1) root[c] = 0;
    else queue.push(root[c] as number);
  }
  for (let head = 0; head < queue.length; head++) {
    const state = queue[head] as number;
    const row = next[state] as number[];
    (ends[state] as Literal[]).push(...(ends[fail[state] as number] as Literal[]));
    for (let c = 0; c < classes; c++) {
      const via = (next[fail[state] as number] as number[])[c] as number;
      if (row[c] === -1) row[c] = via;
      else {
        fail[row[c] as number] = via;
        queue.push(row[c] as number);
      }
    }
  }

  // One row per state: the groups met on reaching it (CHECK when a literal ending there needs a boundary checked),
  // then its transitions as offsets of rows.
  const width = classes + 1;
  const table = new Int32Array(next.length * width);
  const bounded = new Map<number, readonly Bounded[]>();
  next.forEach((row, state) => {
    const here = ends[state] as Literal[];
    const checked = here.filter((literal) => literal.before || literal.after);
    let mask = here.reduce((m, literal) => (literal.before || literal.after ? m : m | (1 << literal.group)), 0);
    if (checked.length > 0) {
      mask |= CHECK;
      bounded.set(state * width, checked);
    }
    table[state * width] = mask;
    table.set(
      row.map((to) => to * width),
      state * width + 1,
    );
  });
  const groupsOfRule = rules.map((_, rule) => groupOf.reduce((mask, r, group) => (r === rule ? mask | (1 << group) : mask), 0));
  return {
    scan(text) {
      const met = run(table, classOf, bounded, text);
      return groupsOfRule.map((mask) => (met & mask) === mask);
    },
  };
}

/** The groups met anywhere in `text`, as a bit mask: one transition per code unit. */
function run(table: Int32Array, classOf: Uint16Array, bounded: ReadonlyMap<number, readonly Bounded[]>, text: string): number {
  let met = 0;
  let row = 0;
  for (let i = 0; i < text.length; i++) {
    row = table[row + 1 + (classOf[text.charCodeAt(i)] as number)] as number;
    const mask = table[row] as number;
    if (mask >= 0) met |= mask;
    else met |= (mask & ~CHECK) | boundedMet(bounded.get(row) as readonly Bounded[], text, i);
  }
  return met;
}

/** The groups of the literals ending at `end` whose word boundaries hold. */
function boundedMet(literals: readonly Bounded[], text: string, end: number): number {
  let met = 0;
  for (const { group, length, before, after } of literals) {
    const start = end - length + 1;
    if (before && start > 0 && isWord(text.charCodeAt(start - 1))) continue;
    if (after && end + 1 < text.length && isWord(text.charCodeAt(end + 1))) continue;
    met |= 1 << group;
  }
  return met;
}
