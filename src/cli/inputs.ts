// What a command is given: the config (a file, or directories served without one) and the cache directory, read from
// the flags and the environment, each mistake a usage error naming the flag or variable.
import { statSync } from "node:fs";
import os from "node:os";
import { type Config, configFromDirectories, ConfigInvalidError, loadConfig, type Naming } from "../config/index.js";
import { cacheDirProblem, defaultCacheDir } from "../sources/index.js";
import { setting as settingOf, sourceOf, UsageError, type Values } from "../settings.js";
import type { CommandSpec } from "../usage.js";

function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/** What the operator set for `name`: the flag, else its environment variable. */
export function setting(command: CommandSpec, values: Values, name: string): string | undefined {
  return settingOf(command, values, name, process.env);
}

export async function readConfig(command: CommandSpec, values: Values, dirs: readonly string[]): Promise<Config> {
  const file = setting(command, values, "config");
  if (file !== undefined && dirs.length > 0) {
    // The config may come from the environment (a container's SKILLSHELF_CONFIG): say which one was given.
    const from = sourceOf(command, values, "config");
    throw new UsageError(
      [
        from === "--config"
          ? "give either --config FILE or directories, not both"
          : `${from} names a config file, and directories were given too: unset ${from} to serve directories, or give no directories`,
      ],
      command,
    );
  }
  // With a config file each plugin and library says its own naming policy.
  const naming = setting(command, values, "naming");
  if (file !== undefined && naming !== undefined)
    throw new UsageError(["--naming applies to directories; a config file sets naming per plugin"], command);
  if (file !== undefined) return loadConfig(file);
  if (dirs.length === 0) throw new UsageError(["give --config FILE (or SKILLSHELF_CONFIG), or one or more skill directories"], command);
  if (naming !== undefined && naming !== "lenient" && naming !== "strict")
    throw new UsageError([`${sourceOf(command, values, "naming")} must be lenient or strict, not '${naming}'`], command);
  // A mistyped directory would otherwise start a server that serves nothing.
  const missing = dirs.filter((dir) => !isDirectory(dir));
  if (missing.length > 0)
    throw new UsageError(
      missing.map((dir) => `'${dir}' is not a directory: give skill directories, or --config FILE`),
      command,
    );
  const result = configFromDirectories(dirs, process.cwd(), (naming ?? "lenient") as Naming);
  if (!result.ok) throw new ConfigInvalidError(result.errors);
  return result.config;
}

/** Where git fetches are cached: --cache-dir, SKILLSHELF_CACHE_DIR, else the user's cache directory. */
export function cacheDirOf(command: CommandSpec, values: Values): string {
  return setting(command, values, "cache-dir") ?? defaultCacheDir(process.env, os.homedir());
}

/** The cache directory if it can be written. One given by the operator that cannot is a usage error; the default
 *  that cannot (a service user without a writable home) is one warning, and the server runs without a record:
 *  git clones go to a private temporary directory and local harvests are not recorded. */
export async function usableCacheDir(
  command: CommandSpec,
  values: Values,
  dir: string,
  warn: (message: string, fields: Record<string, string>) => void,
): Promise<string | undefined> {
  const problem = await cacheDirProblem(dir);
  if (problem === undefined) return dir;
  if (setting(command, values, "cache-dir") !== undefined) {
    throw new UsageError([`${sourceOf(command, values, "cache-dir")}: the directory ${dir} cannot be written (${problem})`], command);
  }
  warn("cache directory not writable: running without a harvest record; set --cache-dir or SKILLSHELF_CACHE_DIR to a writable directory", {
    path: dir,
    error: problem,
  });
  return undefined;
}
