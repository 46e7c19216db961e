// A run against a baseline build (`npm run bench -- --baseline=REF`): the order the two builds run in, every
// section's figures as comparable numbers, and each figure as a ratio to the baseline with a flag when it is worse.
import { formatBytes, formatMs, formatNumber, median } from "./stats.mjs";

/** The middle value, or the mean of the two middle ones (two rounds give their mean, not the lower). */
export function middle(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const half = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[half] : (sorted[half - 1] + sorted[half]) / 2;
}

/** A figure this much worse than the baseline's (in %) is flagged. */
export const WORSE_PCT = 15;

/** A share (a figure in %, such as what counting uses costs) this many percentage points worse is flagged: a ratio
 *  of two small shares, or of shares either side of zero, says nothing. */
export const WORSE_POINTS = 3;

/**
 * The order of the runs of one section: `rounds` times each build in turn, `["this", "baseline"]` and 2 rounds
 * giving this, baseline, this, baseline, so a load on the shared machine falls on both builds alike.
 */
export function alternation(builds, rounds) {
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`rounds must be a whole number ≥ 1, not ${rounds}`);
  if (builds.length === 0) throw new Error("no build to run");
  const order = [];
  for (let round = 0; round < rounds; round++) for (const build of builds) order.push({ build, round });
  return order;
}

/**
 * `ours` against `base` for a figure where `better` is "lower" (times, sizes, memory) or "higher" (throughput):
 * `{ratio: ours ÷ base, changePct: signed change of the figure, worsePct, flagged}`; null when either is missing
 * or the baseline is 0 (no ratio to take).
 */
export function compareFigure(ours, base, better) {
  if (better !== "lower" && better !== "higher") throw new Error(`better must be "lower" or "higher", not ${better}`);
  if (!Number.isFinite(ours) || !Number.isFinite(base) || base === 0) return null;
  const ratio = ours / base;
  const changePct = (ratio - 1) * 100;
  const worsePct = better === "lower" ? changePct : -changePct;
  return { ratio, changePct, worsePct, flagged: worsePct > WORSE_PCT };
}

/**
 * A share (`unit: "%"`) against the baseline's: `{points: ours − base, worsePoints, flagged}`, in percentage
 * points; null when either is missing.
 */
export function compareShare(ours, base, better) {
  if (better !== "lower" && better !== "higher") throw new Error(`better must be "lower" or "higher", not ${better}`);
  if (!Number.isFinite(ours) || !Number.isFinite(base)) return null;
  const points = ours - base;
  const worsePoints = better === "lower" ? points : -points;
  return { points, worsePoints, flagged: worsePoints > WORSE_POINTS };
}

/** `1.23× ⚠ +23 %` when flagged, `0.97×` otherwise, `—` without a comparison; a share's as `+1.2 points`
 *  (`+4.0 points ⚠` when flagged). */
export function formatAgainst(comparison) {
  if (comparison === null || comparison === undefined) return "—";
  if ("points" in comparison) {
    const points = `${comparison.points < 0 ? "−" : "+"}${formatNumber(Math.abs(comparison.points), 1)} points`;
    return comparison.flagged ? `${points} ⚠` : points;
  }
  const ratio = `${formatNumber(comparison.ratio, 2)}×`;
  if (!comparison.flagged) return ratio;
  const pct = Math.round(comparison.changePct);
  return `${ratio} ⚠ ${pct >= 0 ? "+" : "−"}${Math.abs(pct)} %`;
}

/** How a figure's value is written: ms, bytes, MB, a rate per second or a share in %. */
export function formatValue(value, unit) {
  if (value === null || value === undefined || Number.isNaN(value)) return "—";
  if (unit === "%") return `${value < 0 ? "−" : ""}${formatNumber(Math.abs(value), 1)} %`;
  if (unit === "ms") return formatMs(value);
  if (unit === "bytes") return formatBytes(value);
  if (unit === "MB") return `${formatNumber(value, 0)} MB`;
  if (unit === "rate") return `${formatNumber(value, 0)}/s`;
  throw new Error(`unknown unit ${unit}`);
}

