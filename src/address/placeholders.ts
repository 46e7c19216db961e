// §2.3: the server is the authority on the placeholders in a served SKILL.md body. Plain text scanning: no regular
// expression is ever built from content.

export const PLUGIN_ROOT = "${CLAUDE_PLUGIN_ROOT}";
export const SKILL_DIR = "${CLAUDE_SKILL_DIR}";
/** The other spelling of a skill's own folder that real collections use as their standard (Claude Code's older
 *  skill documentation wrote it): the same folder as `${CLAUDE_SKILL_DIR}`. Shell variables such as `$SKILL_DIR`
 *  are not among them: a skill's own scripts set those. */
export const BASE_DIR = "{baseDir}";
/** Every spelling of the skill's own folder, substituted alike. */
export const SKILL_DIR_SPELLINGS: readonly string[] = [SKILL_DIR, BASE_DIR];
const PLACEHOLDERS: readonly string[] = [PLUGIN_ROOT, ...SKILL_DIR_SPELLINGS];

/** Where a placeholder path stops: whitespace or a character that closes Markdown or a quoted string. */
const PATH_END = new Set([" ", "\t", "\n", "\r", "\f", "\v", ")", "]", '"', "'", "`", "<", ">", ",", ";"]);

/** The served skills of one plugin in one library: each skill folder (relative to the plugin root, `""` for a
 *  whole-plugin skill) with its URI. A plugin-root path that lands inside one of them is that skill's address. */
export type SkillFolders = ReadonlyMap<string, string>;

export interface PlaceholderBases {
  /** `skill://<library>`. */
  readonly libraryUri: string;
  /** The citing skill's URI (absent in a prompt, where a skill-folder placeholder stays text). */
  readonly skillUri?: string;
  /** The plugin's served skill folders (absent: every plugin-root path is below the library URI). */
  readonly skills?: SkillFolders;
}

/** `${CLAUDE_PLUGIN_ROOT}` + `rest` as an address: the URI of the served skill whose folder holds the path (the
 *  deepest, so a nested skill owns its files), else the library URI + `rest` (a library file or a fallback read).
 *  `/skills/pdf/references/x.md` with `skills/pdf` served at `skill://kit/pdf` => `skill://kit/pdf/references/x.md`. */
export function pluginRootUri(rest: string, bases: Pick<PlaceholderBases, "libraryUri" | "skills">): string {
  if (bases.skills !== undefined && (rest === "" || rest.startsWith("/"))) {
    const path = rest.slice(1);
    let best: string | undefined;
    for (const dir of bases.skills.keys()) {
      const inside = dir === "" || path === dir || path.startsWith(`${dir}/`);
      if (inside && (best === undefined || dir.length > best.length)) best = dir;
    }
    if (best !== undefined) {
      const below = best === "" ? path : path.slice(best.length + 1);
      return `${bases.skills.get(best) as string}${below === "" ? "" : `/${below}`}`;
    }
  }
  return bases.libraryUri + rest;
}

/**
 * `see ${CLAUDE_PLUGIN_ROOT}/shared/a.md` => `see skill://kit/shared/a.md`; `{baseDir}/x.md` =>
 * `skill://kit/pdf/x.md`; `${CLAUDE_PLUGIN_ROOT}/skills/pdf/x.md` => `skill://kit/pdf/x.md` when `skills/pdf` is a
 * served skill of the plugin. A code span holding the bare placeholder and nothing else (`` `${CLAUDE_PLUGIN_ROOT}` ``)
 * talks about the placeholder, not a path, and stays as written.
 */
export function substitutePlaceholders(text: string, bases: PlaceholderBases): string {
  let out = "";
  let from = 0;
  for (;;) {
    const found = nextPlaceholder(text, from, bases.skillUri !== undefined);
    if (found === undefined) return out + text.slice(from);
    const [at, placeholder] = found;
    const after = at + placeholder.length;
    out += text.slice(from, at);
    if (text[at - 1] === "`" && text[after] === "`") {
      out += placeholder;
      from = after;
    } else if (placeholder === PLUGIN_ROOT) {
      let end = after;
      while (end < text.length && !PATH_END.has(text[end] as string)) end++;
      out += pluginRootUri(text.slice(after, end), bases);
      from = end;
    } else {
      out += bases.skillUri as string;
      from = after;
    }
  }
}

/** The first placeholder at or after `from`, as [index, placeholder]. */
function nextPlaceholder(text: string, from: number, skillDir: boolean): [number, string] | undefined {
  let best: [number, string] | undefined;
  for (const placeholder of skillDir ? PLACEHOLDERS : [PLUGIN_ROOT]) {
    const at = text.indexOf(placeholder, from);
    if (at >= 0 && (best === undefined || at < best[0])) best = [at, placeholder];
  }
  return best;
}

export function hasPlaceholders(text: string): boolean {
  return PLACEHOLDERS.some((placeholder) => text.includes(placeholder));
}
