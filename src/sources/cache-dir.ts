// Where git fetches live when no --cache-dir is given: the user's cache directory, as the XDG spec names it.
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { describeErrorCode } from "../address/index.js";

/** `$XDG_CACHE_HOME/skillshelf` when that is an absolute path, else `<home>/.cache/skillshelf`. */
export function defaultCacheDir(env: NodeJS.ProcessEnv, home: string): string {
  const xdg = env.XDG_CACHE_HOME;
  // The XDG spec: a relative value is invalid and must be ignored.
  if (xdg !== undefined && xdg !== "" && path.isAbsolute(xdg)) return path.join(xdg, "skillshelf");
  return path.join(home, ".cache", "skillshelf");
}

/** Why `dir` cannot hold the cache (an errno code: EACCES, ENOTDIR, …, with its cause when an operator fixes it
 *  outside: `ENOSPC: the disk is full`), or undefined when it can: the
 *  directory is created if missing and a probe file is written and removed. */
export async function cacheDirProblem(dir: string): Promise<string | undefined> {
  try {
    await mkdir(dir, { recursive: true });
    const probe = path.join(dir, `.write-probe-${process.pid}`);
    await writeFile(probe, "");
    await rm(probe, { force: true });
    return undefined;
  } catch (error) {
    return describeErrorCode(error);
  }
}
