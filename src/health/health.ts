// The operator's report (§10), computed from a shelf: pure, so `check --json` and `GET /health` agree.
import type { Shelf } from "../shelf/index.js";
import { auditCitations, danglingIn } from "./citations.js";
import { type HealthStatus, type ProblemCounts, statusOf } from "./status.js";
import { formatSkillMdUri } from "../address/index.js";
import { memoize } from "../memo/index.js";
import { flatNames } from "../discovery/index.js";
import { FULL_SCOPE, visibleSkills } from "../resolve/index.js";
import { findLookAlikes, type NamedSkill } from "../guard/index.js";

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
  status: HealthStatus;
  generation: number;
  built: string;
  skills: number;
  prompts: number;
  libraries: Record<string, LibraryHealth>;
  plugins: Record<string, PluginHealth>;
  fetches: Record<string, { status: "ok" | "stale" | "failed"; built?: string; watch?: string; cooling?: boolean; error?: string }>;
  /** The discovery index of the whole shelf (what an installer pointed at the server's root gets): names two
   *  different skills share, and names no installer accepts. Warnings: each such skill is still served. */
  discovery?: DiscoveryHealth;
  /** What the supply-chain checks found, and what the policy made of it; absent when they found nothing. */
  guard?: GuardHealth;
}

/** One finding as the operator reads it: the rule, the file's skill:// URI and line, why, and what to do. */
export interface GuardRow {
  rule: string;
  severity: string;
  file: string;
  line: number;
  reason: string;
  fix: string;
  /** `quarantine`: what it is in is not served; `warn`: served; `released`: allowed by the config. */
  action: string;
  /** The file's bytes the finding holds for (what a release by digest names). */
  digest: string;
  library: string;
  skill?: string;
  prompt?: string;
}

export interface GuardHealth {
  /** Each skill (SKILL.md URI) or prompt not served, and the findings that quarantined it (`rule at file:line`). */
  quarantined: { library: string; plugin: string; skill?: string; prompt?: string; why: string[] }[];
  findings: GuardRow[];
  /** Skill names that look like another's (confusable, one edit across libraries, or taken from another source):
   *  warnings naming both SKILL.md URIs. */
  lookAlikes?: { rule: string; severity: string; skill: string; other: string; reason: string }[];
}

function guardHealth(shelf: Shelf, derived: boolean): GuardHealth | undefined {
  const quarantined: GuardHealth["quarantined"] = [];
  const findings: GuardRow[] = [];
  for (const library of shelf.libraries.values()) {
    for (const f of library.findings ?? []) {
      findings.push({
        rule: f.rule,
        severity: f.severity,
        file: f.uri,
        line: f.line,
        reason: f.reason,
        fix: f.fix,
        action: f.action,
        digest: f.digest,
        library: library.name,
        ...(f.skill === undefined ? {} : { skill: f.skill }),
        ...(f.prompt === undefined ? {} : { prompt: f.prompt }),
      });
    }
    for (const row of library.quarantined ?? []) {
      const dir = row.skill === undefined ? undefined : row.skill.slice(0, -"SKILL.md".length);
      const why = (library.findings ?? [])
        .filter((f) => f.action === "quarantine" && f.plugin === row.plugin)
        .filter((f) => (dir === undefined ? f.prompt === row.prompt : f.uri.startsWith(dir)))
        .map((f) => `${f.rule} (${f.severity}) at ${f.uri}:${f.line}`);
      quarantined.push({ library: library.name, ...row, why });
    }
  }
  const lookAlikes = derived ? lookAlikesOf(shelf) : [];
  if (findings.length === 0 && lookAlikes.length === 0) return undefined;
  return { quarantined, findings, ...(lookAlikes.length === 0 ? {} : { lookAlikes }) };
}

/** The look-alike names of a shelf, found once per shelf. */
const lookAlikesOf = memoize((shelf: Shelf) => findLookAlikes(namedSkills(shelf)).map((row) => ({ ...row, severity: "medium" })));

function namedSkills(shelf: Shelf): NamedSkill[] {
  return visibleSkills(shelf, FULL_SCOPE).map((skill) => ({
    uri: formatSkillMdUri(skill.library, skill.address),
    library: skill.library,
    name: skill.name,
    source: shelf.plugins.get(skill.plugin)?.fetch ?? skill.plugin,
  }));
}

interface DiscoveryHealth {
  /** The name, the skill that keeps it at the root, and the others: each is listed at its own folder's base. */
  shadowed?: { name: string; kept: string; hidden: string[] }[];
  unnamable?: { skill: string; name: string }[];
}

