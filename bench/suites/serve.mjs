// Serving: cold start to the first complete listing (and a restart with the cache, when one is written), the
// listing's size, resources/read and skills/list throughput and latency over stdio and HTTP at 1 and 8
// concurrent requests, and peak RSS — skillshelf next to the floor and, where it can serve the same
// workload, the SDK's own skills server.
import fs from "node:fs";
import path from "node:path";
import { readMix, skillMdMix } from "../lib/mixes.mjs";
import { floorSpec, peerLoadMs, peerSpec, skillshelfSpec, startServer } from "../lib/servers.mjs";
import { waitIdle, waitQuiet, watchOthers } from "../lib/proc.mjs";
import { median, runLoad } from "../lib/stats.mjs";

/** Cores other processes may take during a load before it is measured again. */
const QUIET_CORES = 0.5;

/** Whether a reply is the expected one: a read's content, a not-found error, or a skills page. */
export function isExpected(reply, expect) {
  const message = reply.message;
  if (reply.status !== undefined && reply.status !== 200) return false;
  if (expect === "hit") return Array.isArray(message?.result?.contents) && message.result.contents.length > 0;
  if (expect === "miss") return message?.error?.code === -32602;
  if (expect === "list") return Array.isArray(message?.result?.skills);
  return message?.result !== undefined;
}

/** Closed-loop load of one workload on one server; the floor answers everything, so only "answered" counts. */
export async function loadWorkload(handle, workload, concurrency, ctx, { peer = false, floor = false } = {}) {
  const calls = peer ? workload.peerCalls : workload.calls;
  const prepared = calls.map((call) => handle.prepare(workload.method, call.params));
  const expectOf = (i) => (floor ? (workload.method === "skills/list" ? "list" : "hit") : calls[i].expect);
  const measure = async () => {
    await waitIdle(handle.pid);
    await waitQuiet({ pids: [handle.pid], maxMs: ctx.options.quietWaitMs });
    const watch = watchOthers([handle.pid]);
    const result = await runLoad(
      async (i) => {
        const k = i % prepared.length;
        try {
          const reply = await handle.send(prepared[k]);
          return { bytes: reply.bytes, ok: isExpected(reply, expectOf(k)) };
        } catch {
          return { bytes: 0, ok: false };
        }
      },
      { concurrency, durationMs: ctx.options.durationMs, warmupMs: ctx.options.warmupMs },
    );
    return { ...result, othersCores: watch.stop() };
  };
  // The machine is shared: a measurement that other processes disturbed is taken once more, and the quieter kept.
  let result = await measure();
  if (result.othersCores > QUIET_CORES) {
    const again = await measure();
    if (again.othersCores < result.othersCores) result = again;
  }
  const othersCores = result.othersCores;
  const row = {
    server: handle.name,
    transport: handle.transport,
    era: handle.transport === "http" ? handle.era : "legacy",
    workload: workload.id,
    ...result,
  };
  ctx.log(
    `  ${row.server} ${row.transport}${handle.transport === "http" ? `/${row.era}` : ""} ${row.workload} ×${concurrency}: ${Math.round(row.perSecond)}/s p50 ${row.p50Ms.toFixed(2)} ms p99 ${row.p99Ms.toFixed(2)} ms${row.failures ? ` FAILURES ${row.failures}` : ""}${othersCores > 0.2 ? ` (other processes used ${othersCores.toFixed(1)} cores)` : ""}`,
  );
  return row;
}

/** The bytes of a floor server's answer to a read of `uri` with an empty body, less the URI it echoes: what every
 *  answer of that transport and era carries besides its body. */
export async function floorEnvelope(probe, uri) {
  return (await probe.send(probe.prepare("resources/read", { uri }))).bytes - uri.length;
}

/** The floor's read body for `workload`: skillshelf's mean answer on it (`meanBytes`) less the floor's envelope (its
 *  answer with an empty body, less the URI it echoes) and the workload's mean URI length, so that both send as many
 *  bytes per answer. */
