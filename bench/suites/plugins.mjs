// Plugin repositories over git smart HTTP: bench/plugins.mjs in its own process on the run's copy of dist/, after
// the machine quiets: the first clone of a plugin of 100 skills, a cached re-clone, an incremental fetch after one
// edit (the pack bytes sent, shallow and full clones), and the disk a repository takes per 1,000 skills.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { waitQuiet } from "../lib/proc.mjs";

export async function runPluginsSuite(ctx) {
  const { projectRoot, appRoot, log, options } = ctx;
  log("plugins: clone of a 100-skill plugin, re-clone, fetch after one edit, disk per 1,000 skills");
  const quietMs = await waitQuiet({ maxMs: options.quietWaitMs });
  const output = execFileSync(
    process.execPath,
    [path.join(projectRoot, "bench/plugins.mjs"), "--skills=100", "--disk-skills=1000", `--dist=${path.join(appRoot, "dist")}`],
    { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], maxBuffer: 16 * 1024 * 1024 },
  );
  return { ...JSON.parse(output), quietWaitedMs: quietMs };
}
