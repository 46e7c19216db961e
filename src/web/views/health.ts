// The health view for admins: the same report as GET /health, as a page. Every problem is one row (the supply-chain
// checks' quarantines and findings, config errors, failed fetches, library errors and conflicts, plugin errors,
// skipped entries and skills, warnings, dangling citations), so a shelf with thousands of them still pages. The
// guard's rows come first, quarantined skills and prompts before them all, and are shown in a table of their own.
import type { ConfigError } from "../../config/index.js";
import type { HealthReport } from "../../health/index.js";
import { html, type Html, plural } from "../html.js";
import { renderPager } from "../layout.js";
import { type PageView, renderTable } from "./parts.js";

export interface HealthRow {
  /** What kind of problem: `skipped`, `warning`, `dangling`, `conflict`, `error`, `config`, `fetch`; for the guard,
   *  what its policy did: `quarantined` (a skill or prompt not served), then each finding's `quarantine`, `warn`
   *  or `released`, and `look-alike`. */
  readonly kind: string;
  /** The guard's rows, shown in their own table. */
  readonly guard?: true;
  /** The plugin, library, fetch or config file it belongs to. */
  readonly where: string;
  /** The path or skill concerned, when there is one. */
  readonly what: string;
  readonly why: string;
}

const ACTION_ORDER = ["quarantine", "warn", "released"];

/** The guard's rows: each quarantined skill or prompt with the findings that decided it and what to do, then every
 *  finding (those that quarantine first, then warnings, then releases), then look-alike names. */
function guardRows(report: HealthReport): HealthRow[] {
  const guard = report.guard;
  if (guard === undefined) return [];
  const rows: HealthRow[] = guard.quarantined.map((row) => ({
    kind: "quarantined",
    guard: true,
    where: `library ${row.library}`,
    what: row.skill ?? `prompt ${row.prompt}`,
    why: `${row.why.join("; ")}. Not served until the file is fixed, or each finding is released under guard.allow (rule, file and digest, as listed below).`,
  }));
  const findings = [...guard.findings].sort((a, b) => ACTION_ORDER.indexOf(a.action) - ACTION_ORDER.indexOf(b.action));
  for (const f of findings)
    rows.push({
      kind: f.action,
      guard: true,
      where: `library ${f.library}`,
      what: `${f.file}:${f.line}`,
      why: `${f.rule} (${f.severity}): ${f.reason}. Fix: ${f.fix} Digest: ${f.digest}`,
    });
  for (const l of guard.lookAlikes ?? [])
    rows.push({ kind: "look-alike", guard: true, where: l.other, what: l.skill, why: `${l.rule} (${l.severity}): ${l.reason}` });
  return rows;
}

export function healthRows(report: HealthReport, configErrors: readonly ConfigError[]): HealthRow[] {
  const rows: HealthRow[] = guardRows(report);
  for (const error of configErrors)
    rows.push({
      kind: "config",
      where: error.file,
      what: `${error.path}${error.line === undefined ? "" : ` (line ${error.line})`}`,
      why: error.rule,
    });
  for (const [key, fetch] of Object.entries(report.fetches)) {
    if (fetch.status !== "ok") rows.push({ kind: "fetch", where: key, what: fetch.status, why: fetch.error ?? "" });
  }
  for (const [name, library] of Object.entries(report.libraries)) {
    if (library.error !== undefined) rows.push({ kind: "error", where: `library ${name}`, what: "", why: library.error });
    for (const [plugin, message] of Object.entries(library.conflicts ?? {}))
      rows.push({ kind: "conflict", where: `library ${name}`, what: plugin, why: message });
    for (const entry of library.skipped ?? [])
      rows.push({ kind: "skipped", where: `library ${name}`, what: entry.plugin, why: entry.reason });
  }
  for (const [id, plugin] of Object.entries(report.plugins)) {
    if (plugin.error !== undefined) rows.push({ kind: "error", where: id, what: "", why: plugin.error });
    for (const entry of plugin.skipped ?? []) rows.push({ kind: "skipped", where: id, what: entry.path, why: entry.reason });
    for (const entry of plugin.warnings ?? []) rows.push({ kind: "warning", where: id, what: entry.path, why: entry.reason });
    for (const entry of plugin.dangling ?? [])
      rows.push({ kind: "dangling", where: id, what: entry.skill, why: `cites ${entry.cites}, which is not served` });
  }
  return rows;
}

export function healthView(
  report: HealthReport,
  paged: { rows: readonly HealthRow[]; page: number; pages: number },
  total: number,
): PageView {
  const guardTotal = guardRows(report).length;
  const fetches = Object.entries(report.fetches).map(
    ([key, fetch]) =>
      html`<tr>
        <th scope="row"><code>${key}</code></th>
        <td class="${fetch.status === "ok" ? "" : "bad"}">${fetch.status}</td>
        <td>${fetch.watch ?? ""}</td>
        <td>${fetch.built ?? ""}</td>
      </tr>`,
  );
  const row = (row: HealthRow): Html =>
    html`<tr>
      <td>${row.kind}</td>
      <td>${row.where}</td>
      <td>${row.what === "" ? "" : html`<code>${row.what}</code>`}</td>
      <td>${row.why}</td>
    </tr>`;
  const guard = paged.rows.filter((r) => r.guard === true).map(row);
  const problems = paged.rows.filter((r) => r.guard !== true).map(row);
  const body = html`<h1>Health</h1>
    <p>
      Status <strong>${report.status}</strong> · generation ${report.generation} · built ${report.built} ·
      ${plural(report.skills, "skill")}, ${plural(report.prompts, "prompt")}.
    </p>
    <h2>Fetches and watches</h2>
    ${renderTable({ columns: ["Fetch", "Status", "Watch", "Built"], rows: fetches })}
    <h2>Supply-chain checks</h2>
    ${
      guardTotal === 0
        ? html`<p>No findings.</p>`
        : guard.length === 0
          ? html`<p>${plural(guardTotal, "row")}, on earlier pages.</p>`
          : renderTable({ caption: plural(guardTotal, "row"), columns: ["Action", "Where", "What", "Why"], rows: guard })
    }
    <h2>Problems</h2>
    ${
      total === guardTotal
        ? html`<p>None.</p>`
        : problems.length === 0
          ? html`<p>${plural(total - guardTotal, "problem")}, on later pages.</p>`
          : renderTable({ caption: plural(total - guardTotal, "problem"), columns: ["Kind", "Where", "What", "Why"], rows: problems })
    }
    ${renderPager(paged, "/status")}`;
  return { title: "Health", crumbs: [{ label: "Libraries", href: "/" }, { label: "Health" }], body };
}
