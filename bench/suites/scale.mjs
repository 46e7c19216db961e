// One server on a big shelf (made for `--sections=scale --n=100000`), from its cold start to a restart: over HTTP
// the first complete listing and its size, skills/list walked to the end, the first search_skills (it builds the
// index) and its p99 once built, 8-way read-mix load with RSS sampled meanwhile (steady = the median sample, peak
// = the kernel's high-water mark) and 8-way SKILL.md reads; the discovery index of the whole shelf and a shallow
// clone of one plugin's repository; then a restart on the cache it wrote, over stdio, and an edit of a subscribed
// SKILL.md → the first notification. Beside this build only: the floors and the SDK's skills server on the same
// shelf (scale-extra.mjs). It all runs on a copy of the shelf made of hard links (`cp -al`: the same inodes, so the
// same bytes in the page cache, and no 1.5 GB to copy at 100,000 skills), in which the one file the edit rewrites
// is a file of its own: the generated shelf, which other runs reuse, is never written.
// --cold-disk: one more cold start at the end, after dropping the page cache (bench/lib/page-cache.mjs).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { dropPageCache } from "../lib/page-cache.mjs";
import { memoryOf, waitIdle, watchOthers } from "../lib/proc.mjs";
import { createRandom } from "../lib/random.mjs";
import { skillshelfSpec, startServer } from "../lib/servers.mjs";
import { median, percentile } from "../lib/stats.mjs";
import { measureChanges } from "./change.mjs";
import { measureDiscovery, measureFloors, measureGitClone, measurePeer } from "./scale-extra.mjs";
import { firstListing, loadWorkload, walkSkills, workloadsFor } from "./serve.mjs";

const SEARCH_QUERIES = 300;
const RSS_SAMPLE_MS = 250;
/** A big shelf's server finishes its start (watches, the catch-up rescan) well after its first listing. */
const IDLE_WAIT_MS = 180_000;
const START_TIMEOUT_MS = 1_800_000;

/** `count` queries of one to three words of the shelf's descriptions, the same for every build. */
export function searchQueries(manifest, count, seed) {
  const random = createRandom(seed);
  const words = [
    ...new Set(
      manifest.skills
        .slice(0, 2000)
        .flatMap((s) => s.description.toLowerCase().split(/[^a-z]+/))
        .filter((w) => w.length > 3),
    ),
  ].sort();
  return Array.from({ length: count }, (_, i) => Array.from({ length: 1 + (i % 3) }, () => random.pick(words)).join(" "));
}

async function searchOnce(handle, query) {
  const prepared = handle.prepare("tools/call", { name: "search_skills", arguments: { query } });
  const t0 = performance.now();
  const reply = await handle.send(prepared);
  const ms = performance.now() - t0;
  const result = reply.message?.result;
  if (!result || result.isError) throw new Error(`search_skills "${query}" failed: ${JSON.stringify(reply.message).slice(0, 300)}`);
  return ms;
}

