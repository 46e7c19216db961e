// The discovery index and artifacts on the generated shelf, and a full install by the real `skills` installer of
// the 1,000-skill shelf: bench/discovery.mjs in its own process (it needs --expose-gc), after the machine quiets.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { waitQuiet } from "../lib/proc.mjs";

export async function runDiscoverySuite(ctx, shelf, installShelf) {
  const { projectRoot, appRoot, log, options } = ctx;
  log("discovery: index cold, cached and after an edit; artifacts; a full skills add on loopback");
  const quietMs = await waitQuiet({ maxMs: options.quietWaitMs });
  const output = execFileSync(
    process.execPath,
    [
      "--expose-gc",
      path.join(projectRoot, "bench/discovery.mjs"),
      `--config=${path.join(shelf.dir, "skillshelf.yaml")}`,
      `--install=${path.join(installShelf.dir, "skillshelf.yaml")}`,
      `--dist=${path.join(appRoot, "dist")}`,
    ],
    { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], maxBuffer: 16 * 1024 * 1024 },
  );
  return { ...JSON.parse(output), quietWaitedMs: quietMs };
}
