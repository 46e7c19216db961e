// What counting uses costs: bench/usage.mjs in its own process on the run's build and the run's shelf, after the
// machine quiets. Reads/s with counting off and on (in process, and over HTTP at 8 in flight in paired rounds), the
// store's size per million reads, and the flush latency on PGlite and, when a cluster can be made, PostgreSQL.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { waitQuiet } from "../lib/proc.mjs";

/** The script's flags for a full run and for --quick (fewer and shorter rounds, a smaller month of reads). */
export function usageFlags(quick) {
  return quick
    ? { rounds: 3, "round-reads": 5000, "http-ms": 1500, reads: 100_000, days: 3 }
    : { rounds: 9, "round-reads": 20_000, "http-ms": 5000, reads: 1_000_000, days: 30 };
}

export async function runUsageSuite(ctx, shelf, { quick }) {
  const { projectRoot, appRoot, log, options } = ctx;
  const flags = usageFlags(quick);
  log(
    `usage: reads/s with counting off and on (${flags.rounds} paired rounds over HTTP of ${flags["http-ms"] / 1000} s each), ` +
      `a month of ${flags.reads.toLocaleString("en-US")} reads on PGlite and PostgreSQL`,
  );
  const quietMs = await waitQuiet({ maxMs: options.quietWaitMs });
  const output = execFileSync(
    process.execPath,
    [
      path.join(projectRoot, "bench/usage.mjs"),
      `--config=${path.join(shelf.dir, shelf.manifest.config)}`,
      `--dist=${path.join(appRoot, "dist")}`,
      `--seed=${options.seed}`,
      ...Object.entries(flags).map(([key, value]) => `--${key}=${value}`),
    ],
    { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], maxBuffer: 16 * 1024 * 1024 },
  );
  return { ...JSON.parse(output), quietWaitedMs: quietMs };
}
