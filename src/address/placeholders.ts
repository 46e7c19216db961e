// §2.3: the server is the authority on two placeholders in a served SKILL.md body. Plain text replacement:
// no regular expression is ever built from content.

export const PLUGIN_ROOT = "${CLAUDE_PLUGIN_ROOT}";
export const SKILL_DIR = "${CLAUDE_SKILL_DIR}";

/** `see ${CLAUDE_PLUGIN_ROOT}/a.md` => `see skill://kit/a.md`. */
export function substitutePlaceholders(text: string, libraryUri: string, skillUri: string): string {
  return text.split(PLUGIN_ROOT).join(libraryUri).split(SKILL_DIR).join(skillUri);
}

export function hasPlaceholders(text: string): boolean {
  return text.includes(PLUGIN_ROOT) || text.includes(SKILL_DIR);
}
