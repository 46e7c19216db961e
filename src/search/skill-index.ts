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

const FIELDS = Object.keys(BOOST) as (keyof typeof BOOST)[];

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

/** BM25 and the weights of prefix and typo matches, stated rather than left to the library's defaults: the bound
 *  on what a match can add to a score (`maxContribution`) is computed from them. */
const BM25 = { k: 1.2, b: 0.7, d: 0.5 };
const WEIGHTS = { prefix: 0.375, fuzzy: 0.45 };

/** Typos tolerated per word at most (a fifth of its letters, rounded, up to this). */
export const MAX_FUZZY = 1;

const tokenize = MiniSearch.getDefault("tokenize") as (text: string) => string[];

function createMini(): MiniSearch<Indexed> {
  return new MiniSearch<Indexed>({
    fields: FIELDS,
    storeFields: [],
    processTerm,
    searchOptions: { boost: BOOST, bm25: BM25, weights: WEIGHTS, maxFuzzy: MAX_FUZZY },
  });
}

/** The words of a query as the index sees them (the library's tokenizer, then `processTerm`). */
export function queryTerms(text: string): string[] {
  return tokenize(text).flatMap((token) => processTerm(token) ?? []);
}

/** The most one matching (query word, field, indexed word) can add to a document's score before the final
 *  multiplication by the number of query words matched: BM25's term-frequency part never reaches `k + 1 + d`. */
export function maxContribution(field: keyof typeof BOOST, exact: boolean, documentFrequency: number, documents: number): number {
  const idf = Math.log(1 + (documents - documentFrequency + 0.5) / (documentFrequency + 0.5));
  return (exact ? 1 : Math.max(WEIGHTS.prefix, WEIGHTS.fuzzy)) * BOOST[field] * idf * (BM25.k + 1 + BM25.d);
}

/** Words matched in at most this share of the documents are scored over every document at first; more common
 *  ones only for the documents the rarer ones found, unless their bound says they could still change the top. */
export const RARE_SHARE = 0.1;

/** Documents found by the rare matches that are scored in full at first (at least the limit). */
export const CANDIDATES = 40;

