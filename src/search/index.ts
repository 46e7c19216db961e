// Ranked search over the skills a scope sees: the index (built per scope, brought up to each shelf
// incrementally) and the checked arguments of a search.
export {
  SkillIndex,
  BOOST,
  BODY_CHARS,
  bodyTerms,
  folderTerms,
  indexedBody,
  MINISEARCH_OPTIONS,
  MINISEARCH_QUERY,
  queryTerms,
  type SearchOutcome,
  type SearchRow,
} from "./skill-index.js";
export { skillBody, skillDocument, type SkillDocument } from "./documents.js";
export { DEFAULT_LIMIT, MAX_LIMIT, MAX_QUERY_LENGTH, parseSearchRequest, type SearchRequest } from "./request.js";
