// Where git fetches live when no --cache-dir is given: the user's cache directory, as the XDG spec names it.
import path from "node:path";

/** `$XDG_CACHE_HOME/skillshelf` when that is an absolute path, else `<home>/.cache/skillshelf`. */
export function defaultCacheDir(env: NodeJS.ProcessEnv, home: string): string {
  const xdg = env.XDG_CACHE_HOME;
  // The XDG spec: a relative value is invalid and must be ignored.
  if (xdg !== undefined && xdg !== "" && path.isAbsolute(xdg)) return path.join(xdg, "skillshelf");
  return path.join(home, ".cache", "skillshelf");
}
