// §2.3: the server is the authority on the placeholders in a served SKILL.md body. Plain text replacement:
// no regular expression is ever built from content.

export const PLUGIN_ROOT = "${CLAUDE_PLUGIN_ROOT}";
export const SKILL_DIR = "${CLAUDE_SKILL_DIR}";
/** The other spelling of a skill's own folder that real collections use as their standard (Claude Code's older
 *  skill documentation wrote it): the same folder as `${CLAUDE_SKILL_DIR}`. Shell variables such as `$SKILL_DIR`
 *  are not among them: a skill's own scripts set those. */
export const BASE_DIR = "{baseDir}";
/** Every spelling of the skill's own folder, substituted alike. */
export const SKILL_DIR_SPELLINGS: readonly string[] = [SKILL_DIR, BASE_DIR];

/** `see ${CLAUDE_PLUGIN_ROOT}/a.md` => `see skill://kit/a.md`; `{baseDir}/x.md` => `skill://kit/pdf/x.md`. */
export function substitutePlaceholders(text: string, libraryUri: string, skillUri: string): string {
  let out = text.split(PLUGIN_ROOT).join(libraryUri);
  for (const spelling of SKILL_DIR_SPELLINGS) out = out.split(spelling).join(skillUri);
  return out;
}

export function hasPlaceholders(text: string): boolean {
  return text.includes(PLUGIN_ROOT) || SKILL_DIR_SPELLINGS.some((spelling) => text.includes(spelling));
}
