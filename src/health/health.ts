// The operator's report (§10), computed from a shelf: pure, so `check --json` and `GET /health` agree.
import type { Shelf } from "../shelf/index.js";
import { auditCitations } from "./citations.js";

interface LibraryHealth {
  description: string;
  plugins: string[];
  skills: number;
  prompts: number;
  files: number;
  error?: string;
  skipped?: { plugin: string; reason: string }[];
  conflicts?: Record<string, string>;
}

interface PluginHealth {
  status: "ok" | "failed";
  fetch: string;
  root: string;
  category?: string;
  tags: string[];
  keywords: string[];
  version?: string;
  libraries: string[];
  skills: number;
  prompts: number;
  files: number;
  skipped?: { path: string; reason: string }[];
  /** Served although it bends a rule (naming: lenient). */
  warnings?: { path: string; reason: string }[];
  dangling?: { skill: string; cites: string }[];
  error?: string;
}

export interface HealthReport {
  status: "ok" | "degraded";
  generation: number;
  built: string;
  skills: number;
  prompts: number;
  libraries: Record<string, LibraryHealth>;
  plugins: Record<string, PluginHealth>;
  fetches: Record<string, { status: "ok" | "stale" | "failed"; built?: string; watch?: string; error?: string }>;
}

export function buildHealth(shelf: Shelf): HealthReport {
  const libraries: Record<string, LibraryHealth> = {};
  const memberOf = new Map<string, string[]>();
  let skills = 0;
  let prompts = 0;
  for (const library of shelf.libraries.values()) {
    skills += library.skills.size;
    prompts += library.prompts.size;
    for (const id of library.plugins) memberOf.set(id, [...(memberOf.get(id) ?? []), library.name]);
    libraries[library.name] = {
      description: library.description,
      plugins: [...library.plugins],
      skills: library.skills.size,
      prompts: library.prompts.size,
      files: library.files.size,
      ...(library.error === undefined ? {} : { error: library.error }),
      ...(library.skipped.length === 0 ? {} : { skipped: library.skipped.map((row) => ({ ...row })) }),
      ...(library.conflicts.length === 0 ? {} : { conflicts: Object.fromEntries(library.conflicts.map((c) => [c.plugin, c.message])) }),
    };
  }
  const plugins: Record<string, PluginHealth> = {};
  for (const plugin of shelf.plugins.values()) {
    const dangling = auditCitations(shelf).get(plugin.id) ?? [];
    plugins[plugin.id] = {
      status: plugin.status,
      fetch: plugin.fetch,
      root: plugin.root,
      ...(plugin.meta.category === undefined ? {} : { category: plugin.meta.category }),
      tags: [...plugin.meta.tags],
      keywords: [...plugin.meta.keywords],
      ...(plugin.meta.version === undefined ? {} : { version: plugin.meta.version }),
      libraries: memberOf.get(plugin.id) ?? [],
      skills: plugin.skills.length,
      prompts: plugin.parsedPrompts?.length ?? 0,
      files: plugin.libraryFiles.length,
      ...(plugin.skipped.length === 0 ? {} : { skipped: plugin.skipped.map((row) => ({ ...row })) }),
      ...(plugin.warnings === undefined ? {} : { warnings: plugin.warnings.map((row) => ({ ...row })) }),
      ...(dangling.length === 0 ? {} : { dangling: dangling.map((row) => ({ ...row })) }),
      ...(plugin.error === undefined ? {} : { error: plugin.error }),
    };
  }
  const fetches: HealthReport["fetches"] = {};
  for (const [key, report] of shelf.fetches) fetches[key] = { ...report };
  const degraded =
    Object.values(fetches).some((f) => f.status !== "ok" || f.watch === "degraded") ||
    Object.values(plugins).some((p) => p.status === "failed");
  return {
    status: degraded ? "degraded" : "ok",
    generation: shelf.generation,
    built: shelf.built,
    skills,
    prompts,
    libraries,
    plugins,
    fetches,
  };
}

/** What `check` found wrong, counted by kind, in a fixed order: `[["skipped", 2], ["dangling", 1]]`. Kinds with no
 *  row are left out; a shelf that would serve no skill is a problem of its own. */
export function countProblems(report: HealthReport): [string, number][] {
  const libraries = Object.values(report.libraries);
  const plugins = Object.values(report.plugins);
  const counts: [string, number][] = [
    ["failed", plugins.filter((p) => p.status === "failed").length + libraries.filter((l) => l.error !== undefined).length],
    ["fetch problems", Object.values(report.fetches).filter((f) => f.status !== "ok" || f.watch === "degraded").length],
    ["skipped", sum(libraries, (l) => l.skipped?.length) + sum(plugins, (p) => p.skipped?.length)],
    ["conflicts", sum(libraries, (l) => Object.keys(l.conflicts ?? {}).length)],
    ["dangling", sum(plugins, (p) => p.dangling?.length)],
    ["no skill served", report.skills === 0 ? 1 : 0],
  ];
  return counts.filter(([, n]) => n > 0);
}

function sum<T>(items: readonly T[], count: (item: T) => number | undefined): number {
  return items.reduce((total, item) => total + (count(item) ?? 0), 0);
}

/** How many warning rows (served, with a rule bent): counted in `check`'s verdict, never a reason to exit 1. */
export function countWarnings(report: HealthReport): number {
  return sum(Object.values(report.plugins), (p) => p.warnings?.length);
}

/** Whether `check` should exit 1: anything skipped, dangling, conflicting or failed, or no skill served. */
export function hasProblems(report: HealthReport): boolean {
  return report.status !== "ok" || countProblems(report).length > 0;
}
