// What the scale section measures beside serving, on its big shelf: the capabilities an install channel adds (the
// discovery index the `skills` installer reads, a plugin's git repository as Claude Code clones it), and the
// references the 10,000-skill tables have — the floors and the SDK's skills server — so that a figure at 100,000
// skills gets a floor ratio and an SDK ratio too.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { GIT_ENV } from "../lib/proc.mjs";
import { floorSpec, peerLoadMs, peerSpec, startServer } from "../lib/servers.mjs";
import { floorEnvelope, floorReadBytes, firstListing, loadWorkload } from "./serve.mjs";

const run = promisify(execFile);
/** The SDK peer reads every skill into memory before it listens: minutes at 100,000 skills. */
const PEER_START_TIMEOUT_MS = 1_800_000;
/** How long an edit may take to show in the discovery index (a rebuild of the big shelf, then the index). */
const EDIT_TIMEOUT_MS = 120_000;

async function timedGet(url, headers = {}) {
  const t0 = performance.now();
  const response = await fetch(url, { headers });
  const body = new Uint8Array(await response.arrayBuffer());
  // fetch decodes a gzipped body: its size on the wire is the Content-Length the server sent.
  const length = response.headers.get("content-length");
  return {
    ms: performance.now() - t0,
    status: response.status,
    body,
    encoding: response.headers.get("content-encoding"),
    wireBytes: length === null ? null : Number(length),
  };
}

/** The discovery index of the whole shelf from the running HTTP server: the first request (every artifact made to
 *  know its digest), the same again (from the cache), one archive's artifact, and the first index after `skillMd`
 *  (a file of its own) is edited: polled until it changes, the request that made it timed. Null when the build
 *  has no index. */
export async function measureDiscovery(http, skillMd) {
  const url = `http://127.0.0.1:${http.port}/.well-known/agent-skills/index.json`;
  const first = await timedGet(url, { "accept-encoding": "identity" });
  if (first.status === 404) return null;
  if (first.status !== 200) throw new Error(`discovery index: HTTP ${first.status}: ${new TextDecoder().decode(first.body).slice(0, 300)}`);
  const index = JSON.parse(new TextDecoder().decode(first.body));
  const again = await timedGet(url, { "accept-encoding": "identity" });
  const gzipped = await timedGet(url, { "accept-encoding": "gzip" });
  const archive = index.skills?.find((entry) => entry.type === "archive") ?? index.skills?.[0];
  const artifact = archive === undefined ? null : await timedGet(new URL(archive.url, url).href);
  const edited = Date.now();
  fs.appendFileSync(skillMd, "\nOne more line.\n");
  let afterEdit = null;
  while (afterEdit === null && Date.now() - edited < EDIT_TIMEOUT_MS) {
    const next = await timedGet(url, { "accept-encoding": "identity" });
    if (Buffer.compare(next.body, first.body) !== 0) afterEdit = { ms: next.ms, sinceEditMs: Date.now() - edited };
    else await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    firstMs: first.ms,
    againMs: again.ms,
    entries: index.skills?.length ?? 0,
    archives: (index.skills ?? []).filter((entry) => entry.type === "archive").length,
    bytes: first.body.byteLength,
    gzipBytes: gzipped.encoding === "gzip" ? gzipped.wireBytes : null,
    artifact: artifact === null ? null : { ms: artifact.ms, status: artifact.status, bytes: artifact.body.byteLength },
    afterEdit,
  };
}

/** A shallow clone of one plugin's repository from the running HTTP server, as Claude Code makes it: the first
 *  (the repository's commit made from the shelf) and a second (made already). Null when the build has no routes. */
export async function measureGitClone(http, plugin, skills) {
  const url = `http://127.0.0.1:${http.port}/plugins/git/${plugin}/${plugin}.git`;
  const probe = await fetch(`${url}/info/refs?service=git-upload-pack`);
  await probe.arrayBuffer();
  if (probe.status === 404) return null;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "skillshelf-bench-clone-"));
  try {
    const clone = async (into) => {
      const t0 = performance.now();
      await run("git", ["clone", "--quiet", "--depth", "1", url, path.join(dir, into)], { env: GIT_ENV, maxBuffer: 16 * 1024 * 1024 });
      return performance.now() - t0;
    };
    const firstMs = await clone("a");
    const againMs = await clone("b");
    const files = (await run("git", ["ls-files"], { cwd: path.join(dir, "a"), env: GIT_ENV, maxBuffer: 256 * 1024 * 1024 })).stdout
      .split("\n")
      .filter(Boolean).length;
    return { plugin, skills, firstMs, againMs, files };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The floors at this size: the disk floor (walk, read and sha256 every file: what any harvest must do) and the
 *  floor server answering the read-mix over HTTP at 8 in flight with answers as large as skillshelf's. */
export async function measureFloors(ctx, shelfDir, workload, meanBytes) {
  const { projectRoot } = ctx;
  const disk = JSON.parse(
    (await run(process.execPath, [path.join(projectRoot, "bench/disk-floor.mjs"), shelfDir], { cwd: projectRoot, maxBuffer: 1024 * 1024 }))
      .stdout,
  );
  const probe = await startServer(floorSpec({ projectRoot, transport: "http", era: "modern", readBytes: 0 }));
  const envelope = await floorEnvelope(probe, workload.calls[0].params.uri);
  await probe.close();
  const server = await startServer(
    floorSpec({ projectRoot, transport: "http", era: "modern", readBytes: floorReadBytes(workload, meanBytes, envelope) }),
  );
  try {
    const load = await loadWorkload(server, workload, Math.max(...ctx.options.concurrency), ctx, { floor: true });
    return { diskMs: disk.ms, load, memory: server.memory() };
  } finally {
    await server.close();
  }
}

/** The SDK's skills server on the same shelf over HTTP: its start to the first listing, its memory, and the
 *  SKILL.md reads at 8 in flight (the one workload it can serve). */
export async function measurePeer(ctx, shelfDir, readSkillMd) {
  const peer = await startServer({
    ...(await peerSpec({ kit: ctx.kit, root: shelfDir, transport: "http", era: "modern" })),
    timeoutMs: PEER_START_TIMEOUT_MS,
  });
  try {
    const listing = await firstListing(peer);
    const out = {
      coldListingMs: listing.ms,
      load: peerLoadMs(peer.stderr()),
      listingRows: listing.rows,
      listingBytes: listing.bytes,
      rssMB: peer.memory()?.rssMB,
    };
    out.readSkillMd = await loadWorkload(peer, readSkillMd, Math.max(...ctx.options.concurrency), ctx, { peer: true });
    out.peakMB = peer.memory()?.peakMB;
    return out;
  } finally {
    await peer.close();
  }
}
