// A plugin's globs are relative to its root and never climb out of it (§3.1); picomatch is the parser.
import micromatch from "micromatch";
import type { PluginGlobs } from "./types.js";

/** The rule a glob breaks, or `undefined`. `skills/*` => undefined; `../x/*` => a rule. */
export function checkGlob(glob: string): string | undefined {
  if (glob.startsWith("/")) return "a glob is relative to the plugin root, never absolute";
  // `..` would let a plugin publish files outside its own root.
  if (glob.split("/").includes("..")) return "a glob must not contain a '..' segment";
  try {
    // strictBrackets: an unbalanced [ { ( is a typo far more often than a literal character.
    micromatch.makeRe(glob, { strictBrackets: true });
    return undefined;
  } catch (e) {
    return `is not a valid glob: ${e instanceof Error ? e.message : String(e)}`;
  }
}

/** Just the glob lists of `from` (a plugin config, a marketplace entry, a manifest), absent ones left out. */
export function pickGlobs(from: PluginGlobs): PluginGlobs {
  const { skills, prompts, files, commands } = from;
  return {
    ...(skills === undefined ? {} : { skills }),
    ...(prompts === undefined ? {} : { prompts }),
    ...(files === undefined ? {} : { files }),
    ...(commands === undefined ? {} : { commands }),
  };
}

/** `primary`'s lists, each absent one taken from `fallback` (a plugin manifest supplies what the config left unset). */
export function withFallbackGlobs(primary: PluginGlobs, fallback: PluginGlobs): PluginGlobs {
  return { ...pickGlobs(fallback), ...pickGlobs(primary) };
}
