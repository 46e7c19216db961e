// The arguments of a search, checked once: bad input is a precise message and searches nothing.
export interface SearchRequest {
  readonly query: string;
  /** Only this library's skills; a library the caller cannot see is refused like one that does not exist. */
  readonly library: string | null;
  readonly limit: number;
}

export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 50;
export const MAX_QUERY_LENGTH = 200;

export type ParsedSearch = { readonly ok: true; readonly request: SearchRequest } | { readonly ok: false; readonly message: string };

export function parseSearchRequest(args: Readonly<Record<string, unknown>>): ParsedSearch {
  const { query, library, limit } = args;
  if (typeof query !== "string" || query.trim() === "")
    return refuse("search_skills needs a non-empty string argument 'query', e.g. \"terraform drift\"");
  if (query.length > MAX_QUERY_LENGTH)
    return refuse(`search_skills: 'query' is ${query.length} characters; the most is ${MAX_QUERY_LENGTH}`);
  if (library !== undefined && library !== null && typeof library !== "string")
    return refuse("search_skills: 'library' must be a library name (a string), e.g. engineering");
  if (limit !== undefined && limit !== null && !(typeof limit === "number" && Number.isInteger(limit) && limit >= 1 && limit <= MAX_LIMIT))
    return refuse(`search_skills: 'limit' must be a whole number from 1 to ${MAX_LIMIT}`);
  return {
    ok: true,
    request: {
      query: query.trim(),
      library: typeof library === "string" && library !== "" ? library : null,
      limit: typeof limit === "number" ? limit : DEFAULT_LIMIT,
    },
  };
}

function refuse(message: string): ParsedSearch {
  return { ok: false, message };
}
