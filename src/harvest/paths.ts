// Path rules shared by every harvest step: hidden segments, skill roots, skill addresses, code-unit order.
// Pure (no disk): the shelf may import `skillAddress` to address skipped skill directories the same way.

/** Dot-names that are part of published layouts, so they are never hidden (§3.2). */
export const VISIBLE_DOT_NAMES: ReadonlySet<string> = new Set([".github", ".claude", ".agents"]);

/** Stripped from the front of a skill directory to give its folder (§1), longest first. */
export const SKILL_ROOTS: readonly string[] = [".github/skills/", ".claude/skills/", ".agents/skills/", "skills/"].sort(
  (a, b) => b.length - a.length,
);

/** `.git` => true, `.github` => false, `do..ts.md` => false. */
export function isHiddenSegment(segment: string): boolean {
  return segment.startsWith(".") && !VISIBLE_DOT_NAMES.has(segment);
}

/** True when any segment of a POSIX relative path is hidden: `a/.env` => true, `.github/x` => false. */
export function isHiddenPath(path: string): boolean {
  if (!path.startsWith(".") && !path.includes("/.")) return false;
  return path.split("/").some(isHiddenSegment);
}

/** `a/b/c` => `a/b`; `c` => `""`. */
export function parentOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash < 0 ? "" : path.slice(0, slash);
}

/** `a/b/c` => `c`. */
export function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/** `a` + `b` => `a/b`; `""` + `b` => `b`. */
export function joinPath(dir: string, name: string): string {
  return dir === "" ? name : `${dir}/${name}`;
}

/** Code-unit order, the order every sorted list of the shelf uses (never locale order). */
export function comparePaths(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The address segments of a skill directory (§1): `skills/grafana-lgtm/loki` => `["grafana-lgtm", "loki"]`,
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
