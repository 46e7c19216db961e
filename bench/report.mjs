// Turn a run's results into the tables `npm run bench` prints and docs/performance.md holds: every figure next
// to the floor (as ours ÷ floor) and the SDK peer (as ours ÷ peer), and the speed targets with pass/miss.
import { formatBytes, formatMs, formatNumber, formatRatio, formatTable, median } from "./lib/stats.mjs";
import { formatGuard } from "./guard.mjs";
import { formatUsage, usageTarget } from "./usage-report.mjs";
import { formatAgainst, formatValue, loadId, WORSE_PCT, WORSE_POINTS } from "./lib/compare.mjs";

/** Cores taken by other processes during a measurement above which a row is marked as disturbed. */
const BUSY_CORES = 0.25;
const MB = (value) => (value === null || value === undefined ? "—" : `${formatNumber(value, 0)} MB`);
const rate = (value) => (value === null || value === undefined ? "—" : `${formatNumber(value, 0)}/s`);
const size = (n) => (n >= 1000 && n % 1000 === 0 ? `${n / 1000}k` : String(n));

function findLoad(loads, server, transport, era, workload, concurrency) {
  return (
    loads.find(
      (l) => l.server === server && l.transport === transport && l.era === era && l.workload === workload && l.concurrency === concurrency,
    ) ?? null
  );
}

/** The 100,000-skill targets of the scale section (none for another size: they were set at 100,000). */
export function scaleTargets(sc) {
  if (sc?.cold === undefined || sc.n !== 100_000) return [];
  const at = "(100k) ";
  const out = [
    {
      figure: `${at}cold start to the first complete listing, HTTP`,
      target: "≤ 15 s",
      measured: `${formatMs(sc.cold.listingMs)}${sc.peer?.coldListingMs ? ` (SDK peer here: ${formatMs(sc.peer.coldListingMs)})` : ""}${sc.coldDisk ? `; from a cold disk ${formatMs(sc.coldDisk.listingMs)}` : ""}`,
      pass: sc.cold.listingMs <= 15_000,
    },
    {
      figure: `${at}listing size`,
      target: "≤ 4 KB",
      measured: `${formatNumber(sc.cold.listingBytes, 0)} B`,
      pass: sc.cold.listingBytes <= 4096,
    },
  ];
  if (sc.restart)
    out.push({
      figure: `${at}restart with the cache`,
      target: "≤ 3 s",
      measured: formatMs(sc.restart.listingMs),
      pass: sc.restart.listingMs <= 3000,
    });
  if (sc.memory) {
    const steady = sc.memory.steadyMB;
    out.push({
      figure: `${at}RSS over HTTP under the 8-way read load, steady and peak`,
      target: "≤ 1 GB",
      measured: `${MB(steady)} steady, ${MB(sc.memory.peakMB)} peak`,
      pass: Math.max(steady ?? Infinity, sc.memory.peakMB ?? Infinity) <= 1024,
    });
  }
  if (sc.search)
    out.push({
      figure: `${at}search_skills once built`,
      target: "p99 ≤ 5 ms",
      measured: `p99 ${formatMs(sc.search.p99Ms)}, p50 ${formatMs(sc.search.p50Ms)} (first: ${formatMs(sc.search.firstMs)})`,
      pass: sc.search.p99Ms <= 5,
    });
  if (sc.discovery?.afterEdit)
    out.push({
      figure: `${at}discovery index of the whole shelf`,
      target: "≤ 200 ms after an edit, then from the cache",
      measured: `${formatMs(sc.discovery.afterEdit.ms)} after a one-skill edit, ${formatMs(sc.discovery.firstMs)} first, ${formatMs(sc.discovery.againMs)} again`,
      pass: sc.discovery.afterEdit.ms <= 200,
    });
  if (sc.change?.edit)
    out.push({
      figure: `${at}edit a subscribed SKILL.md → first notification`,
      target: "≤ 1 s",
      measured: formatMs(sc.change.edit.notifiedMs),
      pass: sc.change.edit.notifiedMs <= 1000,
    });
  return out;
}

/** The targets, each with what was measured and whether it passes (null: not measurable in this run): at the run's
 *  `--n` (set at 10,000 skills) and, for the scale section, at 100,000. */