export function floorReadBytes(workload, meanBytes, envelope) {
  const uriLength = workload.calls.reduce((sum, call) => sum + (call.params.uri?.length ?? 0), 0) / workload.calls.length;
  return Math.max(0, (meanBytes ?? 0) - envelope - uriLength);
}

/** Walk skills/list to the end: the cursors of every page, the first page's result, the time it took. */
export async function walkSkills(handle) {
  const t0 = performance.now();
  const cursors = [null];
  let first = null;
  let skills = 0;
  for (let cursor = null; ;) {
    const reply = await handle.send(handle.prepare("skills/list", cursor === null ? {} : { cursor }));
    const result = reply.message?.result;
    if (!result) throw new Error(`skills/list failed: ${JSON.stringify(reply.message?.error ?? reply.message)}`);
    first ??= result;
    skills += result.skills.length;
    if (result.nextCursor === undefined || cursors.length > 10_000) break;
    cursor = result.nextCursor;
    cursors.push(cursor);
  }
  return { ms: performance.now() - t0, cursors, first, skills };
}

/** resources/list, timed from the process spawn: the first complete listing. With `retry408`, a request the server
 *  cut off with 408 (its event loop was busy past its headers timeout) is sent again, as a client would, and
 *  counted in `refused`. */
export async function firstListing(handle, { retry408 = false } = {}) {
  let reply = await handle.send(handle.prepare("resources/list", {}));
  let refused = 0;
  while (retry408 && reply.status === 408 && refused < 20) {
    refused++;
    reply = await handle.send(handle.prepare("resources/list", {}));
  }
  const doneMs = performance.now() - handle.t0;
  const result = reply.message?.result;
  if (!result)
    throw new Error(
      `resources/list failed${reply.status === undefined ? "" : ` (HTTP ${reply.status})`}: ${JSON.stringify(reply.message)}; the server's stderr ends: ${String(handle.stderr?.() ?? "").slice(-600)}`,
    );
  const resultBytes = Buffer.byteLength(JSON.stringify({ resources: result.resources }));
  return { ms: doneMs, rows: result.resources.length, bytes: resultBytes, wireBytes: reply.bytes, refused };
}

function dirHasFiles(dir) {
  try {
    return fs.readdirSync(dir, { recursive: true }).length > 0;
  } catch {
    return false;
  }
}

export function workloadsFor(manifest, options) {
  const reads = readMix(manifest, options.serveUris, options.seed + 10);
  const skillMds = skillMdMix(manifest, options.serveUris, options.seed + 11);
  return {
    readMix: { id: "read-mix", method: "resources/read", calls: reads.map((e) => ({ params: { uri: e.uri }, expect: e.expect })) },
    readSkillMd: {
      id: "read-skillmd",
      method: "resources/read",
      calls: skillMds.map((e) => ({ params: { uri: e.uri }, expect: "hit" })),
      peerCalls: skillMds.map((e) => ({ params: { uri: e.peerUri }, expect: "hit" })),
    },
  };
}

