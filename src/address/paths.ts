// Path rules every layer shares: the one hidden-name rule, joining and splitting POSIX relative paths, skill roots
// and skill addresses. Pure: no disk.

/** Dot-names that are part of published layouts, so they are never hidden: tools publish skills and prompts
 *  under them. */
export const VISIBLE_DOT_NAMES: ReadonlySet<string> = new Set([".github", ".claude", ".agents"]);

/** Stripped from the front of a skill directory to give its folder, longest first. */
const SKILL_ROOTS: readonly string[] = [".github/skills/", ".claude/skills/", ".agents/skills/", "skills/"].sort(
  (a, b) => b.length - a.length,
);

/** The hidden-name rule, the one place it is written: a dot-name is private to its author (`.git`, `.env`) and is
 *  never harvested, served, hinted at or watched. `.git` => true, `.github` => false, `do..ts.md` => false. */
export function isHiddenSegment(segment: string): boolean {
  return segment.startsWith(".") && !VISIBLE_DOT_NAMES.has(segment);
}

/** True when any segment of a POSIX relative path is hidden: `a/.env` => true, `.github/x` => false. */
export function isHiddenPath(path: string): boolean {
  // Stryker disable next-line ConditionalExpression,StringLiteral: equivalent; a fast path, the split below decides alone.
  if (!path.startsWith(".") && !path.includes("/.")) return false;
  return path.split("/").some(isHiddenSegment);
}

/** The same rule over segments already split: `["refs", ".env"]` => true. */
export function hasHiddenSegment(segments: readonly string[]): boolean {
  return segments.some(isHiddenSegment);
}

/** `a/b/c` => `a/b`; `c` => `""`. */
export function parentOf(path: string): string {
  const slash = path.lastIndexOf("/");
  // Stryker disable next-line EqualityOperator: equivalent; at 0 both branches give "".
  return slash < 0 ? "" : path.slice(0, slash);
}

/** `a/b/c` => `c`. */
export function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/** `a` + `b` => `a/b`; `""` + `b` => `b`; `a` + `""` => `a`. */
export function joinPath(head: string, tail: string): string {
  return head === "" ? tail : tail === "" ? head : `${head}/${tail}`;
}

/** The address segments of a skill directory: `skills/grafana-lgtm/loki` => `["grafana-lgtm", "loki"]`,
 *  `docs/x` => `["docs", "x"]`, `skills/.curated/gh-fix-ci` => `[".curated", "gh-fix-ci"]`. The whole-plugin
 *  skill (`""`) has no directory segments: its address is `[name]`, which the caller supplies. */
export function skillAddress(dir: string): string[] {
  if (dir === "") return [];
  const root = SKILL_ROOTS.find((r) => dir.startsWith(r));
  return (root === undefined ? dir : dir.slice(root.length)).split("/");
}

/** Every proper ancestor of a path, nearest first: `a/b/c` => `a/b`, `a`. */
export function* ancestorsOf(path: string): Generator<string> {
  for (let slash = path.lastIndexOf("/"); slash > 0; slash = path.lastIndexOf("/", slash - 1)) {
    yield path.slice(0, slash);
  }
}