export function evaluateTargets(results) {
  const serve = results.serve;
  const big = results.build?.find((b) => b.n === results.params.n);
  const targets = [];
  const add = (figure, target, measured, pass, note = "") => targets.push({ figure, target, measured, pass, note });
  if (serve) {
    const peerMs = serve.peer?.coldListingMs;
    const peerCold = peerMs ? ` (SDK peer here: ${formatMs(peerMs)}, ${formatNumber(peerMs / serve.coldMedianMs, 1)}× ours)` : "";
    add(
      "cold start to the first complete listing",
      "≤ 1.5 s on an idle machine, ≥ 8 × faster than the SDK peer",
      `${formatMs(serve.coldMedianMs)} stdio, ${formatMs(serve.httpCold?.listingMs)} HTTP${peerCold}`,
      serve.coldMedianMs <= 1500 && (serve.httpCold?.listingMs ?? 0) <= 1500 && (peerMs === undefined || peerMs >= 8 * serve.coldMedianMs),
    );
    add(
      "restart with a warm cache",
      "≤ 0.5 s",
      serve.cacheWritten
        ? formatMs(serve.warmMedianMs)
        : `no cache is written for local folders: a restart is a cold start (${formatMs(serve.coldMedianMs)})`,
      serve.cacheWritten ? serve.warmMedianMs <= 500 : false,
    );
    const peak = serve.memory.skillshelfHttp?.peakMB ?? 0;
    const peerPeak = serve.memory.peerHttp?.peakMB;
    const stdioPeak = serve.memory.skillshelfStdio?.peakMB;
    add(
      "peak RSS over HTTP",
      "≤ 250 MB",
      `${MB(peak)}${stdioPeak ? ` (stdio: ${MB(stdioPeak)})` : ""}${peerPeak ? ` (SDK peer: ${MB(peerPeak)})` : ""}`,
      peak <= 250,
    );
    add("listing size", "≤ 4 KB", `${formatNumber(serve.listing.bytes, 0)} B, ${serve.listing.rows} rows`, serve.listing.bytes <= 4096);
  }
  if (results.startup) {
    const t = results.startup;
    const floor = ` (node -e 0: ${formatMs(t.floorMs)})`;
    add("`--version`", "≤ 0.25 s", formatMs(t.versionMs) + floor, t.versionMs <= 250);
    add("`help`", "≤ 0.25 s", formatMs(t.helpMs) + floor, t.helpMs <= 250);
    add(
      "stdio `serve` to the `initialize` answer, example shelf",
      "≤ 0.6 s",
      formatMs(t.stdioInitializeMs) + floor,
      t.stdioInitializeMs <= 600,
    );
  }
  if (big)
    add(
      "resolve, pure",
      "p99 ≤ 20 µs",
      `p99 ${formatMs(big.inproc.resolve.p99Ms)}, p50 ${formatMs(big.inproc.resolve.p50Ms)}`,
      big.inproc.resolve.p99Ms <= 0.02,
    );
  if (serve) {
    const c = Math.max(...results.params.concurrency);
    const stdioChecks = ["read-mix", "read-skillmd"].map((w) => {
      const ours = findLoad(serve.loads, "skillshelf", "stdio", "legacy", w, c);
      const floor = findLoad(serve.loads, "floor", "stdio", "legacy", w, c);
      return { w, ratio: ours && floor ? ours.perSecond / floor.perSecond : null };
    });
    add(
      "stdio reads, 8-way",
      "≥ 0.8 × the floor",
      stdioChecks.map((x) => `${x.w} ${formatNumber(x.ratio, 2)}×`).join(", "),
      stdioChecks.every((x) => x.ratio !== null && x.ratio >= 0.8),
    );
    for (const era of ["modern", "legacy"]) {
      const parts = [];
      let pass = true;
      for (const w of ["read-mix", "read-skillmd"]) {
        const ours = findLoad(serve.loads, "skillshelf", "http", era, w, c);
        const floor = findLoad(serve.loads, "floor", "http", era, w, c);
        if (!ours || !floor) continue;
        const ratio = ours.perSecond / floor.perSecond;
        parts.push(`${w} ${formatNumber(ratio, 2)}× floor`);
        pass &&= ratio >= 0.8;
      }
      const ours = findLoad(serve.loads, "skillshelf", "http", era, "read-skillmd", c);
      const peer = findLoad(serve.loads, "sdk-peer", "http", era, "read-skillmd", c);
      if (ours && peer) {
        parts.push(`${formatNumber(ours.perSecond / peer.perSecond, 1)}× SDK peer (${rate(ours.perSecond)} vs ${rate(peer.perSecond)})`);
        pass &&= ours.perSecond / peer.perSecond >= 5;
      } else {
        parts.push("SDK peer not measured");
      }
      add(
        `HTTP reads, 8-way (${era === "modern" ? "2026-07-28" : "2025-11-25"})`,
        "≥ 0.8 × the floor and ≥ 5 × the SDK skills server",
        parts.join("; "),
        pass,
      );
    }
  }
  const search = results.search;
  if (search?.query) {
    add(
      "search_skills query",
      "p99 ≤ 5 ms",
      `p99 ${formatMs(search.query.p99Ms)}, p50 ${formatMs(search.query.p50Ms)}`,
      search.query.p99Ms <= 5,
    );
    add("search index heap", "≤ 30 MB", MB(search.indexHeapMB), search.indexHeapMB <= 30);
    for (const [set, r] of Object.entries(search.ranking ?? {}))
      if (!r.error)
        add(
          `search ranking, ${set}`,
          "≥ 85 % first, ≥ 95 % top 3, above the keyword baseline",
          `${r.firstPct} % first, ${r.top3Pct} % top 3 (baseline ${r.baselineFirstPct} %, ${r.baselineTop3Pct} %)`,
          r.firstPct >= 85 && r.top3Pct >= 95 && r.firstPct >= r.baselineFirstPct && r.top3Pct >= r.baselineTop3Pct,
        );
  }
  const discovery = results.discovery;
  if (discovery?.coldIndexMs !== undefined) {
    add(
      "discovery index of the whole scope",
      "≤ 200 ms, then from the cache",
      `${formatMs(discovery.indexAfterEditMs)} after a one-skill edit, ${formatMs(discovery.coldIndexMs)} cold (every artifact made), ${formatMs(discovery.cachedIndexMs)} cached`,
      discovery.indexAfterEditMs <= 200,
    );
    add(
      "an artifact of a typical skill",
      "≤ 10 ms",
      `p50 ${formatMs(discovery.artifactP50Ms)}, p99 ${formatMs(discovery.artifactP99Ms)}`,
      discovery.artifactP50Ms <= 10,
    );
    if (discovery.install)
      add(
        `skills add of ${formatNumber(discovery.install.skills, 0)} skills`,
        "≤ 15 s",
        `${formatNumber(discovery.install.ms / 1000, 1)} s`,
        discovery.install.ms <= 15_000,
      );
  }
  if (results.usage?.http) {
    const t = usageTarget(results.usage);
    add(t.figure, t.target, t.measured, t.pass);
  }
  for (const t of scaleTargets(results.scale)) add(t.figure, t.target, t.measured, t.pass);
  return targets;
}

