// The inverted index behind the search: for every field, every word's postings (the documents holding it, and how
// often), and a query scored term at a time over every posting it reaches, into arrays reused from one query to
// the next. The scores are MiniSearch's, to the last bits of rounding: BM25+ per (query word, field, indexed
// word), times the field's boost and the prefix or typo weight, summed, times the number of distinct query words
// the document matched. MiniSearch itself scores each match into a result object and merges and sorts them all;
// on a shelf where a word is in most documents that is most of a query's time (docs/performance.md), so the
// scoring is done here over plain arrays, and what needs a real data structure, the dictionary in which a word
// is looked up by prefix and by edit distance, stays the library's (its radix tree, `SearchableMap`).
import SearchableMap from "minisearch/SearchableMap";

/** How one field is searched. */
export interface FieldSpec {
  readonly boost: number;
  /** Whether a query word also reaches this field's words by prefix and by typo (else only the word itself). */
  readonly expand: boolean;
}

export interface Scoring {
  readonly bm25: { readonly k: number; readonly b: number; readonly d: number };
  readonly weights: { readonly prefix: number; readonly fuzzy: number };
  /** A query word this long or longer reaches longer words it is a prefix of. */
  readonly prefixFrom: number;
  /** A query word this long or longer reaches words within `fuzzy` × its length edits (rounded, at most
   *  `maxFuzzy`). */
  readonly fuzzyFrom: number;
  readonly fuzzy: number;
  readonly maxFuzzy: number;
}

export interface Analyzer {
  readonly tokenize: (text: string) => string[];
  /** A token as the index stores it, or null to drop it. */
  readonly processTerm: (token: string) => string | null;
}

export interface Hit {
  readonly id: string;
  readonly score: number;
}

/** A posting: document number × COUNT + occurrences, so a list is one array of numbers, with no object per
 *  entry. Occurrences are capped at COUNT - 1, where BM25's term-frequency part has long stopped growing. */
const COUNT = 65536;

/** Removed documents stay in the postings, skipped, until they are this share of all numbered documents. */
const COMPACT_SHARE = 0.125;

export class Postings {
  /** Words of the expanding fields → one list per field (undefined for the other fields). */
  private readonly expanded = new SearchableMap<(number[] | undefined)[]>();
  /** Per field that does not expand: word → list. */
  private readonly plain: (Map<string, number[]> | null)[];
  private readonly expanding: number[];
  /** By document number: its id, or null once removed. */
  private ids: (string | null)[] = [];
  private groups: number[] = [];
  /** Per field, by document number: its length as MiniSearch counts it (distinct tokens). */
  private lengths: number[][];
  private readonly lengthSums: number[];
  private readonly numbers = new Map<string, number>();
  private removed = 0;
  // Reused by every query; index = document number.
  private scores = new Float64Array(0);
  private matched = new Uint16Array(0);
  private stamps = new Uint16Array(0);
  private touched = new Int32Array(0);

  constructor(
    private readonly fields: readonly FieldSpec[],
    private readonly scoring: Scoring,
    private readonly analyzer: Analyzer,
  ) {
    this.plain = fields.map((field) => (field.expand ? null : new Map()));
    this.expanding = fields.flatMap((field, position) => (field.expand ? [position] : []));
    this.lengths = fields.map(() => []);
    this.lengthSums = fields.map(() => 0);
  }

  /** Index a document: `values` holds its text per field, `group` what a search may narrow to. */
  add(id: string, values: readonly string[], group: number): void {
    if (this.numbers.has(id)) throw new Error(`document ${id} is indexed already`);
    const doc = this.ids.length;
    this.ids.push(id);
    this.groups.push(group);
    this.numbers.set(id, doc);
    this.fields.forEach((_, field) => {
      const tokens = this.analyzer.tokenize(values[field] ?? "");
      const length = new Set(tokens).size;
      (this.lengths[field] as number[]).push(length);
      this.lengthSums[field] = (this.lengthSums[field] as number) + length;
      const counts = new Map<string, number>();
      for (const token of tokens) {
        const term = this.analyzer.processTerm(token);
        if (term !== null) counts.set(term, (counts.get(term) ?? 0) + 1);
      }
      for (const [term, count] of counts) this.listOf(field, term).push(doc * COUNT + Math.min(count, COUNT - 1));
    });
  }

