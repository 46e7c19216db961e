// `skillshelf check` in words: what would be served, then every problem, one line each.
import { formatCount } from "../resolve/index.js";
import { countProblems, countWarnings, type HealthReport } from "./health.js";
import { formatProblemCounts } from "./status.js";

/** `ok` only when nothing at all is wrong (`ok, 2 warnings` when lenient naming bent a rule); otherwise the status
 *  word and what decided it, counted: `warnings: 2 skipped`, `degraded: 1 fetch failed, 1 warning`. */
function verdict(report: HealthReport): string {
  const warnings = countWarnings(report);
  const warned = warnings === 0 ? "" : `, ${warnings} ${warnings === 1 ? "warning" : "warnings"}`;
  return report.status === "ok" ? `ok${warned}` : `${report.status}: ${formatProblemCounts(countProblems(report))}${warned}`;
}

/** One line saying why nothing would be served, and what to do about it. */
const NO_SKILL =
  "No skill would be served: no SKILL.md was found where the plugins look, or every one found was skipped (see the rows above). " +
  "Without a config, every SKILL.md under each directory is found at any depth (beside the plugins of a marketplace file the directory holds), " +
  "but in hidden folders; with one, check each plugin's skills globs.";

/** `skill://kit/tools/pdf/SKILL.md` => `/libraries/kit/tools/pdf`: the narrowest discovery base holding the skill. */
function ownBase(skillMd: string): string {
  return `/libraries/${skillMd.slice("skill://".length, -"/SKILL.md".length)}`;
}

export function formatCheckReport(report: HealthReport): string {
  const libraries = Object.keys(report.libraries).length;
  const lines: string[] = [
    `${formatCount(report.skills, "skill")} and ${formatCount(report.prompts, "prompt")} in ${libraries} ${libraries === 1 ? "library" : "libraries"} (${verdict(report)})`,
  ];
  for (const [name, library] of Object.entries(report.libraries)) {
    const counts = [
      formatCount(library.skills, "skill"),
      formatCount(library.prompts, "prompt"),
      formatCount(library.files, "library file"),
    ];
    lines.push(`  skill://${name}: ${counts.join(", ")} (plugins: ${library.plugins.join(", ") || "none"})`);
    if (library.error !== undefined) lines.push(`    error: ${library.error}`);
    for (const row of library.skipped ?? []) lines.push(`    skipped ${row.plugin}: ${row.reason}`);
    for (const [plugin, message] of Object.entries(library.conflicts ?? {})) lines.push(`    conflict ${plugin}: ${message}`);
  }
  for (const [id, plugin] of Object.entries(report.plugins)) {
    if (plugin.error !== undefined) lines.push(`plugin ${id} failed: ${plugin.error}`);
    for (const row of plugin.skipped ?? []) lines.push(`plugin ${id}: skipped ${row.path}: ${row.reason}`);
    for (const row of plugin.warnings ?? []) lines.push(`plugin ${id}: warning ${row.path}: ${row.reason}`);
    for (const row of plugin.dangling ?? []) lines.push(`plugin ${id}: ${row.skill} cites ${row.cites}, which is not found`);
  }
  for (const [key, fetch] of Object.entries(report.fetches)) {
    if (fetch.status !== "ok") lines.push(`fetch ${key} ${fetch.status}${fetch.error === undefined ? "" : `: ${fetch.error}`}`);
  }
  for (const row of report.discovery?.shadowed ?? []) {
    for (const hidden of row.hidden) {
      lines.push(
        `discovery: ${hidden} is left out of the root index, where ${row.kept} holds the name "${row.name}"; installers reach it at its own folder (${ownBase(hidden)})`,
      );
    }
  }
  for (const row of report.discovery?.unnamable ?? []) {
    lines.push(`discovery: ${row.skill} is in no index: installers accept names of a-z, 0-9 and single inner hyphens, not "${row.name}"`);
  }
  for (const row of report.guard?.quarantined ?? []) {
    lines.push(`quarantined ${row.skill ?? `prompt ${row.prompt}`} (plugin ${row.plugin}): ${row.why.join("; ")}`);
  }
  for (const row of report.guard?.findings ?? []) {
    if (row.action === "released") continue;
    const what = row.action === "quarantine" ? "quarantines" : "warning";
    lines.push(`guard ${row.severity} ${row.rule} ${what}: ${row.file}:${row.line}: ${row.reason}. Fix: ${row.fix}`);
  }
  for (const row of report.guard?.lookAlikes ?? [])
    lines.push(`guard ${row.severity} ${row.rule} warning: ${row.skill} and ${row.other}: ${row.reason}`);
  if (report.skills === 0) lines.push(NO_SKILL);
  return `${lines.join("\n")}\n`;
}