export function formatReport(results) {
  const out = [];
  const p = results.params;
  out.push(
    `Machine: ${results.machine.cpus} cores (${results.machine.cpuModel}), ${formatNumber(results.machine.memGB, 0)} GB RAM, Node ${results.machine.node}, ${results.machine.os}`,
  );
  out.push(
    `Code: skillshelf ${results.machine.commit} (dist/ built ${results.machine.built} UTC), @modelcontextprotocol/server ${results.machine.sdk}${results.kit?.sdkVersion ? ` (peer: ${results.kit.sdkVersion})` : ""}`,
  );
  out.push(`Command: ${results.command}`);
  out.push(
    `Shelf: ${size(p.n)} skills, seed ${p.seed}${results.shelf ? `, ${formatNumber(results.shelf.files, 0)} files, ${formatBytes(results.shelf.bytes)}, ${formatNumber(results.shelf.served, 0)} served` : ""}; ${p.durationMs / 1000} s per load after ${p.warmupMs / 1000} s warm-up; ${p.coldRuns} cold start(s)`,
  );
  if (results.kit?.error) out.push(`SDK peer: ${results.kit.error}`);
  out.push("");

  const against = againstBaseline(results);
  const figures = [["figure", "skillshelf", "floor", "ours ÷ floor", "SDK peer", "ours ÷ peer", ...against.header]];
  const fig = (id, row) => figures.push([...row, ...against.cells(id)]);
  for (const b of results.build ?? []) {
    fig(`build/${b.n}/start`, [
      `harvest + build, ${size(b.n)} skills (ShelfService.start in a fresh process, no watcher)`,
      formatMs(b.inproc.startMs),
      formatMs(b.disk.ms),
      formatRatio(b.inproc.startMs, b.disk.ms),
      formatMs(b.peer?.ms),
      formatRatio(b.inproc.startMs, b.peer?.ms),
    ]);
  }
  for (const b of results.build ?? []) {
    if (b.inproc.rescanMs !== undefined)
      fig(`build/${b.n}/rescan`, [
        `rescan, nothing changed, ${size(b.n)} (what a watched change runs)`,
        formatMs(b.inproc.rescanMs),
        formatMs(b.disk.ms),
        formatRatio(b.inproc.rescanMs, b.disk.ms),
        "—",
        "—",
      ]);
    if (b.inproc.rebuildMs !== undefined)
      fig(`build/${b.n}/rebuild`, [
        `rebuild, nothing changed, ${size(b.n)} (POST /reindex: all re-read)`,
        formatMs(b.inproc.rebuildMs),
        formatMs(b.disk.ms),
        formatRatio(b.inproc.rebuildMs, b.disk.ms),
        "—",
        "—",
      ]);
  }
  for (const b of results.build ?? []) {
    const m = b.inproc.memoryAfterGc ?? b.inproc.memoryAfterBuild;
    fig(`build/${b.n}/heap`, [
      `shelf in memory after build, ${size(b.n)} (JS heap + file bytes held)`,
      `${MB(m.heapUsedMB)} + ${MB(m.arrayBuffersMB)}`,
      "—",
      "—",
      "—",
      "—",
    ]);
  }
  for (const b of results.build ?? []) {
    fig(`build/${b.n}/resolve-p50`, [
      `resolve p50, ${size(b.n)} (per call)`,
      formatMs(b.inproc.resolve.p50Ms),
      formatMs(b.inproc.mapFloor.p50Ms),
      formatRatio(b.inproc.resolve.p50Ms, b.inproc.mapFloor.p50Ms),
      "—",
      "—",
    ]);
    fig(`build/${b.n}/resolve-p99`, [
      `resolve p99, ${size(b.n)} (per call)`,
      formatMs(b.inproc.resolve.p99Ms),
      formatMs(b.inproc.mapFloor.p99Ms),
      formatRatio(b.inproc.resolve.p99Ms, b.inproc.mapFloor.p99Ms),
      "—",
      "—",
    ]);
  }
  const s = results.serve;
  if (s) {
    const peer = s.peer ?? {};
    fig("serve/cold", [
      `cold start (CLI) → first resources/list, stdio (median of ${s.cold.length})`,
      formatMs(s.coldMedianMs),
      formatMs(s.floorCold?.listingMs),
      formatRatio(s.coldMedianMs, s.floorCold?.listingMs),
      "—",
      "—",
    ]);
    if (s.coldNoWatch)
      fig("serve/cold-nowatch", [
        "cold start (CLI) → first resources/list, stdio, every plugin `watch: false`",
        formatMs(s.coldNoWatch.listingMs),
        formatMs(s.floorCold?.listingMs),
        formatRatio(s.coldNoWatch.listingMs, s.floorCold?.listingMs),
        "—",
        "—",
      ]);
    fig("serve/cold-http", [
      "cold start (CLI) → first resources/list, HTTP",
      formatMs(s.httpCold?.listingMs),
      "—",
      "—",
      formatMs(peer.coldListingMs),
      formatRatio(s.httpCold?.listingMs, peer.coldListingMs),
    ]);
    fig("serve/cold-skills", [
      `cold start → skills/list walked to the end (${s.skillsWalk.pages} pages), stdio`,
      formatMs(s.coldSkillsMedianMs),
      "—",
      "—",
      "—",
      "—",
    ]);
    fig("serve/warm", ["restart with the cache", s.cacheWritten ? formatMs(s.warmMedianMs) : "no cache written", "—", "—", "—", "—"]);
    fig("serve/listing", [
      `listing size (resources/list result, ${s.listing.rows} rows)`,
      formatBytes(s.listing.bytes),
      "—",
      "—",
      peer.listingBytes ? `${formatBytes(peer.listingBytes)} (${formatNumber(peer.listingRows, 0)} rows)` : "—",
      formatRatio(s.listing.bytes, peer.listingBytes),
    ]);
    fig("serve/skills-page", [
      `skills/list page (${s.skillsWalk.pages > 1 ? "100 skills" : "all"})`,
      formatBytes(s.skillsWalk.firstPageBytes),
      "—",
      "—",
      peer.skillsListBytes ? `${formatBytes(peer.skillsListBytes)} (all ${formatNumber(peer.skills, 0)} in one page)` : "—",
      "—",
    ]);
    if (s.coldNoWatch)
      fig("serve/rss-nowatch", [
        "RSS after the first listing, stdio, `watch: false` (no load yet)",
        MB(s.coldNoWatch.memory?.peakMB),
        MB(s.memory["floor-stdio"]?.peakMB),
        "—",
        "—",
        "—",
      ]);
    fig("serve/rss-first", [
      `RSS after the first listing, stdio (no load yet)`,
      MB(median(s.cold.map((c) => c.peakMB))),
      "—",
      "—",
      MB(s.peer?.memoryAfterStart?.peakMB),
      formatRatio(median(s.cold.map((c) => c.peakMB)), s.peer?.memoryAfterStart?.peakMB),
    ]);
    fig("serve/peak-stdio", [
      "peak RSS, stdio server after its loads",
      MB(s.memory.skillshelfStdio?.peakMB),
      MB(s.memory["floor-stdio"]?.peakMB),
      formatRatio(s.memory.skillshelfStdio?.peakMB, s.memory["floor-stdio"]?.peakMB),
      MB(s.memory.peerStdio?.peakMB),
      formatRatio(s.memory.skillshelfStdio?.peakMB, s.memory.peerStdio?.peakMB),
    ]);
    fig("serve/peak-http", [
      "peak RSS, HTTP server after its loads",
      MB(s.memory.skillshelfHttp?.peakMB),
      MB(s.memory["floor-http"]?.peakMB),
      formatRatio(s.memory.skillshelfHttp?.peakMB, s.memory["floor-http"]?.peakMB),
      MB(s.memory.peerHttp?.peakMB),
      formatRatio(s.memory.skillshelfHttp?.peakMB, s.memory.peerHttp?.peakMB),
    ]);
  }
  const ch = results.change;
  if (ch?.skillshelf) {
    const pe = ch.peer ?? null;
    for (const [key, what] of [
      ["edit", "edit a subscribed SKILL.md"],
      ["add", "add a skill"],
    ]) {
      const ours = ch.skillshelf[key];
      const theirs = pe?.[key];
      fig(`change/${key}/notified`, [
        `${what} → first notification`,
        formatMs(ours.notifiedMs),
        "—",
        "—",
        formatMs(theirs?.notifiedMs),
        formatRatio(ours.notifiedMs, theirs?.notifiedMs),
      ]);
      fig(`change/${key}/visible`, [
        `${what} → readable`,
        formatMs(ours.visibleMs),
        "—",
        "—",
        formatMs(theirs?.visibleMs),
        formatRatio(ours.visibleMs, theirs?.visibleMs),
      ]);
    }
  }
  // A run of sections with tables of their own only (startup, search…) has no rows here.
  if (figures.length > 1) out.push(`### Figures (${size(p.n)}-skill shelf)\n`, formatTable(figures), "");

  const loadTable = (loads, title, prefix) => {
    const rows = [
      [
        "workload",
        "transport",
        "×",
        "skillshelf",
        "p50",
        "p99",
        "floor",
        "ours ÷ floor",
        "SDK peer",
        "ours ÷ peer",
        "wrong answers",
        ...against.header,
      ],
    ];
    const keys = [];
    for (const l of loads) {
      if (l.server !== "skillshelf") continue;
      keys.push(l);
    }
    for (const l of keys) {
      const floor = findLoad(loads, "floor", l.transport, l.era, l.workload, l.concurrency);
      const peer = findLoad(loads, "sdk-peer", l.transport, l.era, l.workload, l.concurrency);
      const transport = l.transport === "http" ? `HTTP ${l.era === "modern" ? "2026" : "2025"}` : "stdio";
      const peerCell = peer ? `${rate(peer.perSecond)} (p50 ${formatMs(peer.p50Ms)})` : "—";
      const busy = [l, floor, peer].some((x) => (x?.othersCores ?? 0) > BUSY_CORES) ? " †" : "";
      rows.push([
        l.workload,
        transport,
        l.concurrency,
        rate(l.perSecond) + busy,
        formatMs(l.p50Ms),
        formatMs(l.p99Ms),
        floor ? rate(floor.perSecond) : "—",
        formatRatio(l.perSecond, floor?.perSecond),
        peerCell,
        formatRatio(l.perSecond, peer?.perSecond),
        `${l.failures}${peer?.failures ? ` (peer ${peer.failures})` : ""}`,
        ...against.cells(loadId(prefix, l)),
      ]);
    }
    out.push(`### ${title}\n`);
    out.push(formatTable(rows));
    const busiest = Math.max(...loads.map((l) => l.othersCores ?? 0));
    if (busiest > BUSY_CORES)
      out.push(
        `\n† other processes on the machine took over ${BUSY_CORES} of a core during this row's measurement (up to ${formatNumber(busiest, 1)} cores in this table): its figures are low.`,
      );
    out.push("");
  };
  if (s) loadTable(s.loads, `Throughput and latency (${size(p.n)}-skill shelf; mean answer ${describeSizes(s.loads)})`, "serve");
  if (results.kdense && !results.kdense.error) {
    const k = results.kdense;
    loadTable(
      k.loads,
      `K-Dense collection (${k.servers.skillshelf.files} files served by skillshelf${k.servers.peer ? `, ${k.servers.peer.files} by the SDK peer` : ""}; every published file, 8 in flight)`,
      "kdense",
    );
  } else if (results.kdense?.error) out.push(`K-Dense: ${results.kdense.error}\n`);
  if (results.guard) {
    out.push("### Supply-chain checks: cold start with the checks on and off (medians; CPU is the figure to read)\n");
    out.push(formatGuard(results.guard));
    out.push("");
  }
  if (results.webdav) {
    const w = results.webdav;
    out.push(`### WebDAV share (${formatNumber(w.files, 0)} files on webdav-server over loopback)\n`);
    const rows = [["listing", "step", "time", "client CPU", "GETs", "PROPFINDs", "skills served"]];
    for (const r of w.rows) {
      const seconds = (ms) => `${formatNumber(ms / 1000, 2)} s`;
      rows.push([r.mode, r.step, seconds(r.ms), seconds(r.cpuMs), String(r.gets), String(r.propfinds), String(r.skills)]);
    }
    out.push(formatTable(rows));
    out.push("");
  }

  if (results.search?.query) {
    const q = results.search;
    out.push(`### search_skills (${formatNumber(q.skills, 0)} skills; ${formatNumber(q.query.calls, 0)} queries of one to three words)\n`);
    const rows = [["index build", "index heap", "p50 / p99", "slowest query at its fastest", "ten rows"]];
    rows.push([
      formatMs(q.buildMs),
      MB(q.indexHeapMB),
      `${formatMs(q.query.p50Ms)} / ${formatMs(q.query.p99Ms)}`,
      formatMs(q.slowestFastestMs),
      `${formatNumber(q.tenRowsBytes, 0)} B`,
    ]);
    out.push(formatTable(rows));
    out.push("");
  }

  if (results.discovery?.coldIndexMs !== undefined) {
    const d = results.discovery;
    out.push(`### Discovery index (${formatNumber(d.skills, 0)} skills, ${formatNumber(d.archives, 0)} of them archives)\n`);
    const rows = [["index cold", "cached", "after an edit", "size / gzipped", "artifact p50 / p99", "largest artifact", "artifacts held"]];
    rows.push([
      formatMs(d.coldIndexMs),
      formatMs(d.cachedIndexMs),
      formatMs(d.indexAfterEditMs),
      `${formatBytes(d.indexBytes)} / ${formatBytes(d.indexGzipBytes)}`,
      `${formatMs(d.artifactP50Ms)} / ${formatMs(d.artifactP99Ms)}`,
      `${formatMs(d.largestArtifact.ms)} (${d.largestArtifact.files} files, ${formatBytes(d.largestArtifact.bytes)})`,
      `${MB(d.artifactHeldMB)} (bound 64 MB)`,
    ]);
    out.push(formatTable(rows));
    if (d.install)
      out.push(`\n\`skills add\` of ${formatNumber(d.install.skills, 0)} skills over loopback: ${formatNumber(d.install.ms / 1000, 1)} s.`);
    out.push("");
  }

  if (results.plugins) {
    const g = results.plugins;
    out.push(`### Plugin repositories (git smart HTTP over loopback, the system git)\n`);
    const rows = [
      [
        "plugin",
        "first clone (made)",
        "re-clone (cached)",
        "fetch after one edit",
        "pack sent: clone / fetch (shallow / full clone)",
        "disk per 1,000 skills",
      ],
    ];
    rows.push([
      `${formatNumber(g.skills, 0)} skills`,
      formatMs(g.firstCloneMs),
      formatMs(g.cloneAgainMs),
      formatMs(g.fetchAfterOneEditMs),
      `${formatBytes(g.clonePackBytes)} / ${formatBytes(g.fetchAfterOneEditPackBytes)} / ${formatBytes(g.fullCloneFetchAfterOneEditPackBytes)}`,
      `${formatBytes(g.repositoryBytesPer1000Skills)} (first clone of ${formatNumber(g.diskSkills, 0)}: ${formatMs(g.firstCloneOfDiskSkillsMs)})`,
    ]);
    out.push(formatTable(rows));
    out.push("");
  }

  if (results.startup !== undefined) {
    const t = results.startup;
    out.push(`### Start-up (medians of ${t.runs} runs, alternated)\n`);
    const rows = [["build", "node -e 0", "--version", "help", "stdio serve → initialize answer (example shelf)"]];
    const row = (build, x) => [build, formatMs(x.floorMs), formatMs(x.versionMs), formatMs(x.helpMs), formatMs(x.stdioInitializeMs)];
    rows.push(row("this", t));
    const b = results.baseline?.results?.startup;
    if (b) rows.push(row(`baseline ${results.baseline.commit}`, b));
    out.push(formatTable(rows));
    out.push("");
  }

  if (results.usage) out.push(...formatUsage(results.usage, against), "");

  if (results.scale) out.push(...formatScale(results.scale, against), "");

  const targets = evaluateTargets(results);
  const rows = [["figure", "target", "measured", "verdict"]];
  for (const t of targets) rows.push([t.figure, t.target, t.measured, t.pass === null ? "n/a" : t.pass ? "pass" : "**miss**"]);
  if (rows.length > 1) out.push(`### Targets (${size(p.n)}-skill shelf)\n`, formatTable(rows));
  if (results.baseline) out.push("", ...formatBaseline(results.baseline));
  return out.join("\n");
}

