// The read side of the usage store: the tables an admin looks at, each over the last `days` days (UTC, today
// included), each paged. Sums are exact: every replica adds its own counts to the same rows.
import type { Queryable } from "./backend.js";
import { dayOf } from "./store.js";

export interface Window {
  /** Days back, today included. */
  readonly days: number;
  readonly now: Date;
  /** Only this library; absent: every library. */
  readonly library?: string;
  /** Only these skills (`library/skill`) and prompts (their names): what a viewer's scope sees; absent: all. */
  readonly visible?: { readonly skills: readonly string[]; readonly prompts: readonly string[] };
  readonly limit: number;
  readonly offset: number;
}

export interface SkillReads {
  readonly library: string;
  readonly skill: string;
  readonly reads: number;
  /** Reads of SKILL.md alone. */
  readonly skillMdReads: number;
  readonly clients: number;
}

export interface ClientReads {
  readonly client: string;
  readonly surface: string;
  readonly reads: number;
  readonly skills: number;
}

export interface PromptFetches {
  readonly library: string;
  readonly prompt: string;
  readonly fetches: number;
  readonly clients: number;
}

export interface UnfollowedSearch {
  readonly query: string;
  readonly searches: number;
  /** Searches that found skills and were never followed by a read of one of them by the same client. */
  readonly unfollowed: number;
  readonly clients: number;
}

export interface SearchCount {
  readonly query: string;
  readonly searches: number;
  readonly zeroResults: number;
  readonly clients: number;
}

function firstDay(window: Pick<Window, "days" | "now">): string {
  return dayOf(new Date(window.now.getTime() - (window.days - 1) * 86_400_000));
}

/** Conditions on `day` and, when given, `library` and the visible skills (or prompts), with their parameters. */
function where(window: Window, withLibrary: boolean, visible: "skills" | "prompts" = "skills"): { sql: string; params: unknown[] } {
  const params: unknown[] = [firstDay(window)];
  let sql = "day >= $1::date";
  if (withLibrary && window.library !== undefined) {
    params.push(window.library);
    sql += ` AND library = $${params.length}`;
  }
  if (withLibrary && window.visible !== undefined) {
    params.push(window.visible[visible]);
    sql +=
      visible === "skills"
        ? ` AND library || '/' || skill = ANY($${params.length}::text[])`
        : ` AND prompt = ANY($${params.length}::text[])`;
  }
  return { sql, params };
}

/** The most read skills: reads of any of their files, most first (ties by library, then address). */
export async function mostRead(db: Queryable, window: Window): Promise<SkillReads[]> {
  const { sql, params } = where(window, true);
  const rows = await db.query(
    `SELECT library, skill, sum(reads) AS reads, sum(CASE WHEN file = 'SKILL.md' THEN reads ELSE 0 END) AS skill_md,
            count(DISTINCT client) AS clients
       FROM usage_reads WHERE ${sql}
      GROUP BY library, skill ORDER BY sum(reads) DESC, library, skill
      LIMIT ${window.limit} OFFSET ${window.offset}`,
    params,
  );
  return rows.map((row) => ({
    library: String(row["library"]),
    skill: String(row["skill"]),
    reads: Number(row["reads"]),
    skillMdReads: Number(row["skill_md"]),
    clients: Number(row["clients"]),
  }));
}

/** Reads by client and surface, most first. */
export async function readsByClient(db: Queryable, window: Window): Promise<ClientReads[]> {
  const { sql, params } = where(window, true);
  const rows = await db.query(
    `SELECT client, surface, sum(reads) AS reads, count(DISTINCT library || '/' || skill) AS skills
       FROM usage_reads WHERE ${sql}
      GROUP BY client, surface ORDER BY sum(reads) DESC, client, surface
      LIMIT ${window.limit} OFFSET ${window.offset}`,
    params,
  );
  return rows.map((row) => ({
    client: String(row["client"]),
    surface: String(row["surface"]),
    reads: Number(row["reads"]),
    skills: Number(row["skills"]),
  }));
}

/** Searches that found nothing, most often asked first. */
export async function zeroResultSearches(db: Queryable, window: Window): Promise<SearchCount[]> {
  const params: unknown[] = [firstDay(window)];
  const rows = await db.query(
    `SELECT query, sum(searches) AS searches, sum(zero_results) AS zero, count(DISTINCT client) AS clients
       FROM usage_searches WHERE day >= $1::date
      GROUP BY query HAVING sum(zero_results) > 0 ORDER BY sum(zero_results) DESC, query
      LIMIT ${window.limit} OFFSET ${window.offset}`,
    params,
  );
  return rows.map((row) => ({
    query: String(row["query"]),
    searches: Number(row["searches"]),
    zeroResults: Number(row["zero"]),
    clients: Number(row["clients"]),
  }));
}

/** Prompts rendered, most first. */
export async function promptsFetched(db: Queryable, window: Window): Promise<PromptFetches[]> {
  const { sql, params } = where(window, true, "prompts");
  const rows = await db.query(
    `SELECT library, prompt, sum(fetches) AS fetches, count(DISTINCT client) AS clients
       FROM usage_prompts WHERE ${sql}
      GROUP BY library, prompt ORDER BY sum(fetches) DESC, library, prompt
      LIMIT ${window.limit} OFFSET ${window.offset}`,
    params,
  );
  return rows.map((row) => ({
    library: String(row["library"]),
    prompt: String(row["prompt"]),
    fetches: Number(row["fetches"]),
    clients: Number(row["clients"]),
  }));
}

/** Searches that found skills but were never followed by a read of one of them, most often first. */
export async function unfollowedSearches(db: Queryable, window: Window): Promise<UnfollowedSearch[]> {
  const rows = await db.query(
    `SELECT query, sum(searches) AS searches, sum(searches - zero_results - followed) AS unfollowed,
            count(DISTINCT client) AS clients
       FROM usage_searches WHERE day >= $1::date
      GROUP BY query HAVING sum(searches - zero_results - followed) > 0
      ORDER BY sum(searches - zero_results - followed) DESC, query
      LIMIT ${window.limit} OFFSET ${window.offset}`,
    [firstDay(window)],
  );
  return rows.map((row) => ({
    query: String(row["query"]),
    searches: Number(row["searches"]),
    unfollowed: Number(row["unfollowed"]),
    clients: Number(row["clients"]),
  }));
}

/** Every skill (`library` + `/` + address) read at least once in the window. */
export async function readSkills(db: Queryable, window: Pick<Window, "days" | "now">): Promise<Set<string>> {
  const rows = await db.query(`SELECT DISTINCT library, skill FROM usage_reads WHERE day >= $1::date`, [firstDay(window)]);
  return new Set(rows.map((row) => `${String(row["library"])}/${String(row["skill"])}`));
}
