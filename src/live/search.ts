// The search indexes of the live shelf: one per set of skills a scope in use sees, each brought up to the current
// shelf before it answers, reading from disk only the SKILL.md bodies that are new or changed since the shelf it
// last saw. A watched edit is searchable on the first search after the rescan that publishes it. Spellings of one
// scope (`?tags=t`, `?tags=t,t`, a ceiling and a narrowing that admit the same skills) share one index, and each
// index has its own queue: building one never holds up a search on another.
import { createHash } from "node:crypto";
import { SKILL_FILE } from "../address/index.js";
import { memoizeBy } from "../memo/index.js";
import { type Scope, type ScopeOn, visibleSkills } from "../resolve/index.js";
import { indexedBody, type SearchOutcome, type SearchRequest, SkillIndex, skillDocument } from "../search/index.js";
import type { Shelf, Skill } from "../shelf/index.js";
import type { ShelfHolder } from "./holder.js";
import { decodeUtf8, readServedFile } from "./served-bytes.js";

/** Sets of skills searched are few (clients × narrowings); past this the least recently used index goes. */
const MAX_INDEXES = 16;
/** Scope spellings whose skill set is remembered per shelf (the oldest goes first). */
const MAX_SPELLINGS = 256;
/** Bodies read from disk at once while (re)building an index. */
const READ_CONCURRENCY = 16;

interface Entry {
  readonly index: SkillIndex;
  shelf: Shelf | null;
  /** Searches on this index run one after another: each brings it to the shelf current when it starts. */
  queue: Promise<unknown>;
}

/** What an index holds under `scope` on `shelf`: the digest of the SKILL.md addresses it sees, in order. Two
 *  spellings that admit the same skills have the same one. */
const contentKeyOf = memoizeBy(
  MAX_SPELLINGS,
  (scope: Scope) => scope.key,
  (shelf: Shelf, scope: Scope): string => {
    const hash = createHash("sha256");
    for (const skill of visibleSkills(shelf, scope)) hash.update(skillDocument(skill).id).update("\0");
    return hash.digest("base64url");
  },
);

export class ShelfSearch {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly holder: ShelfHolder) {}

  /** Indexes held now (at most MAX_INDEXES). */
  get size(): number {
    return this.entries.size;
  }

  search(request: SearchRequest, scopeOn: ScopeOn): Promise<SearchOutcome> {
    const shelf = this.holder.current;
    const key = contentKeyOf(shelf, scopeOn(shelf));
    const entry = this.entry(key);
    const run = entry.queue.then(() => this.run(entry, key, request, scopeOn));
    entry.queue = run.catch(() => undefined);
    return run;
  }

  private async run(entry: Entry, key: string, request: SearchRequest, scopeOn: ScopeOn): Promise<SearchOutcome> {
    const shelf = this.holder.current;
    const scope = scopeOn(shelf);
    // A swap since the search was queued may have changed what this scope sees: it goes to that set's index.
    if (contentKeyOf(shelf, scope) !== key) return this.search(request, scopeOn);
    if (entry.shelf !== shelf) {
      const visible = visibleSkills(shelf, scope);
      await entry.index.applyInSlices(visible, await readBodies(entry.index.missing(visible)), nextTurn);
      entry.shelf = shelf;
    }
    return entry.index.search(request);
  }

  private entry(key: string): Entry {
    let entry = this.entries.get(key);
    if (entry !== undefined) this.entries.delete(key);
    else {
      entry = { index: new SkillIndex(), shelf: null, queue: Promise.resolve() };
      if (this.entries.size >= MAX_INDEXES) this.entries.delete(this.entries.keys().next().value as string);
    }
    this.entries.set(key, entry);
    return entry;
  }
}

/** Lets requests waiting on the event loop run between two slices of indexing. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** The indexed part of the served SKILL.md bodies of `skills` by SKILL.md address; one that cannot be read now (changed since the
 *  harvest) is left out, and its next digest brings it back. */
async function readBodies(skills: readonly Skill[]): Promise<Map<string, string>> {
  const bodies = new Map<string, string>();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < skills.length) {
      const skill = skills[next++] as Skill;
      const file = skill.files.get(SKILL_FILE);
      if (file === undefined) continue;
      const content = await readServedFile(file);
      const text = content.ok ? decodeUtf8(content.bytes) : null;
      if (text !== null) bodies.set(skillDocument(skill).id, indexedBody(text));
    }
  };
  await Promise.all(Array.from({ length: Math.min(READ_CONCURRENCY, skills.length) }, worker));
  return bodies;
}
