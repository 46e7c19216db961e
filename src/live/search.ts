// The search indexes of the live shelf: one per scope in use, each brought up to the current shelf before it
// answers, reading from disk only the SKILL.md bodies that are new or changed since the shelf it last saw. A
// watched edit is searchable on the first search after the rescan that publishes it.
import { SKILL_FILE } from "../address/index.js";
import { type ScopeOn, visibleSkills } from "../resolve/index.js";
import { type SearchOutcome, type SearchRequest, SkillIndex, skillBody, skillDocument } from "../search/index.js";
import type { Shelf, Skill } from "../shelf/index.js";
import type { ShelfHolder } from "./holder.js";
import { decodeUtf8, readServedFile } from "./served-bytes.js";

/** Scopes in use are few (clients × narrowings); past this the least recently used index goes. */
const MAX_INDEXES = 16;
/** Bodies read from disk at once while (re)building an index. */
const READ_CONCURRENCY = 16;

interface Entry {
  readonly index: SkillIndex;
  shelf: Shelf | null;
}

export class ShelfSearch {
  private readonly entries = new Map<string, Entry>();
  /** Searches run one after another: each brings an index to the shelf current when it starts, then queries it. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly holder: ShelfHolder) {}

  search(request: SearchRequest, scopeOn: ScopeOn): Promise<SearchOutcome> {
    const run = this.queue.then(() => this.run(request, scopeOn));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async run(request: SearchRequest, scopeOn: ScopeOn): Promise<SearchOutcome> {
    const shelf = this.holder.current;
    const scope = scopeOn(shelf);
    const entry = this.entry(scope.key);
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
      entry = { index: new SkillIndex(), shelf: null };
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

/** The served SKILL.md bodies of `skills` by SKILL.md address; one that cannot be read now (changed since the
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
      if (text !== null) bodies.set(skillDocument(skill).id, skillBody(text));
    }
  };
  await Promise.all(Array.from({ length: Math.min(READ_CONCURRENCY, skills.length) }, worker));
  return bodies;
}