const size = (n) => (n >= 1000 && n % 1000 === 0 ? `${n / 1000}k` : String(n));
const transportOf = (l) => (l.transport === "http" ? `HTTP ${l.era === "modern" ? "2026" : "2025"}` : "stdio");

/** The id of a load row (the figures table and the load tables look their baseline up by it). */
export const loadId = (prefix, l) => `${prefix}/${l.transport}/${l.era}/${l.workload}/${l.concurrency}`;

/**
 * Every figure of one run's results (bench/run.mjs's shape) that a baseline can be held against:
 * `[{id, section, label, value, unit, better}]`, skillshelf's own figures only (the floor and the SDK peer do
 * not change with the build).
 */
export function figuresOf(results) {
  const out = [];
  const add = (section, id, label, value, unit, better = "lower") => {
    if (value !== null && value !== undefined && Number.isFinite(value)) out.push({ id, section, label, value, unit, better });
  };
  for (const b of results.build ?? []) {
    const k = size(b.n);
    add("build", `build/${b.n}/start`, `harvest + build, ${k}`, b.inproc.startMs, "ms");
    add("build", `build/${b.n}/rescan`, `rescan, nothing changed, ${k}`, b.inproc.rescanMs, "ms");
    add("build", `build/${b.n}/rebuild`, `rebuild, nothing changed, ${k}`, b.inproc.rebuildMs, "ms");
    const m = b.inproc.memoryAfterGc ?? b.inproc.memoryAfterBuild;
    add("build", `build/${b.n}/heap`, `shelf in memory after build, ${k} (JS heap)`, m?.heapUsedMB, "MB");
    add("build", `build/${b.n}/resolve-p50`, `resolve p50, ${k}`, b.inproc.resolve?.p50Ms, "ms");
    add("build", `build/${b.n}/resolve-p99`, `resolve p99, ${k}`, b.inproc.resolve?.p99Ms, "ms");
  }
  const s = results.serve;
  if (s) {
    add("serve", "serve/cold", "cold start → first resources/list, stdio", s.coldMedianMs, "ms");
    add("serve", "serve/cold-nowatch", "cold start → first resources/list, stdio, `watch: false`", s.coldNoWatch?.listingMs, "ms");
    add("serve", "serve/cold-http", "cold start → first resources/list, HTTP", s.httpCold?.listingMs, "ms");
    add("serve", "serve/cold-skills", "cold start → skills/list walked to the end, stdio", s.coldSkillsMedianMs, "ms");
    add("serve", "serve/warm", "restart with the cache", s.warmMedianMs, "ms");
    add("serve", "serve/listing", "listing size", s.listing?.bytes, "bytes");
    add("serve", "serve/skills-page", "skills/list page", s.skillsWalk?.firstPageBytes, "bytes");
    add("serve", "serve/rss-nowatch", "RSS after the first listing, stdio, `watch: false`", s.coldNoWatch?.memory?.peakMB, "MB");
    add("serve", "serve/rss-first", "RSS after the first listing, stdio", median(s.cold.map((c) => c.peakMB)), "MB");
    add("serve", "serve/peak-stdio", "peak RSS, stdio server after its loads", s.memory?.skillshelfStdio?.peakMB, "MB");
    add("serve", "serve/peak-http", "peak RSS, HTTP server after its loads", s.memory?.skillshelfHttp?.peakMB, "MB");
    for (const l of s.loads.filter((x) => x.server === "skillshelf")) {
      const what = `${l.workload} ${transportOf(l)} ×${l.concurrency}`;
      add("serve", loadId("serve", l), `${what}, throughput`, l.perSecond, "rate", "higher");
      add("serve", `${loadId("serve", l)}/p99`, `${what}, p99`, l.p99Ms, "ms");
    }
  }
  for (const [key, what] of [
    ["edit", "edit a subscribed SKILL.md"],
    ["add", "add a skill"],
  ]) {
    const c = results.change?.skillshelf?.[key];
    add("change", `change/${key}/notified`, `${what} → first notification`, c?.notifiedMs, "ms");
    add("change", `change/${key}/visible`, `${what} → readable`, c?.visibleMs, "ms");
  }
  for (const l of (results.kdense?.loads ?? []).filter((x) => x.server === "skillshelf"))
    add(
      "kdense",
      loadId("kdense", l),
      `K-Dense ${l.workload} ${transportOf(l)} ×${l.concurrency}, throughput`,
      l.perSecond,
      "rate",
      "higher",
    );
  for (const r of results.webdav?.rows ?? []) add("webdav", `webdav/${r.mode}/${r.step}`, `WebDAV, ${r.mode}, ${r.step}`, r.ms, "ms");
  const q = results.search;
  if (q?.query) {
    add("search", "search/build", "search_skills index build", q.buildMs, "ms");
    add("search", "search/heap", "search_skills index heap", q.indexHeapMB, "MB");
    add("search", "search/p50", "search_skills p50", q.query.p50Ms, "ms");
    add("search", "search/p99", "search_skills p99", q.query.p99Ms, "ms");
  }
  const d = results.discovery;
  if (d?.coldIndexMs !== undefined) {
    add("discovery", "discovery/cold", "discovery index, cold", d.coldIndexMs, "ms");
    add("discovery", "discovery/cached", "discovery index, cached", d.cachedIndexMs, "ms");
    add("discovery", "discovery/edit", "discovery index after an edit", d.indexAfterEditMs, "ms");
    add("discovery", "discovery/artifact-p50", "artifact p50", d.artifactP50Ms, "ms");
    add("discovery", "discovery/artifact-p99", "artifact p99", d.artifactP99Ms, "ms");
    add("discovery", "discovery/install", "skills add", d.install?.ms, "ms");
  }
  const g = results.plugins;
  if (g) {
    add("plugins", "plugins/first-clone", "plugin first clone", g.firstCloneMs, "ms");
    add("plugins", "plugins/re-clone", "plugin re-clone (cached)", g.cloneAgainMs, "ms");
    add("plugins", "plugins/fetch-edit", "plugin fetch after one edit", g.fetchAfterOneEditMs, "ms");
  }
  for (const r of results.guard ?? []) {
    add("guard", `guard/${r.label}/on`, `cold start, checks on, ${r.label}`, r.onMs, "ms");
    add("guard", `guard/${r.label}/on-cpu`, `CPU, checks on, ${r.label}`, r.onCpuMs, "ms");
  }
  const u = results.usage;
  if (u) {
    add("usage", "usage/http-overhead", "counting on: fewer resources/read/s over HTTP ×8", u.http?.overheadPct, "%");
    add("usage", "usage/count", "one count, in process", u.reads?.countMicros / 1000, "ms");
    for (const [key, name] of [
      ["pglite", "PGlite"],
      ["postgresql", "PostgreSQL"],
    ]) {
      const e = typeof u[key] === "object" ? u[key] : undefined;
      add("usage", `usage/${key}/size`, `usage store per million reads, ${name}`, e?.tableMBPerMillionReads, "MB");
      add("usage", `usage/${key}/flush-1000-p50`, `flush of 1,000 rows, ${name}, p50`, e?.flush1000Rows?.p50Ms, "ms");
      add("usage", `usage/${key}/flush-1000-p90`, `flush of 1,000 rows, ${name}, p90`, e?.flush1000Rows?.p90Ms, "ms");
      add("usage", `usage/${key}/flush-day`, `flush of a day's rows, ${name}, p50`, e?.dayFlush?.p50Ms, "ms");
    }
  }
  const t = results.startup;
  if (t) {
    add("startup", "startup/version", "`--version`", t.versionMs, "ms");
    add("startup", "startup/help", "`help`", t.helpMs, "ms");
    add("startup", "startup/stdio", "stdio serve → initialize answer", t.stdioInitializeMs, "ms");
  }
  const sc = results.scale;
  if (sc) {
    const k = size(sc.n);
    add("scale", "scale/cold", `${k}: cold start → first resources/list, HTTP`, sc.cold?.listingMs, "ms");
    add("scale", "scale/listing", `${k}: listing size`, sc.cold?.listingBytes, "bytes");
    add("scale", "scale/walk", `${k}: skills/list walked to the end`, sc.skillsWalk?.ms, "ms");
    add("scale", "scale/search-first", `${k}: first search_skills`, sc.search?.firstMs, "ms");
    add("scale", "scale/search-p99", `${k}: search_skills p99`, sc.search?.p99Ms, "ms");
    add("scale", "scale/load", `${k}: read-mix HTTP ×8, throughput`, sc.load?.perSecond, "rate", "higher");
    add("scale", "scale/rss-first", `${k}: RSS after the first listing, HTTP`, sc.cold?.rssMB, "MB");
    add("scale", "scale/rss-steady", `${k}: steady RSS under load, HTTP`, sc.memory?.steadyMB, "MB");
    add("scale", "scale/rss-peak", `${k}: peak RSS, HTTP`, sc.memory?.peakMB, "MB");
    add("scale", "scale/restart", `${k}: restart with the cache → first resources/list`, sc.restart?.listingMs, "ms");
    add("scale", "scale/edit", `${k}: edit → first notification`, sc.change?.edit?.notifiedMs, "ms");
    add("scale", "scale/edit-visible", `${k}: edit → readable`, sc.change?.edit?.visibleMs, "ms");
    add("scale", "scale/add", `${k}: add a skill → first notification`, sc.change?.add?.notifiedMs, "ms");
    add("scale", "scale/read-skillmd", `${k}: read-skillmd HTTP ×8, throughput`, sc.readSkillMd?.perSecond, "rate", "higher");
    add("scale", "scale/discovery-first", `${k}: discovery index, first`, sc.discovery?.firstMs, "ms");
    add("scale", "scale/discovery-again", `${k}: discovery index, again`, sc.discovery?.againMs, "ms");
    add("scale", "scale/discovery-edit", `${k}: discovery index after an edit`, sc.discovery?.afterEdit?.ms, "ms");
    add("scale", "scale/git-first", `${k}: plugin shallow clone, first`, sc.git?.firstMs, "ms");
    add("scale", "scale/git-again", `${k}: plugin shallow clone, again`, sc.git?.againMs, "ms");
    add("scale", "scale/cold-disk", `${k}: cold start from a cold disk → first resources/list`, sc.coldDisk?.listingMs, "ms");
  }
  return out;
}

/**
 * This build's rounds against the baseline's, figure by figure (medians over the rounds): `{rows, flags}` where
 * each row is `{id, section, label, unit, better, ours, base, comparison}` and `flags` are the rows worse than
 * the baseline by more than WORSE_PCT.
 */
export function compareRuns(oursRounds, baseRounds) {
  const medians = (rounds) => {
    const byId = new Map();
    for (const results of rounds)
      for (const f of figuresOf(results)) {
        const entry = byId.get(f.id) ?? { ...f, values: [] };
        entry.values.push(f.value);
        byId.set(f.id, entry);
      }
    for (const entry of byId.values()) entry.value = middle(entry.values);
    return byId;
  };
  const ours = medians(oursRounds);
  const base = medians(baseRounds);
  const rows = [];
  for (const [id, f] of ours) {
    const b = base.get(id);
    rows.push({
      id,
      section: f.section,
      label: f.label,
      unit: f.unit,
      better: f.better,
      ours: f.value,
      base: b?.value ?? null,
      comparison: b ? (f.unit === "%" ? compareShare : compareFigure)(f.value, b.value, f.better) : null,
    });
  }
  return { rows, flags: rows.filter((r) => r.comparison?.flagged) };
}
