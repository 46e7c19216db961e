// Harvest one plugin spec from its fetched tree, reusing the last harvest when nothing it was made from changed.
import { createHash } from "node:crypto";
import fs from "node:fs";
import { type Config, pickGlobs, withFallbackGlobs } from "../config/index.js";
import {
  applyManifestMeta,
  COMMAND_CONVENTION,
  failedHarvest,
  type FileBytesSeen,
  type HarvestedPlugin,
  harvestPlugin,
  readPluginManifest,
} from "../harvest/index.js";
import { parsePluginPrompts } from "../shelf/index.js";
import { memoizeBy } from "../memo/index.js";
import { isDirectorySync, resolveInside, type Tree, type TreeTable } from "../sources/index.js";
import type { PluginSpec } from "./specs.js";

/** Per plugin id: the harvest, and a stamp of what it was harvested from (commit + spec). */
export type HarvestMemo = ReadonlyMap<string, { readonly stamp?: string; readonly plugin: HarvestedPlugin }>;

export interface ReuseOptions {
  /** The last build's harvests. */
  readonly previous?: HarvestMemo;
  /** Harvest again, reusing nothing (POST /reindex). */
  readonly force?: boolean;
  /** Local fetches the watcher saw no change in since the last build: their plugins keep their last harvest. */
  readonly unchanged?: (fetch: string) => boolean;
  /** Told the bytes of every file a rebuild reads again because it changed (`HarvestInput.onChangedRead`). */
  readonly onChangedRead?: FileBytesSeen;
}

export async function harvestSpec(config: Config, spec: PluginSpec, trees: TreeTable, options: ReuseOptions): Promise<HarvestedPlugin> {
  const tree = await trees.get(spec.plan);
  const base = { id: spec.id, meta: spec.meta, fetch: spec.plan.key, root: spec.subdir };
  if (tree.rootAbs === undefined) return failedHarvest(base, `Fetch ${spec.plan.key} failed: ${tree.error ?? "no tree"}`);
  const stamp = stampOf(spec, tree);
  const previous = options.previous?.get(spec.id);
  // A git tree never changes under a commit: the same commit and spec harvest to the same plugin.
  if (options.force !== true && stamp !== undefined && previous?.stamp === stamp) return previous.plugin;
  // The warm reads below only ever reuse files at the same real path, size and mtime.
  const root = resolveInside(tree.rootAbs, spec.subdir, spec.plan.key);
  if (!root.ok) return failedHarvest(base, root.error);
  // The last harvest is used only if every file it names lies inside the root as it is now: a harvest read from
  // the cache directory is checked, not trusted.
  const last = previous !== undefined && liesWithin(previous.plugin, root.abs) ? previous.plugin : undefined;
  // A local tree nothing was seen to change in is the tree that was harvested last time.
  if (options.force !== true && tree.kind === "local" && last !== undefined && options.unchanged?.(spec.plan.key) === true) return last;
  let meta = spec.meta;
  let globs = spec.globs;
  const notes: { path: string; reason: string }[] = [];
  if (spec.manifest && isDirectorySync(root.abs)) {
    const read = readPluginManifest(root.abs);
    if (!read.ok) return failedHarvest(base, `The plugin manifest ${read.error}.`);
    meta = applyManifestMeta(meta, read.manifest);
    // The manifest supplies `skills` / `commands` paths for the kinds the spec left unset.
    if (read.manifest !== null) globs = withFallbackGlobs(globs, read.manifest);
    const absent = read.manifest?.absentSkills;
    if (absent !== undefined && globs.skills === read.manifest?.skills) {
      const paths = absent.paths.join(", ");
      notes.push({ path: absent.file, reason: `Its skills paths ${paths} are not in the plugin, so nothing is served from them.` });
    }
  }
  // A marketplace plugin's prompts are what it declares, else its commands: never its worker templates.
  if (spec.commandsOnly === true && globs.prompts === undefined && globs.commands === undefined)
    globs = { ...globs, commands: COMMAND_CONVENTION };
  const harvested = await harvestPlugin({
    ...base,
    meta,
    rootAbs: root.abs,
    ...globs,
    limits: config.limits,
    naming: spec.naming,
    ...(notes.length === 0 ? {} : { notes }),
    // Only the globs the config file wrote: a manifest's fallback lists are the plugin author's.
    ...(spec.reportUnmatched ? { reportUnmatched: pickGlobs(spec.globs) } : {}),
    // Unchanged local files (same real path, size and mtime) are not read again; /reindex reads everything.
    ...(options.force !== true && last !== undefined ? { previous: last } : {}),
    ...(options.onChangedRead === undefined ? {} : { onChangedRead: options.onChangedRead }),
  });
  // An unchanged walk hands back the previous harvest itself, prompts already parsed.
  return harvested === last ? harvested : parsePluginPrompts({ ...harvested, dialect: spec.dialect });
}

/** Real paths of a plugin's root held per harvest: one, and the one before it was re-pointed. */
const ROOT_PATHS_HELD = 2;

/** An empty, `.` or `..` segment in a POSIX path. */
const NOT_NORMAL = /\/\/|\/\.\.?(?:\/|$)/;

/** Whether every file `plugin` would read lies under `rootAbs`'s real path. */
function liesWithin(plugin: HarvestedPlugin, rootAbs: string): boolean {
  let real: string;
  try {
    real = fs.realpathSync.native(rootAbs);
  } catch {
    return false;
  }
  return allWithin(plugin, real.endsWith("/") ? real : `${real}/`);
}

/** Whether every file of `plugin` lies under `prefix` (a real path ending in `/`): a function of the harvest (never
 *  changed) and that path alone, so each rescan of a watched plugin, which asks it again of the same harvest (a
 *  tenth of a second for a plugin of 5,000 skills), gets it from the memo while the root's real path stays. */
const allWithin = memoizeBy(
  ROOT_PATHS_HELD,
  (prefix: string) => prefix,
  (plugin: HarvestedPlugin, prefix: string): boolean => {
    // Normalised too: a recorded `<root>/../x` starts with the root's path but does not lie in it. (An absolute path
    // is its own normal form exactly when it has no empty, `.` or `..` segment: a test, where path.normalize built a
    // new string for each of the hundreds of thousands of files a large shelf records.)
    const inside = (file: { readonly abs: string }): boolean => file.abs.startsWith(prefix) && !NOT_NORMAL.test(file.abs);
    return (
      plugin.skills.every((skill) => inside(skill.skillMd) && skill.files.every(inside)) &&
      plugin.libraryFiles.every(inside) &&
      [...plugin.tree.values()].every(inside)
    );
  },
);

/** The commit and everything the spec says, or undefined for a local tree (it may change at any time). */
export function stampOf(spec: PluginSpec, tree: Tree | undefined): string | undefined {
  if (tree?.commit === undefined) return undefined;
  const { plan: _plan, ...rest } = spec;
  return `${tree.commit}\n${createHash("sha256").update(JSON.stringify(rest)).digest("hex")}`;
}