  /** Forget a document; its postings are skipped from now on and dropped at the next compaction. */
  remove(id: string): void {
    const doc = this.numbers.get(id);
    if (doc === undefined) return;
    this.numbers.delete(id);
    this.ids[doc] = null;
    this.removed++;
    this.fields.forEach((_, field) => {
      this.lengthSums[field] = (this.lengthSums[field] as number) - ((this.lengths[field] as number[])[doc] as number);
    });
    if (this.removed > COMPACT_SHARE * this.ids.length) this.compact();
  }

  /** The `limit` best documents for `words` (a query's words as the index stores them), best first, ties by the
   *  order they were added in; with `group`, only documents of that group are scored (the statistics stay those
   *  of every document, so a score does not depend on the filter). */
  search(words: readonly string[], limit: number, group: number | null): Hit[] {
    const live = this.numbers.size;
    if (live === 0 || words.length === 0) return [];
    this.reserve();
    const times = new Map<string, number>();
    for (const word of words) times.set(word, (times.get(word) ?? 0) + 1);
    let touched = 0;
    let stamp = 0;
    for (const [word, repeat] of times) {
      stamp++;
      const reach = (list: number[] | undefined, field: number, weight: number): void => {
        if (list !== undefined)
          touched = this.accumulate(list, field, weight * repeat * (this.fields[field] as FieldSpec).boost, stamp, group, touched);
      };
      this.plain.forEach((words, field) => reach(words?.get(word), field, 1));
      const exact = this.expanded.get(word);
      for (const field of this.expanding) reach(exact?.[field], field, 1);
      const { prefix, fuzzy } = this.scoring.weights;
      const prefixes = word.length >= this.scoring.prefixFrom;
      if (prefixes)
        for (const [term, lists] of this.expanded.atPrefix(word)) {
          if (term.length === word.length) continue;
          const weight = (prefix * term.length) / (term.length + 0.3 * (term.length - word.length));
          for (const field of this.expanding) reach(lists[field], field, weight);
        }
      const edits =
        word.length >= this.scoring.fuzzyFrom ? Math.min(this.scoring.maxFuzzy, Math.round(word.length * this.scoring.fuzzy)) : 0;
      if (edits > 0)
        for (const [term, [lists, distance]] of this.expanded.fuzzyGet(word, edits)) {
          // A longer word the query word begins was scored as a prefix match, as MiniSearch does.
          if (distance === 0 || (prefixes && term.startsWith(word))) continue;
          const weight = (fuzzy * term.length) / (term.length + distance);
          for (const field of this.expanding) reach(lists[field], field, weight);
        }
    }
    return this.best(touched, limit);
  }

  /** Add one list's scores to the accumulators; returns the new count of touched documents. */
  private accumulate(list: number[], field: number, factor: number, stamp: number, group: number | null, touched: number): number {
    const live = this.numbers.size;
    const { ids, groups, scores, matched, stamps } = this;
    const frequency =
      this.removed === 0 ? list.length : list.reduce((sum, entry) => sum + (ids[Math.floor(entry / COUNT)] === null ? 0 : 1), 0);
    if (frequency === 0) return touched;
    const { k, b, d } = this.scoring.bm25;
    const idf = Math.log(1 + (live - frequency + 0.5) / (frequency + 0.5));
    const average = (this.lengthSums[field] as number) / live;
    const lengths = this.lengths[field] as number[];
    for (const entry of list) {
      const doc = Math.floor(entry / COUNT);
      if (ids[doc] === null || (group !== null && groups[doc] !== group)) continue;
      const count = entry - doc * COUNT;
      const norm = k * (1 - b + (b * (lengths[doc] as number)) / average);
      if (stamps[doc] !== stamp) {
        if (matched[doc] === 0) this.touched[touched++] = doc;
        stamps[doc] = stamp;
        matched[doc] = (matched[doc] as number) + 1;
      }
      scores[doc] = (scores[doc] as number) + factor * idf * (d + (count * (k + 1)) / (count + norm));
    }
    return touched;
  }