export async function runScaleSuite(ctx, shelf, { coldDisk = false } = {}) {
  const { workDir, log } = ctx;
  const n = shelf.manifest.params.n;
  const root = path.join(workDir, `scale-shelf-${n}`);
  const config = path.join(root, shelf.manifest.config);
  const cacheDir = path.join(workDir, `scale-cache-${n}`);
  const skill = shelf.manifest.skills.find((s) => s.served && s.address.length === 1 && !s.files.includes("link.md"));
  const skillMd = path.join(root, skill.lib, skill.dir, "SKILL.md");
  fs.rmSync(root, { recursive: true, force: true });
  const t0 = performance.now();
  try {
    execFileSync("cp", ["-al", shelf.dir, root], { stdio: ["ignore", "ignore", "pipe"] });
  } catch (error) {
    fs.rmSync(root, { recursive: true, force: true });
    throw new Error(
      `scale: could not link a copy of ${shelf.dir} into ${root} (cp -al; both must be on one filesystem): ${String(error.stderr).trim()}`,
    );
  }
  fs.copyFileSync(skillMd, `${skillMd}.own`);
  fs.renameSync(`${skillMd}.own`, skillMd);
  log(`scale ${n}: linked a copy of the shelf in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  try {
    return await measure(
      ctx,
      {
        n,
        root,
        config,
        cacheDir,
        skill,
        skillMd,
        coldDisk,
        out: { n, files: shelf.manifest.stats.files, bytes: shelf.manifest.stats.bytes },
      },
      shelf.manifest,
    );
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(cacheDir, { recursive: true, force: true });
  }
}

async function measure(ctx, { n, root, config, cacheDir, skill, skillMd, coldDisk, out }, manifest) {
  const { projectRoot, log, options } = ctx;
  // skillshelf logs its listening line once the shelf is built: minutes at 100,000 skills on 2 shared cores.
  const spec = (transport) => ({
    timeoutMs: START_TIMEOUT_MS,
    ...skillshelfSpec({
      projectRoot,
      appRoot: ctx.appRoot,
      config,
      transport,
      era: "modern",
      extraArgs: ["--cache-dir", cacheDir],
      nodeArgs: ctx.nodeArgs("server"),
    }),
  });

  const { readMix: workload, readSkillMd } = workloadsFor(manifest, options);

  // 1. Cold start over HTTP: no harvest record; the shelf in the page cache (the cold disk comes last).
  fs.rmSync(cacheDir, { recursive: true, force: true });
  log(`scale ${n}: cold start over HTTP to the first complete listing`);
  const watch = watchOthers([]);
  const http = await startServer(spec("http"));
  const listing = await firstListing(http, { retry408: true });
  out.cold = {
    listingMs: listing.ms,
    readyMs: http.readyMs,
    listingBytes: listing.bytes,
    rows: listing.rows,
    rssMB: http.memory()?.rssMB,
    refused408: listing.refused,
    othersCores: watch.stop([http.pid]),
  };
  log(`scale ${n}: first listing ${listing.ms.toFixed(0)} ms, ${listing.rows} rows, ${listing.bytes} B`);

  try {
    // 2. skills/list walked to the end once the server has finished its start (before, at 100,000 skills its busy
    // event loop cuts requests off with 408).
    await waitIdle(http.pid, { maxMs: IDLE_WAIT_MS });
    const walk = await walkSkills(http);
    out.skillsWalk = { pages: walk.cursors.length, skills: walk.skills, ms: walk.ms };
    log(`scale ${n}: skills/list walked: ${walk.skills} skills in ${walk.cursors.length} pages, ${walk.ms.toFixed(0)} ms`);

    // 3. search_skills: the first call builds the index; then one call per query, one at a time.
    // A build older than the tool (a baseline) has none: the rest of the section is still measured.
    const queries = searchQueries(manifest, SEARCH_QUERIES, options.seed);
    const tools = await http.send(http.prepare("tools/list", {}));
    if (!(tools.message?.result?.tools ?? []).some((tool) => tool.name === "search_skills")) {
      log(`scale ${n}: this build has no search_skills tool: not measured`);
    } else {
      const firstMs = await searchOnce(http, queries[0]);
      const samples = [];
      for (const query of queries) samples.push(await searchOnce(http, query));
      samples.sort((a, b) => a - b);
      out.search = { firstMs, queries: samples.length, p50Ms: percentile(samples, 0.5), p99Ms: percentile(samples, 0.99) };
      log(`scale ${n}: first search_skills ${firstMs.toFixed(0)} ms, then p99 ${out.search.p99Ms.toFixed(1)} ms`);
    }

    // 4. 8-way read-mix load over HTTP, RSS sampled meanwhile; then the SKILL.md reads the SDK peer can serve too.
    const rss = [];
    const sampler = setInterval(() => {
      const m = memoryOf(http.pid);
      if (m) rss.push(m.rssMB);
    }, RSS_SAMPLE_MS);
    try {
      out.load = await loadWorkload(http, workload, Math.max(...options.concurrency), ctx);
    } finally {
      clearInterval(sampler);
    }
    out.memory = {
      steadyMB: rss.length ? median(rss) : null,
      maxSampledMB: rss.length ? Math.max(...rss) : null,
      samples: rss.length,
      peakMB: http.memory()?.peakMB,
    };
    out.readSkillMd = await loadWorkload(http, readSkillMd, Math.max(...options.concurrency), ctx);

    // 5. What the install channels cost at this size: the discovery index of the whole shelf (the `skills`
    // installer's first request), and a shallow clone of one plugin's repository (Claude Code's install).
    log(`scale ${n}: the discovery index of the whole shelf, first and again`);
    out.discovery = await measureDiscovery(http, skillMd);
    if (out.discovery === null) log(`scale ${n}: this build serves no discovery index: not measured`);
    const plugin = skill.lib;
    const pluginSkills = manifest.skills.filter((s) => s.served && s.lib === plugin).length;
    log(`scale ${n}: a shallow clone of plugin ${plugin} (${pluginSkills} skills), first and again`);
    out.git = await measureGitClone(http, plugin, pluginSkills);
    if (out.git === null) log(`scale ${n}: this build serves no plugin repositories: not measured`);
  } finally {
    out.peakAfterChannelsMB = http.memory()?.peakMB;
    await http.close();
  }

  // 6. A restart on the cache the HTTP server wrote, over stdio (the transport that carries notifications).
  log(`scale ${n}: restart with the cache, over stdio`);
  const stdio = await startServer(spec("stdio"));
  try {
    const restart = await firstListing(stdio);
    out.restart = { listingMs: restart.ms, rows: restart.rows };
    // 7. Once its start has settled (watches set up, the record verified against the disk): edit → notification.
    await waitIdle(stdio.pid, { maxMs: IDLE_WAIT_MS });
    log(`scale ${n}: edit a subscribed SKILL.md, add a skill`);
    const change = await measureChanges(stdio, root, skill, (s) => `skill://${s.lib}/${s.address.join("/")}/SKILL.md`);
    out.change = { edit: change.edit, add: change.add };
  } finally {
    out.restartMemory = stdio.memory();
    await stdio.close();
  }

  // 8. The references, beside this build only: the floors, and the SDK's skills server on the same shelf.
  if (ctx.references) {
    log(`scale ${n}: the floors (disk, and the floor server's read-mix at the same answer size)`);
    out.floor = await measureFloors(ctx, root, workload, out.load.meanBytes);
    if (ctx.kit.script) {
      log(`scale ${n}: the SDK skills server over HTTP (its start reads every skill)`);
      try {
        out.peer = await measurePeer(ctx, root, readSkillMd);
      } catch (error) {
        out.peer = { error: String(error.message ?? error).split("\n")[0] };
        log(`scale ${n}: the SDK skills server failed: ${out.peer.error}`);
      }
    }
  }

  // 9. With --cold-disk, one more cold start after dropping the page cache (last: it disturbs the whole machine).
  if (coldDisk) {
    fs.rmSync(cacheDir, { recursive: true, force: true });
    log(`scale ${n}: dropping the page cache (--cold-disk), then a cold start over HTTP`);
    dropPageCache();
    const cold = await startServer(spec("http"));
    try {
      const listing = await firstListing(cold, { retry408: true });
      out.coldDisk = { listingMs: listing.ms, readyMs: cold.readyMs, rssMB: cold.memory()?.rssMB };
    } finally {
      await cold.close();
    }
  }
  return out;
}
