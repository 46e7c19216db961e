// The usage section of the bench report (bench/usage.mjs's JSON, run by bench/suites/usage.mjs): what counting uses
// costs, its target, and the table `npm run bench` prints. The figures' ids are those of bench/lib/compare.mjs,
// so a run with --baseline puts the baseline's value beside each.
import { formatMs, formatNumber, formatTable } from "./lib/stats.mjs";

/** Counting on may cost this many % of the reads/s of resources/read over HTTP at 8 in flight, at most. */
export const HTTP_OVERHEAD_TARGET_PCT = 3;

const ENGINES = [
  ["pglite", "PGlite"],
  ["postgresql", "PostgreSQL"],
];
const pct = (x) => `${x < 0 ? "−" : ""}${formatNumber(Math.abs(x), 1)} %`;
const count = (x) => formatNumber(x, 0);

/** The target of the section, as evaluateTargets lists it: `{figure, target, measured, pass}`. */
export function usageTarget(u) {
  const h = u.http;
  return {
    figure: "counting uses: resources/read over HTTP, 8 in flight",
    target: `≤ ${HTTP_OVERHEAD_TARGET_PCT} % fewer reads/s`,
    measured: `${pct(h.overheadPct)} (median of ${h.rounds} paired rounds, from ${pct(h.roundOverheadsPct[0])} to ${pct(h.roundOverheadsPct.at(-1))})`,
    pass: h.overheadPct <= HTTP_OVERHEAD_TARGET_PCT,
  };
}

/**
 * The section's lines: a heading and one table of figure, value and target, with the baseline's columns from
 * `against` (report.mjs's `{header, cells(id)}`); an engine the run left out is a row saying why.
 */
export function formatUsage(u, against) {
  const rows = [["figure", "measured", "target", ...against.header]];
  const fig = (id, label, value, target = "—") => rows.push([label, value, target, ...against.cells(id)]);
  const h = u.http;
  const target = usageTarget(u);
  fig(
    "usage/http-overhead",
    `resources/read over HTTP, 8 in flight: fewer reads/s with counting on (median of ${h.rounds} paired rounds of ${formatNumber(h.seconds, 1)} s, from ${pct(h.roundOverheadsPct[0])} to ${pct(h.roundOverheadsPct.at(-1))}; ${count(h.offPerSec)}/s off, ${count(h.onPerSec)}/s on)`,
    pct(h.overheadPct),
    `${target.target}: ${target.pass ? "pass" : "**miss**"}`,
  );
  const r = u.reads;
  fig(
    "usage/count",
    `one count, in process (cached reads ${count(r.offPerSec)}/s off, ${count(r.onPerSec)}/s on, the store's flushes in the same thread)`,
    formatMs(r.countMicros / 1000),
  );
  for (const [key, name] of ENGINES) {
    const e = u[key];
    if (typeof e !== "object" || e === null) {
      rows.push([`store and flushes on ${name}`, String(e ?? "left out"), "—", ...against.cells(`usage/${key}`)]);
      continue;
    }
    const folder = e.folderMB === undefined ? "" : `; its folder ${formatNumber(e.folderMB, 0)} MB`;
    fig(
      `usage/${key}/size`,
      `store per million reads, ${name} (usage_reads with its indexes: ${count(e.rows)} rows for ${count(e.reads)} reads over ${e.days} days${folder})`,
      `${formatNumber(e.tableMBPerMillionReads, 0)} MB`,
    );
    fig(`usage/${key}/flush-1000-p50`, `flush of 1,000 rows, ${name}, p50`, formatMs(e.flush1000Rows.p50Ms));
    fig(`usage/${key}/flush-1000-p90`, `flush of 1,000 rows, ${name}, p90`, formatMs(e.flush1000Rows.p90Ms));
    fig(`usage/${key}/flush-day`, `flush of a day's rows (${count(e.dayFlush.rows)}), ${name}, p50`, formatMs(e.dayFlush.p50Ms));
  }
  return [
    `### Usage counting (${count(u.skills)} skills served; the store flushing every ${formatNumber(u.flushMs / 1000, 0)} s; load average ${formatNumber(u.loadavg[0], 2)} at the end)\n`,
    formatTable(rows),
  ];
}
