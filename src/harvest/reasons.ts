// The exact wording of every skipped row harvest reports (§3.5): one sentence naming the rule.

const quote = (s: string): string => JSON.stringify(s);

export const MAX_DESCRIPTION_CHARS = 1024;
export const MAX_SKILL_FILES = 512;
export const MAX_SKILL_BYTES = 16 * 1024 * 1024;

const UNREADABLE = "The file could not be read";
const UNREADABLE_DIRECTORY = "The directory could not be read; nothing under it is served";

/** Whether a skip row says a read failed (a failure that may pass, unlike every other reason). */
export function isUnreadableReason(reason: string): boolean {
  return reason.startsWith(`${UNREADABLE} (`) || reason.startsWith(`${UNREADABLE_DIRECTORY} (`);
}

/** What breaks the name rule first, for a message: `character 3 ("_") is not a-z, 0-9 or '-'`. */
function nameFault(name: string): string {
  const chars = [...name];
  if (chars.length === 0) return "it is empty";
  const bad = chars.findIndex((c) => !/^[a-z0-9-]$/.test(c));
  if (bad >= 0) {
    const c = chars[bad] as string;
    const what = /^[A-Z]$/.test(c) ? "an upper-case letter" : c === " " ? "a space" : "not a-z, 0-9 or '-'";
    return `character ${bad + 1} (${quote(c)}) is ${what}`;
  }
  if (chars.length > 64) return `it is ${chars.length} characters long, over 64`;
  if (name.startsWith("-")) return "it starts with '-'";
  if (name.endsWith("-")) return "it ends with '-'";
  return `characters ${name.indexOf("--") + 1}-${name.indexOf("--") + 2} are '--'`;
}

/** The valid name closest to `name`: letters without accents, lower case, every other run of characters one
 *  hyphen, cut to 64 characters; `""` when nothing is left. `My_Skill v2` => `my-skill-v2`. */
export function nearestSkillName(name: string): string {
  const plain = name
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return plain.slice(0, 64).replace(/-+$/, "");
}

export const REASONS = {
  noFrontmatter: "SKILL.md has no frontmatter: it must start with a '---' line and close it with another '---' line.",
  notUtf8: "SKILL.md is not valid UTF-8, so its frontmatter cannot be parsed.",
  unparseable: (detail: string): string => `The frontmatter is not valid YAML: ${detail}.`,
  notMapping: "The frontmatter is not a YAML mapping.",
  noName: "The frontmatter has no name.",
  badName: (name: string): string => {
    const nearest = nearestSkillName(name);
    return (
      `The name ${quote(name)} breaks the naming rule (1-64 characters of a-z, 0-9 and '-', no hyphen first or last, no '--'): ${nameFault(name)}.` +
      (nearest === "" ? "" : ` The nearest valid name is ${quote(nearest)}.`)
    );
  },
  nameNotString: (kind: string, written: string | null): string =>
    written === null
      ? `The name must be one string, but YAML read ${kind}: write the skill's name, such as "name: my-skill".`
      : `The name ${written} is read by YAML as ${kind}, not a string: quote it (name: ${quote(written)}).`,
  unquotedColon: (line: number, column: number, example: string | null): string =>
    `The frontmatter is not valid YAML: the unquoted value at line ${line}, column ${column} of SKILL.md holds ": ", which YAML reads as the start of another key: quote the value${example === null ? "" : ` (${example})`}.`,
  nameMismatch: (name: string, dirName: string): string => `The name ${quote(name)} differs from its directory name ${quote(dirName)}.`,
  servedByName: (name: string, dirName: string): string =>
    `The name ${quote(name)} differs from its directory name ${quote(dirName)}: served (naming: lenient) at the address its name gives.`,
  servedByFolder: (name: string, dirName: string): string =>
    `The name ${quote(name)} breaks the naming rule: served (naming: lenient) under its directory's name ${quote(dirName)}, which the served frontmatter's name is set to.`,
  descriptionCut: (chars: number): string =>
    `The description is ${chars} characters long, over the limit of ${MAX_DESCRIPTION_CHARS}: served (naming: lenient) with the description cut at a word boundary, in the served frontmatter and in listing and index rows.`,
  unmatchedGlob: (plugin: string, key: string, glob: string): string =>
    `The ${key} glob ${quote(glob)} of plugin ${quote(plugin)} matches nothing under the plugin root: check the path, or remove it.`,
  hiddenSkill: (dir: string): string =>
    `The skill is in a hidden folder, which is never served unless a skills glob spells it out: add ${quote(dir)} to the plugin's skills (in a config file) to serve it.`,
  hostRefuses: (problem: string): string =>
    `MCP hosts refuse this skill's frontmatter (${problem}): fix it in SKILL.md, or serve the plugin with naming: lenient, which normalises it.`,
  noDescription: "The frontmatter has no description.",
  emptyDescription: "The description must be a non-empty string.",
  longDescription: (chars: number): string => `The description is ${chars} characters long, over the limit of ${MAX_DESCRIPTION_CHARS}.`,
  wrongCase: (found: string): string => `The skill file is named ${found}, but the name is case-sensitive: it must be SKILL.md.`,
  skillMdOverLimit: (size: number, limit: number): string => `SKILL.md is ${size} bytes, over limits.fileBytes (${limit}).`,
  tooManyFiles: (count: number): string =>
    `The skill has ${count} files, over the limit of ${MAX_SKILL_FILES} (nested skills' files count toward it).`,
  tooManyBytes: (bytes: number): string =>
    `The skill holds ${bytes} bytes, over the limit of 16 MiB (nested skills' files count toward it).`,
  duplicateAddress: (address: string, winner: string): string =>
    `Another skill has the address ${quote(address)}: ${quote(winner)} comes first in path order and is served.`,
  overFileBytes: (size: number, limit: number): string => `The file is ${size} bytes, over limits.fileBytes (${limit}).`,
  symlinkLeavesRoot: "A symlink that leaves the root is never followed.",
  manifestShadowed: "A file named _manifest at a skill's root is shadowed by the skill's generated _manifest.",
  indexShadowed: (name: string): string =>
    `A file named ${name} in a folder that holds a skill is shadowed by the folder's generated _index.md and its pages.`,
  libraryReservedName: (name: string): string =>
    `A library file named ${name} is shadowed by the library's generated ${name.startsWith("_index") ? "_index.md" : "_files.md"} and its pages.`,
  libraryInsideSkill: (address: string, dir: string): string =>
    dir === ""
      ? "The library file lies inside the whole-plugin skill."
      : `The library file's address lies inside the skill ${quote(address)} (directory ${quote(dir)}).`,
  unreadable: (code: string): string => `${UNREADABLE} (${code}).`,
  unreadableDirectory: (code: string): string => `${UNREADABLE_DIRECTORY} (${code}).`,
  promptNotUtf8: "The prompt file is not valid UTF-8.",
} as const;
