// The MCP Skills extension (SEP-2640) over our own shelf: skills/list, skills/get, resources/directory/read.
// Entries and digests come from the shelf, so what a host verifies is what resources/read returns.
import { type Scope, visibleSkills } from "../resolve/index.js";
import { formatSkillMdUri, formatSkillUri } from "../address/index.js";
import type { Shelf, Skill } from "../shelf/index.js";

export const SKILLS_EXTENSION = "io.modelcontextprotocol/skills";
export const DEFAULT_PAGE_SIZE = 100;

export interface SkillEntry {
  readonly uri: string;
  readonly frontmatter: Readonly<Record<string, unknown>>;
  readonly resources: readonly { readonly uri: string; readonly digest: string; readonly size: number }[];
}

const ENTRIES = new WeakMap<Skill, SkillEntry>();

/** `{uri: …/SKILL.md, frontmatter, resources}` with every file of the skill once, SKILL.md included. Skills are
 *  immutable, so each entry is formatted once per shelf and shared by every page that shows it. */
export function formatSkillEntry(skill: Skill): SkillEntry {
  let entry = ENTRIES.get(skill);
  if (entry === undefined) {
    entry = buildSkillEntry(skill);
    ENTRIES.set(skill, entry);
  }
  return entry;
}

function buildSkillEntry(skill: Skill): SkillEntry {
  return {
    uri: formatSkillMdUri(skill.library, skill.address),
    frontmatter: skill.frontmatter,
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

export function formatCursor(lastUri: string): string {
  return Buffer.from(CURSOR_PREFIX + lastUri, "utf8").toString("base64url");
}

/** The URI to resume after, or null when the cursor is not one this server issued. */
export function parseCursor(cursor: string): string | null {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  const text = Buffer.from(cursor, "base64url").toString("utf8");
  return text.startsWith(CURSOR_PREFIX) && text.length > CURSOR_PREFIX.length ? text.slice(CURSOR_PREFIX.length) : null;
}

export interface Page<T> {
  readonly items: readonly T[];
  readonly nextCursor?: string;
}

/** One page of `sorted` (sorted by `keyOf`, code-unit order) after the cursor's key. */
export function paginate<T>(sorted: readonly T[], keyOf: (item: T) => string, after: string | null, size: number): Page<T> {
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

export function listSkillEntries(shelf: Shelf, scope: Scope, after: string | null, size = DEFAULT_PAGE_SIZE): Page<SkillEntry> {
  const skills = visibleSkills(shelf, scope);
  const page = paginate(skills, (skill) => formatSkillMdUri(skill.library, skill.address), after, size);
  return { items: page.items.map(formatSkillEntry), ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }) };
}
