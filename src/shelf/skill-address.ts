// Where a skill directory lands in the address space (§1): its path below the plugin root, minus the first
// skill root it starts with. The same rule serves harvest (served skills) and the shelf (skipped ones).

/** Longest first, so `.github/skills/` is stripped whole rather than matching nothing. */
export const SKILL_ROOTS: readonly string[] = [".github/skills/", ".claude/skills/", ".agents/skills/", "skills/"];

/** `skills/grafana-lgtm/loki` => `["grafana-lgtm", "loki"]`; `docs/x` => `["docs", "x"]`; `""` => `[]`. */
export function formatSkillAddress(dir: string): string[] {
  if (dir === "") return [];
  const root = SKILL_ROOTS.find((prefix) => dir.startsWith(prefix));
  const rest = root === undefined ? dir : dir.slice(root.length);
  return rest.split("/").filter((segment) => segment !== "");
}
