// In-process figures, run in a fresh child per shelf so the first build is cold (no JIT, no memo):
// harvest + build, the first listing, the pure resolver per call, a skills/list page, the per-request server
// factory, and a rebuild of the live service. Prints one JSON object on stdout.
//   node --expose-gc bench/inproc.mjs --config=FILE --mix=FILE [--passes=5] [--rebuild] [--dist=DIR]
import fs from "node:fs";
import path from "node:path";
import { memoryOf } from "./lib/proc.mjs";
import { percentile } from "./lib/stats.mjs";
import { scriptArgs } from "./lib/args.mjs";

const { args, load } = scriptArgs();

const memory = () => {
  const m = process.memoryUsage();
  return {
    rssMB: m.rss / 1048576,
    heapUsedMB: m.heapUsed / 1048576,
    externalMB: m.external / 1048576,
    arrayBuffersMB: m.arrayBuffers / 1048576,
  };
};

/** Time each call separately (hrtime, ns) so p99 is a per-call figure, not an average over a batch. */
function timeEach(items, passes, fn) {
  const samples = new Float64Array(items.length * passes);
  let k = 0;
  for (let pass = 0; pass < passes; pass++) {
    for (const item of items) {
      const t = process.hrtime.bigint();
      fn(item);
      samples[k++] = Number(process.hrtime.bigint() - t) / 1e6;
    }
  }
  return Array.from(samples).sort((a, b) => a - b);
}

const summary = (sorted) => ({
  calls: sorted.length,
  p50Ms: percentile(sorted, 0.5),
  p99Ms: percentile(sorted, 0.99),
  maxMs: sorted[sorted.length - 1],
  meanMs: sorted.reduce((a, b) => a + b, 0) / sorted.length,
});

const out = { node: process.version };
const { loadConfig } = await load("config/index.js");
const { ShelfService } = await load("live/shelf-service.js");
const { resolve, FULL_SCOPE, listingRows } = await load("resolve/index.js");

const t0 = performance.now();
const config = await loadConfig(args.config);
const t1 = performance.now();
const service = await ShelfService.start(config, () => new Date());
const t2 = performance.now();
const shelf = service.current;
const rows = listingRows(shelf, FULL_SCOPE, false);
const t3 = performance.now();
out.configMs = t1 - t0;
out.startMs = t2 - t1; // harvest + build: what ShelfService.start does before the first request
out.firstListingMs = t3 - t2;
out.listingRows = rows.length;
out.listingBytes = Buffer.byteLength(JSON.stringify({ resources: rows }));
out.fullListingBytes = Buffer.byteLength(JSON.stringify({ resources: listingRows(shelf, FULL_SCOPE, true) }));
out.memoryAfterBuild = memory();
if (global.gc) {
  global.gc();
  out.memoryAfterGc = memory(); // what the shelf itself keeps
}

// The pure resolver over the mix: one unmeasured pass builds the memoised views, then `passes` measured ones.
const mix = JSON.parse(fs.readFileSync(args.mix, "utf8"));
let wrong = 0;
const tw = performance.now();
for (const { uri, expect } of mix) {
  const kind = resolve(shelf, FULL_SCOPE, uri).kind;
  if ((kind === "notFound") !== (expect === "miss")) wrong++;
}
out.resolveWarmupMs = performance.now() - tw;
out.resolveWrong = wrong;
const passes = Number(args.passes ?? 5);
out.resolve = summary(timeEach(mix, passes, ({ uri }) => resolve(shelf, FULL_SCOPE, uri)));
// The floor for a lookup: one Map hit on the URI string, timed the same way (so the timer's own cost is in both).
const answers = new Map(mix.map(({ uri }) => [uri, resolve(shelf, FULL_SCOPE, uri)]));
out.mapFloor = summary(timeEach(mix, passes, ({ uri }) => answers.get(uri)));
out.resolveByKind = {};
const byKind = new Map();
for (const entry of mix) byKind.set(entry.kind, [...(byKind.get(entry.kind) ?? []), entry]);
for (const [kind, entries] of byKind) {
  const s = summary(timeEach(entries, passes, ({ uri }) => resolve(shelf, FULL_SCOPE, uri)));
  out.resolveByKind[kind] = { p50Ms: s.p50Ms, p99Ms: s.p99Ms };
}