const META_FIELDS = FIELDS.filter((field) => field !== "body");

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
      this.mini.add({ ...doc, folder: folderTerms(doc), body: bodyTerms(doc, bodies.get(id) ?? "") });
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
    const inLibrary = library === null ? null : (id: string): boolean => this.skills.get(id)?.library === library;
    const rows: SearchRow[] = [];
    for (const result of this.topResults(queryTerms(request.query), request.limit, inLibrary)) {
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

  /** Every match of every query word scored and sorted: what `topResults` must equal. */
  exhaustive(words: readonly string[], limit: number): SearchResult[] {
    return this.score(words, undefined).slice(0, limit);
  }

  /** The `limit` best matches, exactly as scoring every match would rank them, without scoring every match.
   *  A first pass only counts, for each (query word, field, indexed word) it matches, how many documents hold it;
   *  from that count follows the most such a match can add to a score (`maxContribution`). The rare matches
   *  (in at most RARE_SHARE of the documents) are scored over every document; of the documents they find, the
   *  best CANDIDATES are then scored in full. A document none of the scored matches found can score at most the
   *  sum of the other matches' bounds times the number of query words; one found but not scored in full, at most
   *  its partial score plus that sum, times the number of query words. When the `limit`-th best full score is
   *  above both, no other document can enter the top; otherwise every document whose bound still reaches that
   *  score is scored too, or, when the first bound is the one reached, the commonest matches with the highest
   *  bounds join the scored ones (at worst: every match, as `exhaustive`). */
  private topResults(words: readonly string[], limit: number, inLibrary: ((id: string) => boolean) | null): SearchResult[] {
    if (words.length === 0) return [];
    const pairs: Pair[] = [];
    this.run(words, (position, field) => {
      const seen = new Map<string, Pair>();
      return (id: string, term: string) => {
        let pair = seen.get(term);
        if (pair === undefined) {
          pair = { position, field, term, documents: 0, inLibrary: 0, bound: 0 };
          seen.set(term, pair);
          pairs.push(pair);
        }
        pair.documents++;
        if (inLibrary === null || inLibrary(id)) pair.inLibrary++;
        return 0;
      };
    });
    const total = this.mini.documentCount;
    const found = pairs.filter((pair) => pair.inLibrary > 0);
    for (const pair of found) pair.bound = maxContribution(pair.field, pair.term === words[pair.position], pair.documents, total);
    found.sort((a, b) => b.bound - a.bound);
    const rare = found.filter((pair) => pair.documents <= RARE_SHARE * total);
    let scored = new Set(rare.length > 0 ? rare : found.slice(0, 1));
    const distinctWords = new Set(words).size;
    for (;;) {
      const rest = found.filter((pair) => !scored.has(pair));
      if (rest.length === 0)
        return this.score(words, inLibrary === null ? undefined : (id: string) => (inLibrary(id) ? 1 : 0)).slice(0, limit);
      const gates = new Map<string, Set<string>>();
      for (const pair of scored) {
        const key = `${pair.position} ${pair.field}`;
        gates.set(key, (gates.get(key) ?? new Set()).add(pair.term));
      }
      const partial = this.run(words, (position, field) => {
        const terms = gates.get(`${position} ${field}`);
        if (terms === undefined) return null;
        return (id: string, term: string) => (terms.has(term) && (inLibrary === null || inLibrary(id)) ? 1 : 0);
      })
        .map((result) => ({ id: result.id as string, raw: result.score / result.queryTerms.length }))
        .sort((a, b) => b.raw - a.raw);
      const restBound = rest.reduce((sum, pair) => sum + pair.bound, 0);
      const outside = restBound * new Set(rest.map((pair) => words[pair.position])).size;
      let candidates = Math.max(CANDIDATES, limit);
      for (;;) {
        const chosen = new Set(partial.slice(0, candidates).map((entry) => entry.id));
        const results = this.score(words, (id: string) => (chosen.has(id) ? 1 : 0));
        const threshold = results.length >= limit ? (results[limit - 1] as SearchResult).score : -1;
        const cut = partial[candidates];
        const unscored = cut === undefined ? -1 : (cut.raw + restBound) * distinctWords;
        if (threshold > outside && threshold > unscored) return results.slice(0, limit);
        if (threshold <= outside || cut === undefined) break;
        // Only the documents whose bound reaches the threshold can still enter the top: score them all at once.
        const reach = threshold / distinctWords - restBound;
        let more = candidates + 1;
        while (more < partial.length && (partial[more] as { raw: number }).raw >= reach) more++;
        candidates = more;
      }
      let left = restBound;
      const next = new Set(scored);
      for (const pair of rest) {
        next.add(pair);
        left -= pair.bound;
        if (left <= restBound / 2) break;
      }
      scored = next;
    }
  }

  /** Every query word over every field, as one search: prefixes and typos on what the skill says it is, the
   *  body's exact words on top, so its many terms never multiply a query's expansions. `gate`, when given, is
   *  MiniSearch's `boostDocument`: 0 leaves a document unscored, 1 scores it. */
  private score(words: readonly string[], gate: ((id: string) => number) | undefined): SearchResult[] {
    const text = words.join(" ");
    const extra = gate === undefined ? {} : { boostDocument: gate };
    return this.mini.search({
      combineWith: "OR",
      queries: [
        {
          queries: [text],
          fields: META_FIELDS,
          prefix: (term) => term.length >= 3,
          fuzzy: (term) => (term.length >= 5 ? 0.2 : false),
          ...extra,
        },
        { queries: [text], fields: ["body"], prefix: false, fuzzy: false, ...extra },
      ],
    });
  }

  /** One search over every (query word, field) whose `gate` is not null; the gate's function, when there is one,
   *  is MiniSearch's `boostDocument`: 0 leaves a match unscored, 1 scores it. */
  private run(
    words: readonly string[],
    gate: (position: number, field: Field) => ((id: string, term: string) => number) | null | undefined,
  ): SearchResult[] {
    const queries: Query[] = [];
    words.forEach((word, position) => {
      for (const field of FIELDS) {
        const boostDocument = gate(position, field);
        if (boostDocument === null) continue;
        const meta = field !== "body";
        queries.push({
          queries: [word],
          fields: [field],
          prefix: meta && word.length >= 3,
          fuzzy: meta && word.length >= 5 ? 0.2 : false,
          ...(boostDocument === undefined ? {} : { boostDocument }),
        });
      }
    });
    return queries.length === 0 ? [] : this.mini.search({ combineWith: "OR", queries });
  }
}

type Field = keyof typeof BOOST;

/** One (query word, field, indexed word) a query matches: an exact word, or one reached by prefix or typo. */
interface Pair {
  readonly position: number;
  readonly field: Field;
  readonly term: string;
  /** Documents holding `term` in `field`. */
  documents: number;
  /** Of them, those in the requested library (all when none is). */
  inLibrary: number;
  bound: number;
}

function round(score: number): number {
  return Math.round(score * 100) / 100;
}
