// What the search sees of one skill: its fields as plain strings, derived once per skill object.
import { formatSkillMdUri, SKILL_FILE } from "../address/index.js";
import { memoize } from "../memo/index.js";
import type { Skill } from "../shelf/index.js";

export interface SkillDocument {
  /** The SKILL.md address: the row's `uri` and the document's id. */
  readonly id: string;
  readonly library: string;
  readonly name: string;
  readonly description: string;
  /** The folders above the skill and its directory name, as words. */
  readonly folder: string;
  /** `tags`, `keywords` and `metadata.tags` of the frontmatter, as words. */
  readonly tags: string;
  /** The digest of the served SKILL.md: an unchanged digest means an unchanged document. */
  readonly digest: string;
}

export const skillDocument: (skill: Skill) => SkillDocument = memoize((skill: Skill): SkillDocument => {
  const metadata = skill.frontmatter["metadata"];
  const nested = typeof metadata === "object" && metadata !== null ? (metadata as Record<string, unknown>)["tags"] : undefined;
  return {
    id: formatSkillMdUri(skill.library, skill.address),
    library: skill.library,
    name: skill.name,
    description: skill.description,
    folder: skill.address.join(" "),
    tags: [skill.frontmatter["tags"], skill.frontmatter["keywords"], nested].flatMap(words).join(" "),
    digest: skill.files.get(SKILL_FILE)?.digest ?? "",
  };
});

function words(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.filter((entry): entry is string => typeof entry === "string");
  return [];
}

const FRONTMATTER = /^\uFEFF?---\r?\n[\s\S]*?\r?\n---[ \t]*(?:\r?\n|$)/;

/** The SKILL.md text below its frontmatter: the body the index weighs below the description. */
export function skillBody(text: string): string {
  return text.replace(FRONTMATTER, "");
}
