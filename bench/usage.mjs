#!/usr/bin/env node
// What usage counting costs, on the generated shelf (10,000 skills by default), against the build in dist/:
//  - reads/s through the serve-time read (ShelfReader.read) with counting off, and on (each read reported to a
//    UsageTap as MCP's resources/read reports it, the store flushing to PGlite every --flush-ms in this process),
//    alternated round by round so a load on the machine hits both alike; then resources/read over HTTP at 8 in
//    flight on two apps over the same shelf, one counting and one not, alternated too;
//  - the store's size per million reads: a month of reads (Zipf over the skills, 20 clients, 4 surfaces, SKILL.md
//    or another file) written a day at a time, on PGlite and on PostgreSQL;
//  - flush latency: a day's batch (the month above), and a batch of 1,000 distinct rows (about what one 10 s flush
//    of a busy server holds), on both engines.
// PostgreSQL is a throwaway cluster from /usr/lib/postgresql/*/bin (run as `nobody` under root), or --postgres=URL;
// without either that engine is left out and the output says so. Prints a table and one JSON line.
//   npm run build && node bench/usage.mjs [--n=10000] [--seed=7] [--dir=DIR] [--reads=1000000] [--days=30]
//     [--rounds=5] [--round-reads=20000] [--http-ms=3000] [--flush-ms=10000] [--postgres=URL]
//     [--config=SHELF/skillshelf.yaml] [--dist=DIR]
// --config measures a shelf already generated (instead of --n, --seed and --dir); --dist, a build other than this
// checkout's dist/. As a section of bench/run.mjs: --sections=usage (bench/suites/usage.mjs runs this script).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ensureShelf } from "./gen-shelf.mjs";
import { createRandom } from "./lib/random.mjs";
import { HttpRpc } from "./lib/http-client.mjs";
import { freePort } from "./lib/proc.mjs";
import { median, percentile, runLoad } from "./lib/stats.mjs";
import { scriptArgs } from "./lib/args.mjs";

const { args, load } = scriptArgs();
const KNOWN = ["n", "seed", "dir", "reads", "days", "rounds", "round-reads", "http-ms", "flush-ms", "postgres", "config", "dist"];
const unknown = Object.keys(args).filter((key) => !KNOWN.includes(key));
if (unknown.length > 0) throw new Error(`bench/usage.mjs: no flag --${unknown[0]} (there are --${KNOWN.join(", --")})`);
/** A flag that must be a whole number ≥ `min`, or its default. */
function whole(key, fallback, min = 1) {
  if (args[key] === undefined) return fallback;
  const value = Number(args[key]);
  if (args[key] === "" || !Number.isInteger(value) || value < min)
    throw new Error(`bench/usage.mjs: --${key} must be a whole number ≥ ${min}, not ${JSON.stringify(args[key])}`);
  return value;
}
const N = whole("n", 10_000);
const SEED = whole("seed", 7, 0);
const READS = whole("reads", 1_000_000);
const DAYS = whole("days", 30);
const ROUNDS = whole("rounds", 5);
const ROUND_READS = whole("round-reads", 20_000);
const HTTP_MS = whole("http-ms", 3000);
// How often the counting store writes: the config's default (`usage.flush`, 10 s), as a server runs it.
const FLUSH_MS = whole("flush-ms", 10_000);
const CONFIG = args.config === undefined ? undefined : path.resolve(args.config);
if (CONFIG !== undefined && !fs.existsSync(CONFIG)) throw new Error(`bench/usage.mjs: --config: no file ${CONFIG}`);
const WORK = fs.mkdtempSync(path.join(os.tmpdir(), "skillshelf-bench-usage-"));
const { loadConfig } = await load("config/index.js");
const { ShelfService, ShelfReader, ContentCache } = await load("live/index.js");
const { FULL_SCOPE, FULL_SCOPE_ON, visibleSkills } = await load("resolve/index.js");
const { formatSkillUri } = await load("address/index.js");
const { UsageStore, openEmbedded, openPostgres } = await load("store/index.js");
const { UsageTap, createHttpApp } = await load("http/index.js");

const log = (line) => process.stderr.write(`${line}\n`);
const DAY_MS = 86_400_000;
const CLIENTS = Array.from({ length: 20 }, (_, i) => `team-${i}`);
const SURFACES = ["resources/read", "skills/get", "tool", "page"];

