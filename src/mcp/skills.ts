// The MCP Skills extension over our scoped shelf: a SkillSource the SDK's SkillsExtension serves. Entries and
// digests come from the shelf, so what a host verifies is what resources/read returns.
import { ProtocolError, ProtocolErrorCode, type Resource } from "@modelcontextprotocol/server";
import type { Skill as SkillEntry, SkillReadResult, SkillSource } from "@modelcontextprotocol/server/ext/skills";
import { formatSkillMdUri, formatSkillUri } from "../address/index.js";
import { memoize } from "../memo/index.js";
import { findSkillBySkillMd, readDirectory, visibleSkills } from "../resolve/index.js";
import type { Skill } from "../shelf/index.js";
import type { RequestView } from "./request-view.js";
import type { ShelfAccess } from "./shelf-access.js";
import { paginate, resumeAfter } from "./pages.js";

const DEFAULT_PAGE_SIZE = 100;

/** Not found is `-32602` with `data: {uri}` as sent. */
export function notFoundError(uri: string, message: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, message, { uri });
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

/** The skills one view sees, for the SDK's Skills extension: every method reads the current shelf under the scope
 *  compiled against it, and answers "not found" with our own -32602 and `data: {uri}`. */
export function createSkillSource(access: ShelfAccess, view: RequestView): SkillSource {
  return {
    async list({ cursor }) {
      const shelf = access.current;
      const skills = visibleSkills(shelf, view.scopeOn(shelf));
      const page = paginate(skills, (skill) => formatSkillMdUri(skill.library, skill.address), resumeAfter(cursor), {
        count: DEFAULT_PAGE_SIZE,
      });
      const items = page.items.map(formatSkillEntry);
      return page.nextCursor === undefined ? { skills: items } : { skills: items, nextCursor: page.nextCursor };
    },
    async get(uri) {
      const shelf = access.current;
      const skill = findSkillBySkillMd(shelf, view.scopeOn(shelf), uri);
      if (skill === null) throw notFoundError(uri, `Not a skill: ${uri}. skills/get takes the SKILL.md URI of a skill from skills/list.`);
      const entry = formatSkillEntry(skill);
      view.onUse?.({ kind: "read", uri: entry.uri, surface: "skills/get" });
      return entry;
    },
    async read(uri): Promise<SkillReadResult> {
      const outcome = await access.read(uri, view.scopeOn);
      if (!outcome.ok) throw notFoundError(outcome.uri, outcome.message);
      view.onUse?.({ kind: "read", uri: outcome.uri, surface: "skills/read" });
      return "text" in outcome
        ? { text: outcome.text, mimeType: outcome.mimeType }
        : { bytes: Buffer.from(outcome.blob, "base64"), mimeType: outcome.mimeType };
    },
    async readDirectory(uri, { cursor }) {
      const shelf = access.current;
      const answer = readDirectory(shelf, view.scopeOn(shelf), uri);
      if (answer.kind === "notFound") throw notFoundError(uri, answer.message);
      const page = paginate(answer.entries, (entry) => entry.uri, resumeAfter(cursor), { count: DEFAULT_PAGE_SIZE });
      const resources: Resource[] = page.items.map((entry) => ({ ...entry }));
      return page.nextCursor === undefined ? { resources } : { resources, nextCursor: page.nextCursor };
    },
  };
}
