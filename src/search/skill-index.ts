// A full-text index over the skills one scope sees (MiniSearch: BM25 with field boosts, prefix and typo
// tolerance). It holds exactly the visible skills of the last shelf it was brought up to, so nothing out of
// scope is ever matched, counted in a score or hinted. Bringing it to a new shelf is incremental: only skills
// whose SKILL.md changed, appeared or went are re-indexed.
import MiniSearch, { type Query, type SearchResult } from "minisearch";
import { formatOneLine } from "../address/index.js";
import { skillDocument, type SkillDocument } from "./documents.js";
import type { SearchRequest } from "./request.js";
import type { Skill } from "../shelf/index.js";

interface Indexed extends SkillDocument {
  readonly body: string;
}

/** One ranked row of an answer. */
export interface SearchRow {
  readonly uri: string;
  readonly name: string;
  readonly description: string;
  readonly score: number;
}

export type SearchOutcome = { readonly ok: true; readonly rows: readonly SearchRow[] } | { readonly ok: false; readonly message: string };

/** Field weights: what the skill says it is counts most, the body least. Measured on labelled query sets
 *  (docs/performance.md). */
export const BOOST: Readonly<Record<keyof Omit<Indexed, "id" | "digest">, number>> = {
  name: 3,
  description: 2,
  tags: 1.5,
  folder: 1,
  library: 0.5,
  body: 0.3,
};

const FIELDS = Object.keys(BOOST);

/** A row's description is cut to one line of this many characters, so ten rows stay near 2 KB. */
const DESCRIPTION_CHARS = 72;

// Words a person types around what they want; matching on them only adds noise.
const STOP_WORDS = new Set(
  (
    "a an and any are as at be by can do does for from how i in into is it its me my need of on or so some that the " +
    "their them there this to up use using want we what when where which while who why will with you your"
  ).split(" "),
);

function processTerm(term: string): string | null {
  const lower = term.toLowerCase();
  return lower.length < 2 || STOP_WORDS.has(lower) ? null : lower;
}

/** The body is indexed up to this many characters: its opening says what the skill does; the rest mostly costs
 *  build time. */
export const BODY_CHARS = 2000;

/** Documents indexed between two pauses (about 30-60 ms of work on two shared cores). */
export const SLICE_DOCUMENTS = 128;

const META_FIELDS = FIELDS.filter((field) => field !== "body");

function createMini(): MiniSearch<Indexed> {
  return new MiniSearch<Indexed>({ fields: FIELDS, storeFields: [], processTerm, searchOptions: { boost: BOOST } });
}

/** Prefixes and typos on what the skill says it is; the body's exact words on top, so its many terms never
 *  multiply a query's expansions. */
function queryOf(text: string): Query {
  return {
    combineWith: "OR",
    queries: [
      { queries: [text], fields: META_FIELDS, prefix: (term) => term.length >= 3, fuzzy: (term) => (term.length >= 5 ? 0.2 : false) },
      { queries: [text], fields: ["body"], prefix: false, fuzzy: false },
    ],
  };
}

export class SkillIndex {
  private readonly mini = createMini();
  /** Indexed document ids → the SKILL.md digest they were indexed at. */
  private readonly digests = new Map<string, string>();
  /** The visible skills of the shelf last applied, by SKILL.md address. */
  private skills = new Map<string, Skill>();
  private libraries = new Set<string>();

  /** The skills among `visible` whose body must be read before `apply`: new ones and those whose SKILL.md changed. */
  missing(visible: readonly Skill[]): Skill[] {
    return visible.filter((skill) => {
      const doc = skillDocument(skill);
      return this.digests.get(doc.id) !== doc.digest;
    });
  }

  /** Bring the index to exactly `visible`; `bodies` holds the body of every skill `missing` named (by SKILL.md
   *  address). A skill whose body is absent is indexed on its name, description, folder and tags. */
  apply(visible: readonly Skill[], bodies: ReadonlyMap<string, string>): void {
    for (const _slice of this.slices(visible, bodies));
  }

  /** `apply`, with `await pause()` after every SLICE_DOCUMENTS documents indexed, so a first index of thousands of
   *  skills never holds the caller's event loop for seconds. Searches must wait until it resolves. */
  async applyInSlices(visible: readonly Skill[], bodies: ReadonlyMap<string, string>, pause: () => Promise<void>): Promise<void> {
    for (const _slice of this.slices(visible, bodies)) await pause();
  }

  private *slices(visible: readonly Skill[], bodies: ReadonlyMap<string, string>): Generator<void> {
    let done = 0;
    const next = new Map<string, Skill>();
    for (const skill of visible) next.set(skillDocument(skill).id, skill);
    for (const id of [...this.digests.keys()]) {
      if (!next.has(id)) {
        this.mini.discard(id);
        this.digests.delete(id);
      }
    }
    for (const [id, skill] of next) {
      const doc = skillDocument(skill);
      const indexed = this.digests.get(id);
      if (indexed === doc.digest) continue;
      if (indexed !== undefined) this.mini.discard(id);
      this.mini.add({ ...doc, body: (bodies.get(id) ?? "").slice(0, BODY_CHARS) });
      this.digests.set(id, doc.digest);
      if (++done % SLICE_DOCUMENTS === 0) yield;
    }
    this.skills = next;
    this.libraries = new Set(visible.map((skill) => skill.library));
  }

  get size(): number {
    return this.digests.size;
  }

  /** Ranked rows for `request`; a library outside what this index holds is refused like one that does not exist. */
  search(request: SearchRequest): SearchOutcome {
    const { library } = request;
    if (library !== null && !this.libraries.has(library))
      return {
        ok: false,
        message: `search_skills: no visible library named '${library}' holds skills; list_resources shows the libraries`,
      };
    const filter = library === null ? undefined : (result: SearchResult) => this.skills.get(result.id)?.library === library;
    const results = this.mini.search(queryOf(request.query), filter === undefined ? {} : { filter });
    const rows: SearchRow[] = [];
    for (const result of results.slice(0, request.limit)) {
      const skill = this.skills.get(result.id as string);
      if (skill === undefined) continue;
      rows.push({
        uri: result.id as string,
        name: skill.name,
        description: formatOneLine(skill.description, DESCRIPTION_CHARS),
        score: round(result.score),
      });
    }
    return { ok: true, rows };
  }
}

function round(score: number): number {
  return Math.round(score * 100) / 100;
}
