// Zero-config beside a marketplace: the discovery plugin serves every SKILL.md under the directory that no entry of
// the marketplace claims. Pure over the harvests.
import { ancestorsOf, joinPath } from "../address/index.js";
import type { HarvestedPlugin } from "../harvest/index.js";

/** The last answer per discovery harvest, so an unchanged harvest and claim give the very same plugin (a library
 *  whose plugins are the same objects is reused by the next build). */
const LAST = new WeakMap<HarvestedPlugin, { readonly key: string; readonly plugin: HarvestedPlugin }>();

/**
 * `rest` without what an entry on the same fetch claims: every skill folder an entry found (served or skipped) and
 * everything inside one, and the rows an entry already gives. Those SKILL.md files are the entry's to serve or to
 * name; every other one stays in `rest` and is served by it.
 */
export function withoutClaimed(rest: HarvestedPlugin, entries: readonly HarvestedPlugin[]): HarvestedPlugin {
  if (rest.status !== "ok") return rest;
  const claimed = new Set<string>();
  const rows = new Set<string>();
  for (const entry of entries) {
    if (entry.fetch !== rest.fetch) continue;
    for (const dir of entry.skillDirs) claimed.add(joinPath(entry.root, dir));
    for (const row of [...entry.skipped, ...(entry.warnings ?? [])]) rows.add(joinPath(entry.root, row.path));
  }
  const key = [...claimed].sort().join("\n") + "\0" + [...rows].sort().join("\n");
  const last = LAST.get(rest);
  if (last?.key === key) return last.plugin;
  const full = (path: string): string => joinPath(rest.root, path);
  // A whole-plugin skill at the fetch root (folder "") holds every path.
  const isClaimed = (path: string): boolean =>
    claimed.has("") || claimed.has(full(path)) || [...ancestorsOf(full(path))].some((a) => claimed.has(a));
  const keepRow = (row: { readonly path: string }): boolean => !rows.has(full(row.path)) && !isClaimed(row.path);
  const { warnings: before, ...base } = rest;
  const warnings = (before ?? []).filter(keepRow);
  const plugin: HarvestedPlugin = {
    ...base,
    skills: rest.skills.filter((skill) => !isClaimed(skill.dir)),
    skillDirs: rest.skillDirs.filter((dir) => !isClaimed(dir)),
    skipped: rest.skipped.filter(keepRow),
    ...(warnings.length === 0 ? {} : { warnings }),
  };
  LAST.set(rest, { key, plugin });
  return plugin;
}