/** Ranks 0..n-1 drawn with probability ∝ 1/(rank+1): a few skills read often, a long tail read rarely. */
function zipf(n, random) {
  const cumulative = new Float64Array(n);
  let sum = 0;
  for (let i = 0; i < n; i++) cumulative[i] = sum += 1 / (i + 1);
  return () => {
    const target = random.next() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cumulative[mid] < target) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

function folderBytes(dir) {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const abs = path.join(dir, entry.name);
    total += entry.isDirectory() ? folderBytes(abs) : fs.statSync(abs).size;
  }
  return total;
}

// --- reads/s, counting off and on ---
const config =
  CONFIG ??
  path.join(ensureShelf({ baseDir: args.dir ?? path.join(os.tmpdir(), "skillshelf-bench"), n: N, seed: SEED, log }).dir, "skillshelf.yaml");
const service = await ShelfService.start(await loadConfig(config), () => new Date());
const reader = new ShelfReader(service.holder, new ContentCache());
const skills = visibleSkills(service.holder.current, FULL_SCOPE);
const uris = skills.map((skill) => formatSkillUri(skill.library, [...skill.address, "SKILL.md"]));
const pick = zipf(uris.length, createRandom(SEED));
const sequence = Array.from({ length: ROUND_READS }, () => uris[pick()]);

const counted = new UsageStore({
  backend: "embedded",
  open: () => openEmbedded(path.join(WORK, "reads-pglite")),
  now: () => new Date(),
  flushMs: FLUSH_MS,
  buffer: 10_000,
  retentionMs: 400 * DAY_MS,
});
counted.start();
const tap = new UsageTap({ store: counted, shelf: () => service.holder.current, claim: "groups", now: () => new Date() });
const counters = CLIENTS.map((client) => tap.counter({ name: client, scope: {}, admin: false }));

async function round(on) {
  const t0 = performance.now();
  for (let i = 0; i < sequence.length; i++) {
    const outcome = await reader.read(sequence[i], FULL_SCOPE_ON);
    if (!outcome.ok) throw new Error(`read failed: ${sequence[i]}`);
    if (on) counters[i % counters.length]({ kind: "read", uri: outcome.uri, surface: "resources/read" });
  }
  return sequence.length / ((performance.now() - t0) / 1000);
}

await round(false); // warms the content cache
const off = [];
const on = [];
for (let r = 0; r < ROUNDS; r++) {
  if (r % 2 === 0) {
    off.push(await round(false));
    on.push(await round(true));
  } else {
    on.push(await round(true));
    off.push(await round(false));
  }
}
// The count alone, without the read: what a read pays for being counted.
const t0 = performance.now();
for (let i = 0; i < sequence.length; i++) counters[i % counters.length]({ kind: "read", uri: sequence[i], surface: "resources/read" });
const countMicros = ((performance.now() - t0) * 1000) / sequence.length;

