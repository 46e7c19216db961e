// Plugin globs (§3.1, §3.2), compiled once per plugin with micromatch and matched against relative paths.
import micromatch from "micromatch";

import { isHiddenSegment, VISIBLE_DOT_NAMES } from "../address/index.js";

export const SKILL_CONVENTION: readonly string[] = [
  "skills/**/SKILL.md",
  ".github/skills/*/SKILL.md",
  ".claude/skills/*/SKILL.md",
  ".agents/skills/*/SKILL.md",
];
export const PROMPT_CONVENTION: readonly string[] = ["prompts/**/*.md", ".github/prompts/*.prompt.md", "commands/*.md"];
/** A marketplace plugin's prompts when neither its entry nor its manifest declares any: its commands alone. Its
 *  other folders (`prompts/`, templates) are the plugin's own files, which its skills read. */
export const COMMAND_CONVENTION: readonly string[] = ["commands/*.md"];

/** A compiled set of globs: `match` takes a POSIX path relative to the plugin root. */
export interface GlobSet {
  readonly match: (path: string) => boolean;
  /** True when no positive glob was given: nothing can match. */
  readonly empty: boolean;
}

/** What a glob also means beyond its own text, e.g. "a directory names every SKILL.md beneath it". */
export type GlobExpansion = (glob: string) => readonly string[];

// `.github`, `.claude` and `.agents` are not hidden, but micromatch's `dot: false` treats every dot-name as
// hidden. Renaming those three segments (in paths and in patterns alike) to a form without the leading dot lets
// micromatch keep its exact rule for everything else: wildcards never match a hidden name, a spelled-out one
// opts in. U+0001 cannot come from a config glob that names a real segment. `.github/x` => `\u0001github/x`.
const VISIBLE_MARK = "\u0001";

function markVisibleDotNames(path: string): string {
  if (!path.startsWith(".") && !path.includes("/.")) return path;
  return path
    .split("/")
    .map((s) => (VISIBLE_DOT_NAMES.has(s) ? VISIBLE_MARK + s.slice(1) : s))
    .join("/");
}

/** `./a/` => `a`; `dir/**` => `dir/**\/*` (§3.1); `**` => `**\/*`. */
export function normalizeGlob(glob: string): string {
  let g = glob.trim();
  while (g.startsWith("./")) g = g.slice(2);
  while (g.length > 1 && g.endsWith("/")) g = g.slice(0, -1);
  if (g === "**") return "**/*";
  if (g.endsWith("/**")) return `${g}/*`;
  return g;
}

/** A glob with no wildcard, brace or class is a literal path: `commands` => true, `skills/*` => false. */
export function isLiteralGlob(glob: string): boolean {
  return !micromatch.scan(glob).isGlob;
}

/** `{a,.github}/x` => `a/x`, `.github/x`; a brace the expander refuses (a huge range) stays for micromatch. */
function expandBraces(glob: string): readonly string[] {
  if (!glob.includes("{")) return [glob];
  try {
    return micromatch.braces(glob, { expand: true });
  } catch {
    return [glob];
  }
}

interface SplitGlobs {
  readonly positive: readonly string[];
  readonly negative: readonly string[];
}

/** Normalise, expand braces (so a `{.github,x}` alternative is marked like a plain segment), split off `!` globs. */
function splitGlobs(globs: readonly string[], expand?: GlobExpansion): SplitGlobs {
  const positive: string[] = [];
  const negative: string[] = [];
  for (const raw of globs) {
    const negated = raw.trim().startsWith("!");
    const glob = normalizeGlob(negated ? raw.trim().slice(1) : raw);
    if (glob === "") continue;
    const forms = negated || expand === undefined ? [glob] : [glob, ...expand(glob)];
    for (const form of forms) {
      for (const one of expandBraces(form)) (negated ? negative : positive).push(one);
    }
  }
  return { positive, negative };
}

function compileAll(patterns: readonly string[]): ((path: string) => boolean)[] {
  return [...new Set(patterns)].map((p) => micromatch.matcher(markVisibleDotNames(p), { dot: false }));
}

/** Compile once; `!glob` excludes. Wildcards never match a hidden segment; a spelled-out one opts in (§3.2). */
export function compileGlobs(globs: readonly string[], expand?: GlobExpansion): GlobSet {
  const { positive, negative } = splitGlobs(globs, expand);
  const yes = compileAll(positive);
  const no = compileAll(negative);
  return {
    empty: yes.length === 0,
    match(path: string): boolean {
      const p = markVisibleDotNames(path);
      return yes.some((m) => m(p)) && !no.some((m) => m(p));
    },
  };
}

/** The directories and files a walk must enter although they are hidden, because some glob spells the hidden
 *  segment out: `skills/.curated/*` => `skills/.curated`; `**\/.cache/x` => `**\/.cache`. */
export function compileHiddenOptIns(globs: readonly string[]): GlobSet {
  const prefixes: string[] = [];
  for (const glob of splitGlobs(globs).positive) {
    const segments = glob.split("/");
    segments.forEach((segment, i) => {
      if (isHiddenSegment(segment)) prefixes.push(segments.slice(0, i + 1).join("/"));
    });
  }
  return compileGlobs(prefixes);
}