/** The scale section: one server on the big shelf from its cold start to a restart, beside the floors and the SDK
 *  peer on the same shelf where the figure has one. */
function formatScale(sc, against) {
  const rows = [["figure", "skillshelf", "floor", "ours ÷ floor", "SDK peer", "ours ÷ peer", ...against.header]];
  const none = { value: undefined };
  /** `floor`, `peer`: `{value, text?}` (a number in the figure's unit, and how to show it when not formatMs). */
  const fig = (id, label, value, { ours, floor = none, peer = none, show = formatMs } = {}) =>
    rows.push([
      label,
      value,
      floor.value === undefined ? "—" : (floor.text ?? show(floor.value)),
      floor.value === undefined || ours === undefined ? "—" : formatRatio(ours, floor.value),
      peer.value === undefined ? (peer.text ?? "—") : (peer.text ?? show(peer.value)),
      peer.value === undefined || ours === undefined ? "—" : formatRatio(ours, peer.value),
      ...against.cells(id),
    ]);
  const peer = sc.peer?.error ? { error: sc.peer.error } : (sc.peer ?? {});
  const peerOf = (value, text) => (peer.error ? { value: undefined, text: "failed †" } : { value, text });
  const refused = sc.cold.refused408 ? `; the first ${sc.cold.refused408} request(s) answered 408 and sent again` : "";
  fig(
    "scale/cold",
    `cold start (CLI) → first resources/list, HTTP (shelf in the page cache; listening after ${formatMs(sc.cold.readyMs)}${refused}; floor: read and hash every file)`,
    formatMs(sc.cold.listingMs),
    { ours: sc.cold.listingMs, floor: { value: sc.floor?.diskMs }, peer: peerOf(peer.coldListingMs) },
  );
  if (sc.coldDisk)
    fig(
      "scale/cold-disk",
      `cold start from a cold disk (--cold-disk: the page cache dropped first; listening after ${formatMs(sc.coldDisk.readyMs)})`,
      formatMs(sc.coldDisk.listingMs),
    );
  fig("scale/listing", `listing size (resources/list result, ${sc.cold.rows} rows)`, formatBytes(sc.cold.listingBytes), {
    ours: sc.cold.listingBytes,
    peer: peerOf(
      peer.listingBytes,
      peer.listingBytes === undefined ? undefined : `${formatBytes(peer.listingBytes)} (${formatNumber(peer.listingRows, 0)} rows)`,
    ),
  });
  if (sc.skillsWalk)
    fig(
      "scale/walk",
      `skills/list walked to the end once the server is idle (${formatNumber(sc.skillsWalk.pages, 0)} pages, ${formatNumber(sc.skillsWalk.skills, 0)} skills)`,
      formatMs(sc.skillsWalk.ms),
    );
  if (sc.search) {
    fig("scale/search-first", "first search_skills (builds the index)", formatMs(sc.search.firstMs));
    fig(
      "scale/search-p99",
      `search_skills p99 once built (${sc.search.queries} queries, one at a time; p50 ${formatMs(sc.search.p50Ms)})`,
      formatMs(sc.search.p99Ms),
    );
  }
  const busy = (load) => ((load?.othersCores ?? 0) > BUSY_CORES ? " †" : "");
  if (sc.load)
    fig(
      "scale/load",
      `read-mix, HTTP 2026, 8 in flight (p50 ${formatMs(sc.load.p50Ms)}, p99 ${formatMs(sc.load.p99Ms)}, ${sc.load.failures} wrong answers)${busy(sc.load)}`,
      rate(sc.load.perSecond),
      { ours: sc.load.perSecond, floor: { value: sc.floor?.load?.perSecond }, show: rate },
    );
  if (sc.readSkillMd)
    fig(
      "scale/read-skillmd",
      `read-skillmd, HTTP 2026, 8 in flight (p50 ${formatMs(sc.readSkillMd.p50Ms)}, p99 ${formatMs(sc.readSkillMd.p99Ms)}, ${sc.readSkillMd.failures} wrong answers)${busy(sc.readSkillMd)}`,
      rate(sc.readSkillMd.perSecond),
      { ours: sc.readSkillMd.perSecond, peer: peerOf(peer.readSkillMd?.perSecond), show: rate },
    );
  fig("scale/rss-first", "RSS after the first listing, HTTP", MB(sc.cold.rssMB), {
    ours: sc.cold.rssMB,
    peer: peerOf(peer.rssMB),
    show: MB,
  });
  if (sc.memory) {
    fig(
      "scale/rss-steady",
      `steady RSS under that load (median of ${sc.memory.samples} samples, highest ${MB(sc.memory.maxSampledMB)})`,
      MB(sc.memory.steadyMB),
    );
    fig("scale/rss-peak", "peak RSS of the HTTP server after its loads (VmHWM: its start included)", MB(sc.memory.peakMB), {
      ours: sc.memory.peakMB,
      floor: { value: sc.floor?.memory?.peakMB },
      peer: peerOf(peer.peakMB),
      show: MB,
    });
  }
  if (sc.discovery) {
    const d = sc.discovery;
    fig(
      "scale/discovery-first",
      `discovery index of the whole shelf, first request (${formatNumber(d.entries, 0)} skills, ${formatNumber(d.archives, 0)} archives; ${formatBytes(d.bytes)}${d.gzipBytes ? `, ${formatBytes(d.gzipBytes)} gzipped` : ""})`,
      formatMs(d.firstMs),
    );
    fig("scale/discovery-again", "discovery index again (from the cache)", formatMs(d.againMs));
    if (d.afterEdit)
      fig(
        "scale/discovery-edit",
        `discovery index after a one-skill edit (the request that made it; seen ${formatMs(d.afterEdit.sinceEditMs)} after the edit)`,
        formatMs(d.afterEdit.ms),
      );
  }
  if (sc.git) {
    fig(
      "scale/git-first",
      `shallow clone of plugin ${sc.git.plugin} (${formatNumber(sc.git.skills, 0)} skills, ${formatNumber(sc.git.files, 0)} files), first: its repository made`,
      formatMs(sc.git.firstMs),
    );
    fig("scale/git-again", "the same clone again (the repository made already)", formatMs(sc.git.againMs));
  }
  if (sc.peakAfterChannelsMB)
    fig("scale/rss-peak-after", "peak RSS of the HTTP server after the discovery index and the clone", MB(sc.peakAfterChannelsMB));
  if (sc.restart) fig("scale/restart", "restart with the cache → first resources/list, stdio", formatMs(sc.restart.listingMs));
  if (sc.change) {
    fig("scale/edit", "edit a subscribed SKILL.md → first notification", formatMs(sc.change.edit.notifiedMs));
    fig("scale/edit-visible", "edit a subscribed SKILL.md → readable", formatMs(sc.change.edit.visibleMs));
    fig("scale/add", "add a skill → first notification", formatMs(sc.change.add.notifiedMs));
  }
  const notes = [];
  if (peer.error) notes.push(`† The SDK peer on this shelf: ${peer.error}`);
  else if (peer.load)
    notes.push(
      `The SDK peer read its ${formatNumber(peer.load.skills, 0)} skills in ${formatMs(peer.load.ms)} before it listened` +
        `${peer.readSkillMd?.failures ? `; ${formatNumber(peer.readSkillMd.failures, 0)} of its SKILL.md reads failed` : ""}.`,
    );
  return [
    `### Scale (${formatNumber(sc.n, 0)} skills, ${formatNumber(sc.files, 0)} files, ${formatBytes(sc.bytes)}; others took ${formatNumber(sc.cold.othersCores, 1)} cores during the cold start)\n`,
    formatTable(rows),
    ...(notes.length ? ["", ...notes] : []),
  ];
}