// The same over HTTP: resources/read at 8 in flight on two apps over the one shelf, one counting, one not.
async function listen(usage) {
  const deps = { shelf: new ShelfReader(service.holder, new ContentCache()), version: "bench", ttlMs: 0 };
  const http = createHttpApp(service.holder, deps, {
    host: "127.0.0.1",
    access: { clients: [], anonymous: true },
    reindex: () => service.rebuild(),
    onError: (error) => log(String(error)),
    ...(usage === undefined ? {} : { usage }),
  });
  const server = await new Promise((resolve) => {
    const listening = http.app.listen(0, "127.0.0.1", () => resolve(listening));
  });
  // Each app waits out the other's round (--http-ms and a warm-up) with its sockets idle: past Node's 5 s keep-alive
  // timeout the server closes them, late on this busy loop, just as the client sends on them again ("socket hang
  // up"). Both apps keep their connections for the whole run instead.
  server.keepAliveTimeout = 2 * HTTP_MS + 60_000;
  const rpc = new HttpRpc(`http://127.0.0.1:${server.address().port}/mcp`, { sockets: 8 });
  const calls = sequence.map((uri) => rpc.prepare("resources/read", { uri }));
  const call = async (i) => {
    const { message, bytes } = await rpc.send(calls[i % calls.length]);
    return { bytes, ok: message?.result?.contents !== undefined };
  };
  const close = async () => {
    rpc.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await http.mcp.close();
  };
  return { call, close };
}
const plain = await listen(undefined);
const counting = await listen(tap);
const httpOff = [];
const httpOn = [];
// Unmeasured: both apps' code paths compiled and their caches warm before the first measured round.
for (const app of [plain, counting, plain, counting]) await runLoad(app.call, { concurrency: 8, durationMs: 1000, warmupMs: 0 });
// Each round measures both apps back to back; the overhead is the median of the rounds' own ratios, so a drift of
// the machine's speed between rounds (another process, GC, frequency) cancels within each pair.
const pairOverheads = [];
for (let r = 0; r < ROUNDS; r++) {
  const pair = r % 2 === 0 ? [plain, counting] : [counting, plain];
  for (const app of pair) {
    const result = await runLoad(app.call, { concurrency: 8, durationMs: HTTP_MS, warmupMs: 300 });
    if (result.failures > 0) throw new Error(`${result.failures} reads over HTTP failed`);
    (app === plain ? httpOff : httpOn).push(result.perSecond);
  }
  pairOverheads.push((100 * (httpOff[r] - httpOn[r])) / httpOff[r]);
}
await plain.close();
await counting.close();
await counted.close();
const status = counted.status();
await service.close();
const out = {
  node: process.version,
  cpus: os.cpus().length,
  loadavg: os.loadavg().map((x) => Math.round(x * 100) / 100),
  skills: uris.length,
  flushMs: FLUSH_MS,
  reads: {
    perRound: ROUND_READS,
    rounds: ROUNDS,
    offPerSec: median(off),
    onPerSec: median(on),
    countMicros,
    written: status.written,
    dropped: status.dropped,
  },
};
out.reads.overheadPct = (100 * (out.reads.offPerSec - out.reads.onPerSec)) / out.reads.offPerSec;
out.http = { inFlight: 8, seconds: HTTP_MS / 1000, rounds: ROUNDS, offPerSec: median(httpOff), onPerSec: median(httpOn) };
out.http.overheadPct = median(pairOverheads);
out.http.roundOverheadsPct = [...pairOverheads].sort((a, b) => a - b);

// --- store size per million reads, and flush latency ---
const digests = skills.map((skill) => skill.files.get("SKILL.md")?.digest ?? "");

async function month(engine, open, size) {
  const random = createRandom(SEED + 1);
  const pickSkill = zipf(skills.length, random);
  let now = new Date("2026-03-01T12:00:00Z");
  const store = new UsageStore({ backend: engine, open, now: () => now, flushMs: 3_600_000, buffer: 1_000_000, retentionMs: 400 * DAY_MS });
  await store.flush(); // opens and migrates
  const dayFlushes = [];
  const perDay = Math.ceil(READS / DAYS);
  let rows = 0;
  for (let day = 0; day < DAYS; day++) {
    for (let i = 0; i < perDay && day * perDay + i < READS; i++) {
      const s = pickSkill();
      const skill = skills[s];
      store.countRead({
        library: skill.library,
        skill: skill.address.join("/"),
        digest: digests[s],
        client: CLIENTS[Math.floor(random.next() * CLIENTS.length)],
        surface: SURFACES[Math.floor(random.next() * SURFACES.length)],
        file: random.next() < 0.8 ? "SKILL.md" : "other",
      });
    }
    const start = performance.now();
    await store.flush();
    dayFlushes.push(performance.now() - start);
    now = new Date(now.getTime() + DAY_MS);
  }
  const db = await store.reader();
  rows = Number((await db.query("SELECT count(*) AS n FROM usage_reads"))[0].n);
  const tableBytes = Number((await db.query("SELECT pg_total_relation_size('usage_reads') AS n"))[0].n);
  // A busy server's 10 s flush: 1,000 distinct rows (new ones: a day not written yet).
  const small = [];
  for (let f = 0; f < 20; f++) {
    now = new Date(now.getTime() + DAY_MS);
    for (let i = 0; i < 1000; i++) {
      const skill = skills[(f * 1000 + i) % skills.length];
      store.countRead({
        library: skill.library,
        skill: skill.address.join("/"),
        digest: "d",
        client: "team-0",
        surface: "tool",
        file: "SKILL.md",
      });
    }
    const start = performance.now();
    await store.flush();
    small.push(performance.now() - start);
  }
  const written = store.status().written;
  await store.close();
  dayFlushes.sort((a, b) => a - b);
  small.sort((a, b) => a - b);
  return {
    engine,
    reads: READS,
    days: DAYS,
    rows,
    written,
    tableMB: tableBytes / 1048576,
    tableMBPerMillionReads: tableBytes / 1048576 / (READS / 1e6),
    ...(size === undefined ? {} : { folderMB: size() / 1048576 }),
    dayFlush: { rows: Math.round(rows / DAYS), p50Ms: percentile(dayFlushes, 0.5), maxMs: dayFlushes.at(-1) },
    flush1000Rows: { p50Ms: percentile(small, 0.5), p90Ms: percentile(small, 0.9), maxMs: small.at(-1) },
  };
}