// A skills/list page (the extension's own formatting) and the per-request MCP server factory, when present.
const { ContentCache, ShelfReader } = await load("live/index.js");
const { DEFAULT_VIEW } = await load("mcp/request-view.js");
const access = new ShelfReader(service.holder, new ContentCache());
try {
  // The SkillSource's list runs synchronously up to its returned promise, so timing the call times the page.
  const { createSkillSource } = await load("mcp/skills.js");
  const source = createSkillSource(access, DEFAULT_VIEW);
  const params = (cursor) => (cursor === null ? {} : { cursor });
  const cursors = [null];
  for (let page = await source.list({}); page.nextCursor !== undefined && cursors.length < 200;) {
    cursors.push(page.nextCursor);
    page = await source.list(params(page.nextCursor));
  }
  out.skillsPages = cursors.length;
  out.skillsPage = summary(timeEach(cursors, 3, (cursor) => source.list(params(cursor))));
  out.skillsPageBytes = Buffer.byteLength(JSON.stringify(await source.list({})));
} catch (error) {
  out.skillsPageError = String(error.message ?? error);
}
try {
  const { buildMcpServer } = await load("mcp/server.js");
  const deps = { shelf: access, version: "bench", ttlMs: 60000 };
  const eras = Array.from({ length: 2000 }, (_, i) => (i % 2 ? "modern" : "legacy"));
  out.factory = summary(timeEach(eras, 1, (era) => buildMcpServer(deps, DEFAULT_VIEW, era)));
} catch (error) {
  out.factoryError = String(error.message ?? error);
}

if (args.rebuild === "true") {
  // Nothing changed on disk. rescan(): what a watched change triggers (unchanged files are not re-read);
  // rebuild(): POST /reindex (everything harvested again).
  if (typeof service.rescan === "function") {
    const tr = performance.now();
    await service.rescan();
    out.rescanMs = performance.now() - tr;
  }
  if (typeof service.rebuild === "function") {
    const tr = performance.now();
    await service.rebuild();
    out.rebuildMs = performance.now() - tr;
  }
}
// Zero-config discovery over the same plugin folders (`serve DIR…`): every SKILL.md at any depth, lenient names.
try {
  const { configFromDirectories } = await load("config/index.js");
  const dirs = config.plugins.filter((p) => p.address.kind === "local").map((p) => p.address.abs);
  const zero = configFromDirectories(dirs, path.dirname(path.resolve(args.config)));
  if (zero.ok) {
    const tz = performance.now();
    const discovered = await ShelfService.start(zero.config, () => new Date());
    out.zeroConfigStartMs = performance.now() - tz;
    out.zeroConfigSkills = [...discovered.current.libraries.values()].reduce((sum, lib) => sum + lib.skills.size, 0);
    out.configuredSkills = [...shelf.libraries.values()].reduce((sum, lib) => sum + lib.skills.size, 0);
    await discovered.close?.();
  }
} catch (error) {
  out.zeroConfigError = String(error.message ?? error);
}
// The citation audit on the newest shelf (it runs on the first /health or check; citations were found at harvest).
// The audit and the resolver's views are memoised per shelf object, and the start-up already audited the shelf:
// a shallow copy is a shelf nothing has seen, so this times a first audit, resolver views included.
try {
  const { auditCitations } = await load("health/index.js");
  const unseen = { ...service.current };
  const ta = performance.now();
  const dangling = auditCitations(unseen);
  out.auditMs = performance.now() - ta;
  out.auditDangling = [...dangling.values()].reduce((sum, rows) => sum + rows.length, 0);
} catch (error) {
  out.auditError = String(error.message ?? error);
}
out.peakMB = memoryOf(process.pid)?.peakMB;
await service.close?.();
process.stdout.write(`${JSON.stringify(out)}\n`);
process.exit(0);