/** The two columns a figure gets in a run with --baseline (none without): the baseline's value, ours ÷ it. */
function againstBaseline(results) {
  if (!results.baseline) return { header: [], cells: () => [] };
  const byId = new Map(results.baseline.rows.map((row) => [row.id, row]));
  return {
    header: ["baseline", "ours ÷ baseline"],
    cells: (id) => {
      const row = byId.get(id);
      return row ? [formatValue(row.base, row.unit), formatAgainst(row.comparison)] : ["—", "—"];
    },
  };
}

/** Every figure against the baseline, the sections it could not run, and the flags last. */
export function formatBaseline(b) {
  const out = [];
  const rounds = b.rounds > 1 ? `; medians of ${b.rounds} alternated rounds each` : "; the builds alternated section by section";
  const subject = b.subject.length > 72 ? `${b.subject.slice(0, 71)}…` : b.subject;
  out.push(`### Against the baseline: ${b.ref} (${b.commit} ${subject})${rounds}\n`);
  const rows = [["section", "figure", "this build", "baseline", "ours ÷ baseline"]];
  for (const r of b.rows)
    rows.push([r.section, r.label, formatValue(r.ours, r.unit), formatValue(r.base, r.unit), formatAgainst(r.comparison)]);
  out.push(formatTable(rows));
  const missing = Object.entries(b.notInBaseline ?? {});
  if (missing.length) {
    out.push("");
    for (const [section, why] of missing) out.push(`- ${section}: ${why}`);
  }
  const shares = b.rows.some((r) => r.unit === "%") ? ` (a figure in %: by more than ${WORSE_POINTS} points)` : "";
  out.push("", `### Worse than the baseline by more than ${WORSE_PCT} %${shares}\n`);
  if (b.flags.length === 0) out.push("None.");
  for (const f of b.flags)
    out.push(
      `- ${f.section}: ${f.label}: ${formatValue(f.ours, f.unit)} vs ${formatValue(f.base, f.unit)} (${formatAgainst(f.comparison)})`,
    );
  return out;
}

function describeSizes(loads) {
  const ours = loads.filter((l) => l.server === "skillshelf" && l.transport === "stdio");
  const byWorkload = new Map();
  for (const l of ours) byWorkload.set(l.workload, l.meanBytes);
  return [...byWorkload].map(([w, b]) => `${w} ${formatBytes(b)}`).join(", ");
}
