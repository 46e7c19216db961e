// What changed for the operator between two reports, one line each: a skill or prompt skipped or back, a conflict
// or its end, a dangling citation or its fix, a plugin or library failed or recovered, a skill or prompt quarantined
// by the guard (with why and what to do) or served again. Fetch and watch changes are
// logged where they happen (the fetcher and the watcher). Silence when nothing changed.
import type { GuardHealth, HealthReport } from "./health.js";
import type { LogLevel } from "../log/index.js";

export interface HealthChange {
  readonly level: LogLevel;
  readonly message: string;
  readonly fields: Readonly<Record<string, string>>;
}

type Rows = Map<string, { level: LogLevel; message: string; back: string; fields: Record<string, string> }>;

function rowsOf(report: HealthReport | undefined): Rows {
  const rows: Rows = new Map();
  if (report === undefined) return rows;
  for (const [id, plugin] of Object.entries(report.plugins)) {
    if (plugin.error !== undefined) {
      rows.set(`failed ${id}`, {
        level: "error",
        message: "plugin failed",
        back: "plugin recovered",
        fields: { plugin: id, error: plugin.error },
      });
    }
    for (const row of plugin.skipped ?? []) {
      rows.set(`skipped ${id} ${row.path}`, {
        level: "warn",
        message: "skipped",
        back: "no longer skipped",
        fields: { plugin: id, path: row.path, reason: row.reason },
      });
    }
    for (const row of plugin.dangling ?? []) {
      rows.set(`dangling ${id} ${row.skill} ${row.cites}`, {
        level: "warn",
        message: "dangling citation",
        back: "citation no longer dangling",
        fields: { plugin: id, skill: row.skill, cites: row.cites },
      });
    }
  }
  for (const [name, library] of Object.entries(report.libraries)) {
    if (library.error !== undefined) {
      rows.set(`library ${name}`, {
        level: "error",
        message: "library failed",
        back: "library recovered",
        fields: { library: name, error: library.error },
      });
    }
    for (const row of library.skipped ?? []) {
      rows.set(`library-skipped ${name} ${row.plugin}`, {
        level: "warn",
        message: "plugin skipped",
        back: "plugin no longer skipped",
        fields: { library: name, plugin: row.plugin, reason: row.reason },
      });
    }
    for (const [plugin, message] of Object.entries(library.conflicts ?? {})) {
      rows.set(`conflict ${name} ${plugin}`, {
        level: "warn",
        message: "conflict",
        back: "conflict resolved",
        fields: { library: name, plugin, reason: message },
      });
    }
  }
  for (const row of report.guard?.quarantined ?? []) {
    const what = row.skill === undefined ? { prompt: row.prompt as string } : { skill: row.skill };
    rows.set(`quarantined ${row.library} ${row.skill ?? `prompt ${row.prompt}`}`, {
      level: "warn",
      message: "quarantined",
      back: "no longer quarantined",
      fields: { library: row.library, plugin: row.plugin, ...what, reason: row.why.join("; "), fix: quarantineFix(report.guard, row) },
    });
  }
  return rows;
}

/** What the operator does about a quarantined skill or prompt: fix the files, or release each finding that decided
 *  it, by the entry that releases exactly these bytes. */
function quarantineFix(guard: GuardHealth | undefined, row: GuardHealth["quarantined"][number]): string {
  const dir = row.skill?.slice(0, -"SKILL.md".length);
  const entries = (guard?.findings ?? [])
    .filter((f) => f.action === "quarantine" && f.library === row.library)
    .filter((f) => (dir === undefined ? f.prompt === row.prompt : f.file.startsWith(dir)))
    .map((f) => `{rule: ${f.rule}, file: ${f.file}, digest: "${f.digest}"}`);
  return `fix the file, or release the finding under guard.allow (the top-level or library '${row.library}' guard): ${[...new Set(entries)].join(", ")}`;
}

/** The lines that take the operator from `previous` (undefined: nothing yet) to `next`. */
export function healthChanges(previous: HealthReport | undefined, next: HealthReport): HealthChange[] {
  const before = rowsOf(previous);
  const after = rowsOf(next);
  const changes: HealthChange[] = [];
  for (const [key, row] of after) {
    const was = before.get(key);
    // A row whose reason changed is a new state too.
    if (was === undefined || JSON.stringify(was.fields) !== JSON.stringify(row.fields)) {
      changes.push({ level: row.level, message: row.message, fields: row.fields });
    }
  }
  for (const [key, row] of before) {
    if (after.has(key)) continue;
    const { reason: _reason, error: _error, fix: _fix, ...fields } = row.fields;
    changes.push({ level: "info", message: row.back, fields });
  }
  return changes;
}
