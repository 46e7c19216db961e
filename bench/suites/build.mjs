// Harvest + build and the pure resolver, per shelf size: each in a fresh child (bench/inproc.mjs) so the first
// build is cold, next to the disk floor (bench/disk-floor.mjs: read + sha256 every file) and, for the load
// time, the SDK peer's own `loadSkills` (from its log line).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { readMix } from "../lib/mixes.mjs";
import { watchOthers } from "../lib/proc.mjs";
import { peerLoadMs, peerSpec, startServer } from "../lib/servers.mjs";

function runJson(args, { cwd }) {
  const out = execFileSync(process.execPath, args, {
    cwd,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    stdio: ["ignore", "pipe", "pipe"],
  });
  return JSON.parse(out.trim().split("\n").pop());
}

export async function runBuildSuite(ctx, shelf) {
  const { projectRoot, workDir, log, options, kit } = ctx;
  const n = shelf.manifest.params.n;
  const mixFile = path.join(workDir, `resolve-mix-${n}.json`);
  fs.writeFileSync(mixFile, JSON.stringify(readMix(shelf.manifest, options.resolveUris, options.seed)));
  const config = path.join(shelf.dir, shelf.manifest.config);

  // The disk floor before and after the harvest, keeping the faster: whichever runs first may be the one that
  // pulls the tree back into the page cache (the change suite's copies can push it out).
  const watch = watchOthers([]);
  const diskFloor = () => runJson([path.join(projectRoot, "bench/disk-floor.mjs"), shelf.dir], { cwd: projectRoot });
  log(`build ${n}: disk floor (walk, read and hash every file)`);
  const before = diskFloor();
  log(`build ${n}: harvest + build in a fresh process, the resolver, a rebuild`);
  const inproc = runJson(
    [
      ...ctx.nodeArgs("inproc"),
      "--expose-gc",
      path.join(projectRoot, "bench/inproc.mjs"),
      `--config=${config}`,
      `--mix=${mixFile}`,
      `--passes=${options.resolvePasses}`,
      "--rebuild",
      `--dist=${path.join(ctx.appRoot, "dist")}`,
    ],
    { cwd: projectRoot },
  );
  const after = diskFloor();
  const disk = after.ms < before.ms ? after : before;
  const othersCores = watch.stop();
  if (othersCores > 0.2) log(`build ${n}: other processes used ${othersCores.toFixed(1)} cores meanwhile`);

  // The peer's load time at this size, unless the serving suite starts it here anyway (it logs the same line).
  let peer = null;
  if (kit.script && !ctx.peerStartsAt(n)) {
    log(`build ${n}: the SDK peer's loadSkills`);
    const server = await startServer(await peerSpec({ kit, root: shelf.dir, transport: "stdio" }));
    peer = peerLoadMs(server.stderr());
    await server.close();
  }
  return {
    n,
    files: shelf.manifest.stats.files,
    bytes: shelf.manifest.stats.bytes,
    served: shelf.manifest.stats.served,
    inproc,
    disk,
    peer,
    othersCores,
  };
}
