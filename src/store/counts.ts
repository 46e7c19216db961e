// Counts held in memory until a flush writes them: one row per distinct key with the number of uses since the last
// flush. Bounded: a use whose row is not held yet, once `capacity` rows are, is dropped and counted as dropped.

/** A read of a skill's file over one surface, by one client, on one day (UTC). */
export interface ReadUse {
  readonly library: string;
  /** The skill's address below its library, segments joined by `/`. */
  readonly skill: string;
  /** The digest of the skill's SKILL.md as served when it was read. */
  readonly digest: string;
  readonly client: string;
  readonly surface: string;
  /** `SKILL.md`, or `other` for any other file of the skill. */
  readonly file: "SKILL.md" | "other";
}

/** One search over one surface, by one client: its normalised words and how many skills it found. */
export interface SearchUse {
  readonly query: string;
  readonly client: string;
  readonly surface: string;
  readonly results: number;
}

/** A prompt rendered over one surface (`prompts/get`, or the `get_prompt` tool as `tool`), by one client. */
export interface PromptUse {
  readonly library: string;
  /** The prompt's name as served (`<library>_<stem>`). */
  readonly prompt: string;
  readonly client: string;
  readonly surface: string;
}

export interface ReadRow extends ReadUse {
  readonly day: string;
  reads: number;
}

export interface SearchRow {
  readonly day: string;
  readonly query: string;
  readonly client: string;
  readonly surface: string;
  searches: number;
  zeroResults: number;
  /** Searches of this row that a read of one of their results by the same client followed (follows.ts). */
  followed: number;
}

export interface PromptRow extends PromptUse {
  readonly day: string;
  fetches: number;
}

/** What one search row adds: searches, those that found nothing, those followed by a read. */
export interface SearchCounts {
  readonly searches: number;
  readonly zeroResults: number;
  readonly followed: number;
}

/** The longest query kept, in characters; longer ones are cut (at a word where there is one). */
export const MAX_QUERY_CHARS = 200;

/** `  Deploy   KUBERNETES\n` => `deploy kubernetes`: NFKC, lower case, one space between words, at most 200 characters. */
export function normaliseQuery(query: string): string {
  const words = query.normalize("NFKC").toLowerCase().trim().split(/\s+/u).join(" ");
  if (words.length <= MAX_QUERY_CHARS) return words;
  const cut = words.slice(0, MAX_QUERY_CHARS);
  const space = cut.lastIndexOf(" ");
  return space > MAX_QUERY_CHARS / 2 ? cut.slice(0, space) : cut;
}

export class PendingCounts {
  readonly reads = new Map<string, ReadRow>();
  readonly searches = new Map<string, SearchRow>();
  readonly prompts = new Map<string, PromptRow>();
  /** Uses held (not rows); the mark that a search was followed by a read counts as one. */
  uses = 0;

  constructor(private readonly capacity: number) {}

  get rows(): number {
    return this.reads.size + this.searches.size + this.prompts.size;
  }

  /** False when the use had no room and was not kept. */
  addRead(day: string, use: ReadUse, reads = 1): boolean {
    const key = `${day}\u0000${use.library}\u0000${use.skill}\u0000${use.digest}\u0000${use.client}\u0000${use.surface}\u0000${use.file}`;
    const row = this.reads.get(key);
    if (row !== undefined) row.reads += reads;
    else if (this.rows >= this.capacity) return false;
    else this.reads.set(key, { day, ...use, reads });
    this.uses += reads;
    return true;
  }

  /** `counts` is one search (found nothing when `results` is 0), or a row's sums put back after a failed flush, or
   *  `{searches: 0, zeroResults: 0, followed: 1}`: a search counted before was followed by a read. */
  addSearch(day: string, use: Omit<SearchUse, "results">, counts: SearchCounts): boolean {
    const key = [day, use.query, use.client, use.surface].join("\u0000");
    const row = this.searches.get(key);
    if (row !== undefined) {
      row.searches += counts.searches;
      row.zeroResults += counts.zeroResults;
      row.followed += counts.followed;
    } else if (this.rows >= this.capacity) return false;
    else this.searches.set(key, { day, query: use.query, client: use.client, surface: use.surface, ...counts });
    this.uses += counts.searches + counts.followed;
    return true;
  }

  addPrompt(day: string, use: PromptUse, fetches = 1): boolean {
    const key = [day, use.library, use.prompt, use.client, use.surface].join("\u0000");
    const row = this.prompts.get(key);
    if (row !== undefined) row.fetches += fetches;
    else if (this.rows >= this.capacity) return false;
    else this.prompts.set(key, { day, library: use.library, prompt: use.prompt, client: use.client, surface: use.surface, fetches });
    this.uses += fetches;
    return true;
  }

  /** Puts back the rows of a flush that failed; answers the uses there was no room for. */
  restore(failed: PendingCounts): number {
    let lost = 0;
    for (const row of failed.reads.values()) if (!this.addRead(row.day, row, row.reads)) lost += row.reads;
    for (const row of failed.searches.values()) if (!this.addSearch(row.day, row, row)) lost += row.searches + row.followed;
    for (const row of failed.prompts.values()) if (!this.addPrompt(row.day, row, row.fetches)) lost += row.fetches;
    return lost;
  }
}