  /** The best `limit` of the touched documents, and the accumulators cleared for the next query. */
  private best(touched: number, limit: number): Hit[] {
    const top: { doc: number; score: number }[] = [];
    for (let i = 0; i < touched; i++) {
      const doc = this.touched[i] as number;
      const score = (this.scores[doc] as number) * (this.matched[doc] as number);
      this.scores[doc] = 0;
      this.matched[doc] = 0;
      this.stamps[doc] = 0;
      const last = top[top.length - 1];
      if (top.length === limit && last !== undefined && !ahead(score, doc, last)) continue;
      let at = top.length;
      while (at > 0 && ahead(score, doc, top[at - 1] as { doc: number; score: number })) at--;
      top.splice(at, 0, { doc, score });
      if (top.length > limit) top.pop();
    }
    return top.map(({ doc, score }) => ({ id: this.ids[doc] as string, score }));
  }

  private reserve(): void {
    const size = this.ids.length;
    if (this.scores.length >= size) return;
    const capacity = Math.max(64, size + (size >> 1));
    this.scores = new Float64Array(capacity);
    this.matched = new Uint16Array(capacity);
    this.stamps = new Uint16Array(capacity);
    this.touched = new Int32Array(capacity);
  }

  private listOf(field: number, term: string): number[] {
    const words = this.plain[field];
    if (words !== null && words !== undefined) {
      let list = words.get(term);
      if (list === undefined) words.set(term, (list = []));
      return list;
    }
    let lists = this.expanded.get(term);
    if (lists === undefined) this.expanded.set(term, (lists = []));
    return (lists[field] ??= []);
  }

  /** Renumber the documents held, densely and in the same order, and drop the postings of removed ones. */
  private compact(): void {
    const renumbered = new Int32Array(this.ids.length).fill(-1);
    let next = 0;
    this.ids.forEach((id, doc) => {
      if (id !== null) renumbered[doc] = next++;
    });
    const keep = <T>(values: T[]): T[] => values.filter((_, doc) => (renumbered[doc] as number) >= 0);
    this.ids = keep(this.ids);
    this.groups = keep(this.groups);
    this.lengths = this.lengths.map(keep);
    this.ids.forEach((id, doc) => this.numbers.set(id as string, doc));
    const rewrite = (list: number[]): number[] => {
      const kept: number[] = [];
      for (const entry of list) {
        const doc = Math.floor(entry / COUNT);
        const to = renumbered[doc] as number;
        if (to >= 0) kept.push(to * COUNT + (entry - doc * COUNT));
      }
      return kept;
    };
    for (const words of this.plain) {
      if (words === null) continue;
      for (const [term, list] of [...words]) {
        const kept = rewrite(list);
        if (kept.length === 0) words.delete(term);
        else words.set(term, kept);
      }
    }
    const empty: string[] = [];
    for (const [term, lists] of this.expanded) {
      let any = false;
      lists.forEach((list, field) => {
        if (list === undefined) return;
        const kept = rewrite(list);
        lists[field] = kept.length === 0 ? undefined : kept;
        any ||= kept.length > 0;
      });
      if (!any) empty.push(term);
    }
    for (const term of empty) this.expanded.delete(term);
    this.removed = 0;
  }
}

/** Whether (score, doc) ranks before `other`: the higher score, then the document added first. */
function ahead(score: number, doc: number, other: { doc: number; score: number }): boolean {
  return score > other.score || (score === other.score && doc < other.doc);
}
