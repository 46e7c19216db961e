/** Code-unit order (`SKILL.md` before `assets/…`), not locale order: stable across machines. */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