/** The discovery index's name checks of a shelf, once per shelf. */
const discoveryHealth = memoize((shelf: Shelf): DiscoveryHealth | undefined => {
  const names = flatNames(visibleSkills(shelf, FULL_SCOPE));
  if (names.shadowed.length === 0 && names.unnamable.length === 0) return undefined;
  return {
    ...(names.shadowed.length === 0 ? {} : { shadowed: names.shadowed.map((row) => ({ ...row, hidden: [...row.hidden] })) }),
    ...(names.unnamable.length === 0
      ? {}
      : { unnamable: names.unnamable.map((skill) => ({ skill: formatSkillMdUri(skill.library, skill.address), name: skill.name })) }),
  };
});

/** The report of a shelf, built once per shelf however many readers ask (/health, /metrics, the log, the
 *  fingerprint): a shelf never changes. */
export const buildHealth: (shelf: Shelf) => HealthReport = memoize((shelf) => buildReport(shelf, true));

/** The report without the parts derived from what a shelf's fingerprint hashes anyway — the citation audit (from
 *  each SKILL.md's bytes and the files served), the discovery index's name checks and the look-alike names (from
 *  the skills' names, addresses and sources) — which at 100,000 skills take seconds: what the fingerprint of a
 *  rebuild, computed before its swap, hashes. */
export const healthBasis: (shelf: Shelf) => HealthReport = memoize((shelf) => buildReport(shelf, false));

/** `buildHealth(shelf)`, its slow parts computed one at a time — the citation audit a library at a time, then the
 *  discovery index's name checks, then the look-alike names — each after an `await pause()`, so that a report
 *  at 100,000 skills (seconds of work) never holds the caller's event loop for more than one part. Whatever a
 *  reader of `buildHealth` asks for meanwhile is computed once, by whichever comes first. */
export async function buildHealthInSteps(shelf: Shelf, pause: () => Promise<void>): Promise<HealthReport> {
  for (const library of shelf.libraries.values()) {
    await pause();
    danglingIn(shelf, library);
  }
  await pause();
  discoveryHealth(shelf);
  await pause();
  lookAlikesOf(shelf);
  await pause();
  return buildHealth(shelf);
}

function buildReport(shelf: Shelf, derived: boolean): HealthReport {
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
    const dangling = derived ? (auditCitations(shelf).get(plugin.id) ?? []) : [];
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
  const discovery = derived ? discoveryHealth(shelf) : undefined;
  const guard = guardHealth(shelf, derived);
  return {
    status: statusOf(countProblems({ skills, libraries, plugins, fetches, ...(guard === undefined ? {} : { guard }) })),
    generation: shelf.generation,
    built: shelf.built,
    skills,
    prompts,
    libraries,
    plugins,
    fetches,
    ...(discovery === undefined ? {} : { discovery }),
    ...(guard === undefined ? {} : { guard }),
  };
}

/** What a report found, counted (docs/operations.md defines the status words these decide). */
export function countProblems(report: Pick<HealthReport, "skills" | "libraries" | "plugins" | "fetches" | "guard">): ProblemCounts {
  const libraries = Object.values(report.libraries);
  const plugins = Object.values(report.plugins);
  const fetches = Object.values(report.fetches);
  const sum = (counts: number[]): number => counts.reduce((a, b) => a + b, 0);
  return {
    skipped: sum(plugins.map((p) => p.skipped?.length ?? 0)) + sum(libraries.map((l) => l.skipped?.length ?? 0)),
    conflicts: sum(libraries.map((l) => Object.keys(l.conflicts ?? {}).length)),
    dangling: sum(plugins.map((p) => p.dangling?.length ?? 0)),
    failedPlugins: plugins.filter((p) => p.status === "failed").length,
    plugins: plugins.length,
    failedLibraries: libraries.filter((l) => l.error !== undefined).length,
    staleFetches: fetches.filter((f) => f.status === "stale").length,
    failedFetches: fetches.filter((f) => f.status === "failed").length,
    unwatched: fetches.filter((f) => f.watch === "degraded").length,
    cooling: fetches.filter((f) => f.cooling === true).length,
    quarantined: report.guard?.quarantined.length ?? 0,
    served: report.skills,
  };
}

/** Whether `check` should exit 1: any status but ok. */
export function hasProblems(report: HealthReport): boolean {
  return report.status !== "ok";
}

function sum<T>(items: readonly T[], count: (item: T) => number | undefined): number {
  return items.reduce((total, item) => total + (count(item) ?? 0), 0);
}

/** How many warning rows (served, with a naming rule bent): shown by `check`, never a reason to exit 1. */
export function countWarnings(report: HealthReport): number {
  const discovery = (report.discovery?.shadowed?.length ?? 0) + (report.discovery?.unnamable?.length ?? 0);
  const guard = (report.guard?.findings.filter((row) => row.action === "warn").length ?? 0) + (report.guard?.lookAlikes?.length ?? 0);
  return sum(Object.values(report.plugins), (p) => p.warnings?.length) + discovery + guard;
}
