// A full-text index over the skills one scope sees: BM25 with field boosts, prefix and typo tolerance, ranked
// exactly as MiniSearch ranks (postings.ts scores; MiniSearch gives the tokenizer and the word dictionary, and is
// the reference the ranking is tested against). It holds exactly the visible skills of the last shelf it was
// brought up to, so nothing out of scope is ever matched, counted in a score or hinted. Bringing it to a new shelf
// is incremental: only skills whose SKILL.md changed, appeared or went are re-indexed.
import MiniSearch, { type Options, type Query } from "minisearch";
import { formatOneLine } from "../address/index.js";
import { skillBody, skillDocument, type SkillDocument } from "./documents.js";
import { Postings } from "./postings.js";
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

const FIELDS = Object.keys(BOOST) as (keyof typeof BOOST)[];
const META_FIELDS = FIELDS.filter((field) => field !== "body");

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
export const BODY_CHARS = 1000;

/** What the index reads of a SKILL.md's text: its body's first BODY_CHARS characters, as a string of their own. A
 *  slice would keep the whole text alive; the first index of a 100,000-skill shelf holds every skill's part at
 *  once, so whole bodies there held about 0.5 GB where their indexed parts hold a fifth of it. */
export function indexedBody(text: string): string {
  return structuredClone(skillBody(text).slice(0, BODY_CHARS));
}

/** The words of the body's first BODY_CHARS characters that the skill's other fields do not already hold, as
 *  the index would see them: a word is stored once per skill, where it weighs most. */
export function bodyTerms(doc: SkillDocument, body: string): string {
  const known = new Set(queryTerms([doc.name, doc.description, doc.folder, doc.tags, doc.library].join(" ")));
  return queryTerms(body.slice(0, BODY_CHARS))
    .filter((term) => !known.has(term))
    .join(" ");
}

/** The folder's words other than the skill's name: the directory of a skill is mostly its name, already indexed
 *  where it weighs more. */
export function folderTerms(doc: SkillDocument): string {
  const known = new Set(queryTerms(doc.name));
  return queryTerms(doc.folder)
    .filter((term) => !known.has(term))
    .join(" ");
}

/** Documents indexed between two pauses (about 30-60 ms of work on two shared cores). */
export const SLICE_DOCUMENTS = 128;

/** BM25+ as MiniSearch computes it, and the weights of prefix and typo matches, stated rather than left to the
 *  library's defaults. */
const BM25 = { k: 1.2, b: 0.7, d: 0.5 };
const WEIGHTS = { prefix: 0.375, fuzzy: 0.45 };

/** Query words this long or longer match as prefixes; this long or longer tolerate typos: a fifth of their
 *  letters, rounded, up to MAX_FUZZY edits. The same numbers shape the reference MiniSearch query below. */
const EXPAND = { prefixFrom: 3, fuzzyFrom: 5, fuzzy: 0.2 };
const MAX_FUZZY = 1;

const tokenize = MiniSearch.getDefault("tokenize") as (text: string) => string[];

/** The options a MiniSearch index would need to rank exactly as `SkillIndex` does: the reference its scores are
 *  tested against, and the shape of a search over every query word at once. */
export const MINISEARCH_OPTIONS = {
  fields: FIELDS,
  storeFields: [],
  processTerm,
  searchOptions: { boost: BOOST, bm25: BM25, weights: WEIGHTS, maxFuzzy: MAX_FUZZY },
} satisfies Options;

/** How `MINISEARCH_OPTIONS` searches: prefixes from three letters and typos from five on what the skill says it
 *  is; the body's exact words only. */
export const MINISEARCH_QUERY = (text: string): Query => ({
  combineWith: "OR",
  queries: [
    {
      queries: [text],
      fields: META_FIELDS,
      prefix: (term: string) => term.length >= EXPAND.prefixFrom,
      fuzzy: (term: string) => (term.length >= EXPAND.fuzzyFrom ? EXPAND.fuzzy : false),
    },
    { queries: [text], fields: ["body"], prefix: false, fuzzy: false },
  ],
});

/** The words of a query as the index sees them (the library's tokenizer, then `processTerm`). */
export function queryTerms(text: string): string[] {
  return tokenize(text).flatMap((token) => processTerm(token) ?? []);
}

function createPostings(): Postings {
  return new Postings(
    FIELDS.map((field) => ({ boost: BOOST[field], expand: field !== "body" })),
    { bm25: BM25, weights: WEIGHTS, ...EXPAND, maxFuzzy: MAX_FUZZY },
    { tokenize, processTerm },
  );
}

export class SkillIndex {
  private readonly postings = createPostings();
  /** Library names → the group numbers the postings narrow a search by. */
  private readonly groups = new Map<string, number>();
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
        this.postings.remove(id);
        this.digests.delete(id);
      }
    }
    for (const [id, skill] of next) {
      const doc = skillDocument(skill);
      const indexed = this.digests.get(id);
      if (indexed === doc.digest) continue;
      if (indexed !== undefined) this.postings.remove(id);
      const values: Record<Field, string> = { ...doc, folder: folderTerms(doc), body: bodyTerms(doc, bodies.get(id) ?? "") };
      this.postings.add(
        id,
        FIELDS.map((field) => values[field]),
        this.groupOf(doc.library),
      );
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
    const group = library === null ? null : this.groupOf(library);
    const rows: SearchRow[] = [];
    for (const hit of this.postings.search(queryTerms(request.query), request.limit, group)) {
      const skill = this.skills.get(hit.id);
      if (skill === undefined) continue;
      rows.push({
        uri: hit.id,
        name: skill.name,
        description: formatOneLine(skill.description, DESCRIPTION_CHARS),
        score: round(hit.score),
      });
    }
    return { ok: true, rows };
  }

  private groupOf(library: string): number {
    let group = this.groups.get(library);
    if (group === undefined) this.groups.set(library, (group = this.groups.size));
    return group;
  }
}

type Field = keyof typeof BOOST;

function round(score: number): number {
  return Math.round(score * 100) / 100;
}
