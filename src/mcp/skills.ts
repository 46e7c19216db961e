// The MCP Skills extension over our scoped shelf: a SkillSource the SDK's SkillsExtension serves. Entries and
// digests come from the shelf, so what a host verifies is what resources/read returns.
import { ProtocolError, ProtocolErrorCode, type Resource } from "@modelcontextprotocol/server";
import type { Skill as SkillEntry, SkillReadResult, SkillSource } from "@modelcontextprotocol/server/ext/skills";
import { formatSkillMdUri, formatSkillUri, memoize } from "../address/index.js";
import { findSkillBySkillMd, readDirectory, visibleSkills } from "../resolve/index.js";
import type { Skill } from "../shelf/index.js";
import type { RequestView } from "./request-view.js";
import type { ShelfAccess } from "./shelf-access.js";

const DEFAULT_PAGE_SIZE = 100;

/** Not found is `-32602` with `data: {uri}` as sent. */
export function notFoundError(uri: string, message: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, message, { uri });
}

export function badCursor(): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, "Invalid cursor: pass back the nextCursor of the previous page unchanged");
}

/** `{uri: …/SKILL.md, frontmatter, resources}` with every file of the skill once, SKILL.md included. Skills are
 *  immutable, so each entry is formatted once per shelf and shared by every page that shows it. */
const formatSkillEntry = memoize(buildSkillEntry);

function buildSkillEntry(skill: Skill): SkillEntry {
  return {
    uri: formatSkillMdUri(skill.library, skill.address),
    frontmatter: skill.frontmatter as SkillEntry["frontmatter"],
    resources: skill.paths.map((path) => {
      const file = skill.files.get(path);
      return {
        uri: formatSkillUri(skill.library, [...skill.address, ...path.split("/")]),
        digest: file?.digest ?? "",
        size: file?.size ?? 0,
      };
    }),
  };
}

// A cursor is the last URI of the previous page, so a rebuild between pages neither repeats nor skips:
// `skill://a/x/SKILL.md` => base64url("after:skill://a/x/SKILL.md").
const CURSOR_PREFIX = "after:";

function formatCursor(lastUri: string): string {
  return Buffer.from(CURSOR_PREFIX + lastUri, "utf8").toString("base64url");
}

/** The URI to resume after, or null when the cursor is not one this server issued. */
function parseCursor(cursor: string): string | null {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  const text = Buffer.from(cursor, "base64url").toString("utf8");
  return text.startsWith(CURSOR_PREFIX) && text.length > CURSOR_PREFIX.length ? text.slice(CURSOR_PREFIX.length) : null;
}

/** The key to resume after: none for a first page; a cursor this server did not issue is refused. */
function resumeAfter(cursor: string | undefined): string | null {
  if (cursor === undefined) return null;
  const after = parseCursor(cursor);
  if (after === null) throw badCursor();
  return after;
}

interface Page<T> {
  readonly items: readonly T[];
  readonly nextCursor?: string;
}

/** One page of `sorted` (sorted by `keyOf`, code-unit order) after the cursor's key. */
function paginate<T>(sorted: readonly T[], keyOf: (item: T) => string, after: string | null, size: number): Page<T> {
  let start = 0;
  if (after !== null) {
    // Binary search for the first key greater than `after`.
    let high = sorted.length;
    while (start < high) {
      const mid = (start + high) >>> 1;
      if (keyOf(sorted[mid] as T) <= after) start = mid + 1;
      else high = mid;
    }
  }
  const items = sorted.slice(start, start + size);
  const last = items[items.length - 1];
  return start + size < sorted.length && last !== undefined ? { items, nextCursor: formatCursor(keyOf(last)) } : { items };
}

/** The skills one view sees, for the SDK's Skills extension: every method reads the current shelf under the scope
 *  compiled against it, and answers "not found" with our own -32602 and `data: {uri}`. */
export function createSkillSource(access: ShelfAccess, view: RequestView): SkillSource {
  return {
    async list({ cursor }) {
      const shelf = access.current;
      const skills = visibleSkills(shelf, view.scopeOn(shelf));
      const page = paginate(skills, (skill) => formatSkillMdUri(skill.library, skill.address), resumeAfter(cursor), DEFAULT_PAGE_SIZE);
      const items = page.items.map(formatSkillEntry);
      return page.nextCursor === undefined ? { skills: items } : { skills: items, nextCursor: page.nextCursor };
    },
    async get(uri) {
      const shelf = access.current;
      const skill = findSkillBySkillMd(shelf, view.scopeOn(shelf), uri);
      if (skill === null) throw notFoundError(uri, `Not a skill: ${uri}. skills/get takes the SKILL.md URI of a skill from skills/list.`);
      return formatSkillEntry(skill);
    },
    async read(uri): Promise<SkillReadResult> {
      const outcome = await access.read(uri, view.scopeOn);
      if (!outcome.ok) throw notFoundError(outcome.uri, outcome.message);
      return "text" in outcome
        ? { text: outcome.text, mimeType: outcome.mimeType }
        : { bytes: Buffer.from(outcome.blob, "base64"), mimeType: outcome.mimeType };
    },
    async readDirectory(uri, { cursor }) {
      const shelf = access.current;
      const answer = readDirectory(shelf, view.scopeOn(shelf), uri);
      if (answer.kind === "notFound") throw notFoundError(uri, answer.message);
      const page = paginate(answer.entries, (entry) => entry.uri, resumeAfter(cursor), DEFAULT_PAGE_SIZE);
      const resources: Resource[] = page.items.map((entry) => ({ ...entry }));
      return page.nextCursor === undefined ? { resources } : { resources, nextCursor: page.nextCursor };
    },
  };
}
