// search_skills on the generated shelf and on the labelled query sets: bench/search.mjs in its own process (it
// needs --expose-gc to weigh the index), on the build snapshot under test, after waiting for the machine to quiet.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { waitQuiet } from "../lib/proc.mjs";

export async function runSearchSuite(ctx, shelf) {
  const { projectRoot, appRoot, log, options } = ctx;
  log("search: index build, memory, query latency, ranking on the labelled sets");
  const quietMs = await waitQuiet({ maxMs: options.quietWaitMs });
  const script = path.join(projectRoot, "bench/search.mjs");
  const corpora = path.resolve(projectRoot, "../shared/corpora");
  const output = execFileSync(
    process.execPath,
    [
      "--expose-gc",
      script,
      `--config=${path.join(shelf.dir, "skillshelf.yaml")}`,
      `--dist=${path.join(appRoot, "dist")}`,
      `--corpora=${corpora}`,
    ],
    { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], maxBuffer: 16 * 1024 * 1024 },
  );
  return { ...JSON.parse(output), quietWaitedMs: quietMs };
}