const pgliteDir = path.join(WORK, "month-pglite");
log("a month of reads on PGlite");
out.pglite = await month(
  "embedded",
  () => openEmbedded(pgliteDir),
  () => folderBytes(pgliteDir),
);

// PostgreSQL: the URL given, or a throwaway cluster on loopback (fsync on, as a server would run).
function postgresBin() {
  const root = "/usr/lib/postgresql";
  if (!fs.existsSync(root)) return null;
  const versions = fs.readdirSync(root).filter((v) => fs.existsSync(path.join(root, v, "bin", "initdb")));
  versions.sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? null : path.join(root, versions[0], "bin");
}
let stopCluster = () => undefined;
let url = args.postgres;
const bin = url === undefined ? postgresBin() : null;
if (url === undefined && bin !== null) {
  // Its own temporary folder: `nobody` must be able to reach it.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "skillshelf-bench-pg-"));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) fs.chownSync(dir, 65534, 65534);
  const run = (tool, toolArgs) =>
    execFileSync(asRoot ? "runuser" : path.join(bin, tool), asRoot ? ["-u", "nobody", "--", path.join(bin, tool), ...toolArgs] : toolArgs, {
      cwd: dir,
      stdio: "ignore",
    });
  const port = await freePort();
  run("initdb", ["-D", path.join(dir, "data"), "-U", "postgres", "--auth=trust", "-E", "UTF8"]);
  run("pg_ctl", [
    "-D",
    path.join(dir, "data"),
    "-l",
    path.join(dir, "log"),
    "-o",
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`,
    "-w",
    "start",
  ]);
  stopCluster = () => {
    run("pg_ctl", ["-D", path.join(dir, "data"), "-m", "fast", "-w", "stop"]);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  url = `postgres://postgres@127.0.0.1:${port}/postgres`;
}
if (url === undefined) out.postgresql = "left out: no --postgres=URL and no /usr/lib/postgresql/*/bin/initdb";
else {
  log("a month of reads on PostgreSQL");
  try {
    out.postgresql = await month("postgresql", () => openPostgres(url));
  } finally {
    stopCluster();
  }
}
fs.rmSync(WORK, { recursive: true, force: true });

const fmt = (x) => (typeof x === "number" ? (Math.abs(x) >= 100 ? Math.round(x).toString() : x.toFixed(2)) : String(x));
const lines = [
  `skills ${out.skills}, node ${out.node}, ${out.cpus} cpus, load ${out.loadavg.join(" ")}`,
  `reads/s in process off ${fmt(out.reads.offPerSec)}, on ${fmt(out.reads.onPerSec)} (${fmt(out.reads.overheadPct)}% less); one count ${fmt(out.reads.countMicros)} µs`,
  `resources/read/s over HTTP at 8 in flight off ${fmt(out.http.offPerSec)}, on ${fmt(out.http.onPerSec)} (${fmt(out.http.overheadPct)}% less: the median of ${ROUNDS} paired rounds, from ${fmt(out.http.roundOverheadsPct[0])}% to ${fmt(out.http.roundOverheadsPct.at(-1))}%)`,
];
for (const engine of [out.pglite, out.postgresql]) {
  if (typeof engine !== "object") continue;
  lines.push(
    `${engine.engine}: ${engine.rows} rows for ${engine.reads} reads over ${engine.days} days, usage_reads ${fmt(engine.tableMB)} MB` +
      `${engine.folderMB === undefined ? "" : ` (folder ${fmt(engine.folderMB)} MB)`}; flush of a day (${engine.dayFlush.rows} rows) p50 ${fmt(engine.dayFlush.p50Ms)} ms,` +
      ` of 1,000 rows p50 ${fmt(engine.flush1000Rows.p50Ms)} ms p90 ${fmt(engine.flush1000Rows.p90Ms)} ms`,
  );
}
log(lines.join("\n"));
process.stdout.write(`${JSON.stringify(out)}\n`);
process.exit(0);
