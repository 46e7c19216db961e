// The health view for admins: the same report as GET /health, as a page. Every problem is one row (config errors,
// failed fetches, library errors and conflicts, plugin errors, skipped entries and skills, warnings, dangling
// citations), so a shelf with thousands of them still pages.
import type { ConfigError } from "../../config/index.js";
import type { HealthReport } from "../../health/index.js";
import { html, plural } from "../html.js";
import { renderPager } from "../layout.js";
import { type PageView, renderTable } from "./parts.js";

export interface HealthRow {
  /** What kind of problem: `skipped`, `warning`, `dangling`, `conflict`, `error`, `config`, `fetch`. */
  readonly kind: string;
  /** The plugin, library, fetch or config file it belongs to. */
  readonly where: string;
  /** The path or skill concerned, when there is one. */
  readonly what: string;
  readonly why: string;
}

export function healthRows(report: HealthReport, configErrors: readonly ConfigError[]): HealthRow[] {
  const rows: HealthRow[] = [];
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
  const fetches = Object.entries(report.fetches).map(
    ([key, fetch]) =>
      html`<tr>
        <th scope="row"><code>${key}</code></th>
        <td class="${fetch.status === "ok" ? "" : "bad"}">${fetch.status}</td>
        <td>${fetch.watch ?? ""}</td>
        <td>${fetch.built ?? ""}</td>
      </tr>`,
  );
  const problems = paged.rows.map(
    (row) =>
      html`<tr>
        <td>${row.kind}</td>
        <td>${row.where}</td>
        <td>${row.what === "" ? "" : html`<code>${row.what}</code>`}</td>
        <td>${row.why}</td>
      </tr>`,
  );
  const body = html`<h1>Health</h1>
    <p>
      Status <strong>${report.status}</strong> · generation ${report.generation} · built ${report.built} ·
      ${plural(report.skills, "skill")}, ${plural(report.prompts, "prompt")}.
    </p>
    <h2>Fetches and watches</h2>
    ${renderTable({ columns: ["Fetch", "Status", "Watch", "Built"], rows: fetches })}
    <h2>Problems</h2>
    ${
      total === 0
        ? html`<p>None.</p>`
        : html`${renderTable({ caption: `${total} ${total === 1 ? "problem" : "problems"}`, columns: ["Kind", "Where", "What", "Why"], rows: problems })}
          ${renderPager(paged, "/status")}`
    }`;
  return { title: "Health", crumbs: [{ label: "Libraries", href: "/" }, { label: "Health" }], body };
}