export async function runServeSuite(ctx, shelf) {
  const { projectRoot, workDir, log, options, kit } = ctx;
  const n = shelf.manifest.params.n;
  const config = path.join(shelf.dir, shelf.manifest.config);
  const { readMix: mixWorkload, readSkillMd } = workloadsFor(shelf.manifest, options);
  const out = { n, cold: [], warm: [], loads: [], memory: {}, listing: {} };
  const cacheDir = path.join(workDir, `cache-${n}`);
  const ours = (transport, era) =>
    skillshelfSpec({
      projectRoot,
      appRoot: ctx.appRoot,
      config,
      transport,
      era,
      extraArgs: ["--cache-dir", cacheDir],
      nodeArgs: ctx.nodeArgs("server"),
    });

  // Cold starts over stdio (the cache directory emptied each time), then restarts with the cache it wrote.
  log(`serve ${n}: cold start to the first complete listing, ${options.coldRuns}× over stdio`);
  let stdio = null;
  let skillsWalk = null;
  for (let run = 0; run < options.coldRuns; run++) {
    fs.rmSync(cacheDir, { recursive: true, force: true });
    const watch = watchOthers([]);
    const handle = await startServer(ours("stdio"));
    const listing = await firstListing(handle);
    const othersCores = watch.stop([handle.pid]);
    const walk = await walkSkills(handle);
    out.cold.push({ listingMs: listing.ms, skillsWalkedMs: listing.ms + walk.ms, peakMB: handle.memory()?.peakMB, othersCores });
    out.listing = { rows: listing.rows, bytes: listing.bytes, wireBytes: listing.wireBytes };
    skillsWalk = {
      pages: walk.cursors.length,
      skills: walk.skills,
      ms: walk.ms,
      firstPageBytes: Buffer.byteLength(JSON.stringify(walk.first)),
    };
    fs.writeFileSync(path.join(workDir, `skills-page-${n}.json`), JSON.stringify(walk.first));
    fs.writeFileSync(path.join(workDir, `skills-cursors-${n}.json`), JSON.stringify(walk.cursors));
    if (run === options.coldRuns - 1) stdio = handle;
    else await handle.close();
  }
  out.skillsWalk = skillsWalk;
  out.cacheWritten = dirHasFiles(cacheDir);
  if (out.cacheWritten) {
    await stdio.close();
    for (let run = 0; run < options.coldRuns; run++) {
      const handle = await startServer(ours("stdio"));
      const listing = await firstListing(handle);
      out.warm.push({ listingMs: listing.ms });
      if (run === options.coldRuns - 1) stdio = handle;
      else await handle.close();
    }
  }
  // The same cold start with every plugin's `watch: false`: what the watcher's initial scan adds.
  const noWatch = path.join(workDir, `skillshelf-nowatch-${n}.yaml`);
  fs.writeFileSync(
    noWatch,
    fs
      .readFileSync(config, "utf8")
      .replace(/^(\s+)source: (.*)$/gm, "$1source: $2\n$1watch: false")
      .replace(/source: \.\//g, `source: ${shelf.dir}/`),
  );
  {
    const handle = await startServer(
      skillshelfSpec({ projectRoot, appRoot: ctx.appRoot, config: noWatch, transport: "stdio", nodeArgs: ctx.nodeArgs("server") }),
    );
    const listing = await firstListing(handle);
    out.coldNoWatch = { listingMs: listing.ms, memory: handle.memory() };
    await handle.close();
  }
  out.coldMedianMs = median(out.cold.map((r) => r.listingMs));
  out.coldSkillsMedianMs = median(out.cold.map((r) => r.skillsWalkedMs));
  out.warmMedianMs = out.warm.length ? median(out.warm.map((r) => r.listingMs)) : null;

  const cursors = JSON.parse(fs.readFileSync(path.join(workDir, `skills-cursors-${n}.json`), "utf8"));
  const skillsWorkload = {
    id: "skills-list",
    method: "skills/list",
    calls: cursors.map((cursor) => ({ params: cursor === null ? {} : { cursor }, expect: "list" })),
  };
  const skillsFile = path.join(workDir, `skills-page-${n}.json`);
  const workloads = [mixWorkload, readSkillMd, skillsWorkload];
  const levels = options.concurrency;

  // skillshelf over stdio, then over HTTP in both eras.
  log(`serve ${n}: skillshelf over stdio`);
  const meanBytes = {};
  for (const workload of workloads) {
    for (const c of levels) {
      const row = await loadWorkload(stdio, workload, c, ctx);
      out.loads.push(row);
      if (c === Math.max(...levels)) meanBytes[`stdio/legacy/${workload.id}`] = row.meanBytes;
    }
  }
  out.memory.skillshelfStdio = stdio.memory();
  await stdio.close();

  log(`serve ${n}: skillshelf over HTTP`);
  // A cold start: without the harvest record the stdio runs wrote (with it, this would be a restart).
  fs.rmSync(cacheDir, { recursive: true, force: true });
  const http = await startServer(ours("http", "modern"));
  out.httpCold = { listingMs: (await firstListing(http)).ms, readyMs: http.readyMs };
  for (const workload of workloads) {
    for (const c of levels) {
      const row = await loadWorkload(http, workload, c, ctx);
      out.loads.push(row);
      if (c === Math.max(...levels)) meanBytes[`http/modern/${workload.id}`] = row.meanBytes;
    }
  }
  const legacy = http.withEra("legacy");
  for (const workload of [mixWorkload, readSkillMd]) {
    const row = await loadWorkload(legacy, workload, Math.max(...levels), ctx);
    out.loads.push(row);
    meanBytes[`http/legacy/${workload.id}`] = row.meanBytes;
  }
  await legacy.close();
  out.memory.skillshelfHttp = http.memory();
  await http.close();

  // The floor, with a read body as large as skillshelf's mean answer on the same workload and transport; it does
  // not change with the build, so it is measured beside this checkout's build only (not a --baseline's).
  if (ctx.references !== false) {
    log(`serve ${n}: the floor`);
    const envelope = {};
    for (const [transport, era] of [
      ["stdio", "legacy"],
      ["http", "modern"],
      ["http", "legacy"],
    ]) {
      const probe = await startServer(floorSpec({ projectRoot, transport, era, readBytes: 0 }));
      if (transport === "stdio") out.floorCold = { listingMs: (await firstListing(probe)).ms };
      envelope[`${transport}/${era}`] = await floorEnvelope(probe, mixWorkload.calls[0].params.uri);
      await probe.close();
    }
    const floorRuns = [
      ["stdio", "legacy", workloads, levels],
      ["http", "modern", workloads, levels],
      ["http", "legacy", [mixWorkload, readSkillMd], [Math.max(...levels)]],
    ];
    for (const [transport, era, list, conc] of floorRuns) {
      for (const workload of list) {
        const readBytes = floorReadBytes(workload, meanBytes[`${transport}/${era}/${workload.id}`], envelope[`${transport}/${era}`]);
        const handle = await startServer(floorSpec({ projectRoot, transport, era, readBytes, skillsFile }));
        for (const c of conc) out.loads.push(await loadWorkload(handle, workload, c, ctx, { floor: true }));
        out.memory[`floor-${transport}`] = handle.memory();
        await handle.close();
      }
    }
  }

  // The SDK's skills server over HTTP (its load dominates its start: 40-60 s at 10k), reading the same SKILL.md files.
  if (kit.script) {
    log(`serve ${n}: the SDK skills server over HTTP (its start loads every skill)`);
    const peer = await startServer(await peerSpec({ kit, root: shelf.dir, transport: "http", era: "modern" }));
    const listing = await firstListing(peer);
    const peerSkills = await peer.send(peer.prepare("skills/list", {}));
    out.peer = {
      coldListingMs: listing.ms,
      load: peerLoadMs(peer.stderr()),
      listingRows: listing.rows,
      listingBytes: listing.bytes,
      skillsListBytes: peerSkills.bytes,
      skills: peerSkills.message?.result?.skills?.length,
      memoryAfterStart: peer.memory(),
    };
    for (const c of levels) out.loads.push(await loadWorkload(peer, readSkillMd, c, ctx, { peer: true }));
    const peerLegacy = peer.withEra("legacy");
    out.loads.push(await loadWorkload(peerLegacy, readSkillMd, Math.max(...levels), ctx, { peer: true }));
    await peerLegacy.close();
    out.memory.peerHttp = peer.memory();
    await peer.close();
    if (options.peerStdio) {
      log(`serve ${n}: the SDK skills server over stdio`);
      const peerStdio = await startServer(await peerSpec({ kit, root: shelf.dir, transport: "stdio" }));
      for (const c of levels) out.loads.push(await loadWorkload(peerStdio, readSkillMd, c, ctx, { peer: true }));
      out.memory.peerStdio = peerStdio.memory();
      await peerStdio.close();
    }
  }
  return out;
}
