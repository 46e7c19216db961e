// `check --sarif FILE`: the guard's findings as SARIF 2.1.0 (built with node-sarif-builder; only its in-memory
// builders are used), each result located at the file a code-scanning tool maps to the repository: the path from
// the directory `check` ran in when the plugin is a local folder under it.
import { formatSkillMdUri, joinPath, VERSION } from "../address/index.js";
import type { Config } from "../config/index.js";
import type { Shelf, ShelfFinding } from "../shelf/index.js";
import { findLookAlikes } from "../guard/index.js";
import { FULL_SCOPE, visibleSkills } from "../resolve/index.js";

type Level = "error" | "warning" | "note";
const LEVELS: Record<string, Level> = { critical: "error", high: "error", medium: "warning", low: "note" };
/** GitHub code scanning ranks security results by this property (0–10). */
const SECURITY_SEVERITY: Record<string, string> = { critical: "9.5", high: "8.0", medium: "5.5", low: "2.0" };

/** Where each local plugin folder is on disk (by its fetch key), for paths relative to the directory of the run. */
export function localFolders(config: Config): Map<string, string> {
  const folders = new Map<string, string>();
  for (const plugin of config.plugins) if (plugin.address.kind === "local") folders.set(plugin.address.written, plugin.address.abs);
  return folders;
}

interface Located {
  readonly rule: string;
  readonly severity: string;
  readonly reason: string;
  readonly fix: string;
  readonly message: string;
  readonly uri: string;
  readonly line: number;
  readonly released: boolean;
}

/** The SARIF log of every guard finding on `shelf` (released ones carry an external suppression), as JSON text.
 *  `folders` from `localFolders`; `base` is the absolute directory paths are made relative to. */
export async function formatSarif(shelf: Shelf, folders: ReadonlyMap<string, string>, base: string): Promise<string> {
  const locate = (pluginId: string, path: string): string => {
    const plugin = shelf.plugins.get(pluginId);
    const inFetch = joinPath(plugin?.root ?? "", path);
    const folder = plugin === undefined ? undefined : folders.get(plugin.fetch);
    if (folder === undefined) return inFetch;
    const abs = `${folder.replace(/\/+$/, "")}/${inFetch}`;
    const prefix = `${base.replace(/\/+$/, "")}/`;
    return abs.startsWith(prefix) ? abs.slice(prefix.length) : `file://${encodeURI(abs)}`;
  };
  const located: Located[] = [];
  const seen = new Set<string>();
  for (const library of shelf.libraries.values()) {
    for (const f of library.findings ?? []) {
      // A plugin served by two libraries has its findings once per library: one result per file, rule and line.
      const key = `${f.plugin}\0${f.path}\0${f.rule}\0${f.line}`;
      if (seen.has(key)) continue;
      seen.add(key);
      located.push(fromFinding(f, locate(f.plugin, f.path)));
    }
  }
  const skills = visibleSkills(shelf, FULL_SCOPE);
  const byUri = new Map(skills.map((skill) => [formatSkillMdUri(skill.library, skill.address), skill]));
  const named = skills.map((skill) => ({
    uri: formatSkillMdUri(skill.library, skill.address),
    library: skill.library,
    name: skill.name,
    source: shelf.plugins.get(skill.plugin)?.fetch ?? skill.plugin,
  }));
  for (const row of findLookAlikes(named)) {
    const skill = byUri.get(row.skill);
    if (skill === undefined) continue;
    located.push({
      rule: row.rule,
      severity: "medium",
      reason: "a skill name that looks like another skill's",
      fix: "Rename the skill, or confirm both are meant to be served.",
      message: `${row.reason}: ${row.skill} and ${row.other}`,
      uri: locate(skill.plugin, joinPath(skill.dir, "SKILL.md")),
      line: 1,
      released: false,
    });
  }
  return build(located);
}

function fromFinding(f: ShelfFinding, uri: string): Located {
  return {
    rule: f.rule,
    severity: f.severity,
    reason: f.reason,
    fix: f.fix,
    message: `${f.reason} (${f.uri}). Fix: ${f.fix}`,
    uri,
    line: f.line,
    released: f.action === "released",
  };
}

async function build(located: readonly Located[]): Promise<string> {
  // Loaded only when SARIF is asked for (`check --sarif`): a server never loads it.
  const { SarifBuilder, SarifResultBuilder, SarifRuleBuilder, SarifRunBuilder } = await import("node-sarif-builder");
  const run = new SarifRunBuilder().initSimple({ toolDriverName: "skillshelf", toolDriverVersion: VERSION });
  const rules = new Map<string, Located>();
  for (const row of located) if (!rules.has(row.rule)) rules.set(row.rule, row);
  for (const [id, row] of [...rules].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    const rule = new SarifRuleBuilder().initSimple({ ruleId: id, shortDescriptionText: row.reason });
    rule.rule.help = { text: row.fix };
    rule.rule.properties = { tags: ["security"], "security-severity": SECURITY_SEVERITY[row.severity] as string };
    run.addRule(rule);
  }
  for (const row of located) {
    const result = new SarifResultBuilder().initSimple({
      ruleId: row.rule,
      level: LEVELS[row.severity] as Level,
      messageText: row.message,
      fileUri: row.uri,
      startLine: row.line,
    });
    if (row.released) result.result.suppressions = [{ kind: "external", justification: "released in the guard config" }];
    run.addResult(result);
  }
  const log = new SarifBuilder();
  log.addRun(run);
  return `${log.buildSarifJsonString({ indent: true })}\n`;
}
