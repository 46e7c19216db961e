// One build of the shelf from the config: materialise every fetch once, read the marketplaces (again on every
// build), harvest each plugin (reusing the last harvest of a plugin whose git fetch did not move), plan the
// libraries and build the shelf.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import {
  type Config,
  type Dialect,
  type LibraryConfig,
  parsePluginAddress,
  type PluginAddress,
  type PluginConfig,
} from "../config/index.js";
import {
  applyManifestMeta,
  type HarvestedPlugin,
  harvestPlugin,
  hasMarketplaceFile,
  type MarketplaceEntry,
  type PluginMeta,
  readMarketplace,
  readPluginManifest,
} from "../harvest/index.js";
import { buildShelf, type FetchReport, type LibraryPlan, matchesSelector, parsePluginPrompts, type Shelf } from "../shelf/index.js";
import { type FetchPlan, type GitTrees, isDirectorySync, planFetch, resolveInside, type Tree, TreeTable } from "../sources/index.js";
import { joinPath } from "../address/index.js";

export interface AssembleOptions {
  readonly generation: number;
  /** ISO time stamped on the shelf: the caller owns the clock. */
  readonly built: string;
  /** Materialises git fetches; without it, every git fetch fails plainly. */
  readonly git?: GitTrees;
  /** Whether this build re-resolves the refs of a git fetch (a refresh, /reindex); otherwise known trees serve. */
  readonly refresh?: (fetch: string, source: string) => boolean;
  /** The last build's harvests: a plugin whose git fetch and spec are unchanged is not harvested again. */
  readonly previous?: HarvestMemo;
  /** Harvest every plugin again, reusing nothing (POST /reindex). */
  readonly force?: boolean;
  /** Local fetches the watcher saw no change in since the last build: their plugins keep their last harvest. */
  readonly unchanged?: (fetch: string) => boolean;
  /** The watch state of a local fetch, for /health. */
  readonly watch?: (fetch: string) => FetchReport["watch"];
  /** The shelf being replaced: libraries whose plan and plugins did not change are kept from it. */
  readonly previousShelf?: Shelf;
}

/** Per plugin id: the harvest, and a stamp of what it was harvested from (commit + spec). */
export type HarvestMemo = ReadonlyMap<string, { readonly stamp?: string; readonly plugin: HarvestedPlugin }>;

export interface AssembleResult {
  readonly shelf: Shelf;
  readonly memo: HarvestMemo;
  /** Every fetch this build read, by key. */
  readonly trees: ReadonlyMap<string, Tree>;
}

/** What to harvest for one plugin, from the config or from a marketplace entry. */
interface PluginSpec {
  readonly id: string;
  readonly meta: PluginMeta;
  readonly plan: FetchPlan;
  readonly subdir: string;
  readonly skills?: readonly string[];
  readonly prompts?: readonly string[];
  readonly files?: readonly string[];
  readonly commands?: readonly string[];
  readonly dialect: Dialect;
  /** Read `.claude-plugin/plugin.json` / `plugin.json` (not for a `strict: false` marketplace entry). */
  readonly manifest: boolean;
}

interface MarketplaceOutcome {
  /** Plugin ids of the served entries, in marketplace order. */
  readonly ids: readonly string[];
  readonly skipped: readonly { readonly plugin: string; readonly reason: string }[];
  readonly error?: string;
}

export async function assemble(config: Config, options: AssembleOptions): Promise<AssembleResult> {
  const refresh = options.refresh;
  const trees = new TreeTable({
    ...(options.git === undefined ? {} : { git: options.git }),
    ...(refresh === undefined ? {} : { refresh: (key, source) => refresh(key, source.name) }),
  });
  const layout = zeroConfigLayout(config);
  const specs: PluginSpec[] = layout.plugins.map((plugin) => configSpec(config, plugin));
  const marketplaces = new Map<string, MarketplaceOutcome>();
  const entrySpecs = await Promise.all(
    layout.libraries.map(async (library) => {
      if (library.source === undefined) return [];
      const { outcome, specs: found } = await readLibraryMarketplace(config, library, library.source, trees);
      marketplaces.set(library.name, outcome);
      return found;
    }),
  );
  for (const found of entrySpecs) specs.push(...found);

  const plugins = await Promise.all(specs.map((spec) => harvestSpec(config, spec, trees, options)));
  const used = await trees.all();
  const memo = new Map<string, { stamp?: string; plugin: HarvestedPlugin }>();
  plugins.forEach((plugin, i) => {
    const stamp = plugin.status === "ok" ? stampOf(specs[i] as PluginSpec, used.get(plugin.fetch)) : undefined;
    memo.set(plugin.id, stamp === undefined ? { plugin } : { stamp, plugin });
  });
  const shelf = buildShelf({
    generation: options.generation,
    built: options.built,
    libraries: planLibraries(layout.libraries, plugins, marketplaces),
    plugins,
    fetches: reportFetches(used, plugins, options.built, options.watch),
    ...(options.previousShelf === undefined ? {} : { previous: options.previousShelf }),
  });
  return { shelf, memo, trees: used };
}

/** One build with no git and no memory: `check`-style callers and tests of local shelves. */
export async function assembleShelf(config: Config, options: AssembleOptions): Promise<Shelf> {
  return (await assemble(config, options)).shelf;
}

/**
 * Zero-config (§8): a directory holding a marketplace file is served through it, so its library takes the
 * directory as its `source` instead of one convention plugin. Checked on every build, like the marketplace.
 */
function zeroConfigLayout(config: Config): { readonly plugins: readonly PluginConfig[]; readonly libraries: readonly LibraryConfig[] } {
  if (config.file !== null) return config;
  const throughMarketplace = new Set<string>();
  const libraries = config.libraries.map((library) => {
    const plugin = library.plugins.length === 1 ? config.plugins.find((p) => p.name === library.plugins[0]) : undefined;
    if (plugin === undefined || plugin.address.kind !== "local" || !hasMarketplaceFile(plugin.address.abs)) return library;
    throughMarketplace.add(plugin.name);
    return { name: library.name, description: library.description, source: plugin.address, plugins: [] };
  });
  return { plugins: config.plugins.filter((plugin) => !throughMarketplace.has(plugin.name)), libraries };
}

function configSpec(config: Config, plugin: PluginConfig): PluginSpec {
  return {
    id: plugin.name,
    meta: {
      description: plugin.description,
      ...(plugin.category === undefined ? {} : { category: plugin.category }),
      tags: plugin.tags,
      keywords: plugin.keywords,
      ...(plugin.version === undefined ? {} : { version: plugin.version }),
    },
    plan: planFetch(config.sources, plugin.address),
    subdir: subdirOf(plugin.address),
    ...(plugin.skills === undefined ? {} : { skills: plugin.skills }),
    ...(plugin.prompts === undefined ? {} : { prompts: plugin.prompts }),
    ...(plugin.files === undefined ? {} : { files: plugin.files }),
    dialect: plugin.dialect,
    manifest: true,
  };
}

async function readLibraryMarketplace(
  config: Config,
  library: LibraryConfig,
  address: PluginAddress,
  trees: TreeTable,
): Promise<{ readonly outcome: MarketplaceOutcome; readonly specs: PluginSpec[] }> {
  const plan = planFetch(config.sources, address);
  const tree = await trees.get(plan);
  const fail = (error: string) => ({ outcome: { ids: [], skipped: [], error }, specs: [] });
  if (tree.rootAbs === undefined) return fail(`The marketplace cannot be read: fetch ${plan.key} failed (${tree.error ?? "no tree"}).`);
  const subdir = subdirOf(address);
  const root = resolveInside(tree.rootAbs, subdir, plan.key);
  if (!root.ok) return fail(root.error);
  const read = readMarketplace(root.abs, config.sources);
  if (!read.ok) return fail(`In fetch ${plan.key}${subdir === "" ? "" : `, subdirectory ${subdir}`}: ${read.error}.`);
  const kinds = new Map(config.sources.map((source) => [source.name, source.kind]));
  const specs: PluginSpec[] = [];
  for (const entry of read.marketplace.entries) {
    const located = locateEntry(config, entry, plan, subdir, kinds);
    specs.push({
      id: `${entry.name}@${library.name}`,
      meta: entry.meta,
      plan: located.plan,
      subdir: located.subdir,
      ...(entry.skills === undefined ? {} : { skills: entry.skills }),
      ...(entry.commands === undefined ? {} : { commands: entry.commands }),
      dialect: "auto",
      manifest: entry.strict,
    });
  }
  const skipped = read.marketplace.skipped.map((row) => ({
    plugin: row.entry.startsWith("plugins[") ? row.entry : `${row.entry}@${library.name}`,
    reason: row.reason,
  }));
  return { outcome: { ids: specs.map((spec) => spec.id), skipped }, specs };
}

/** Where an entry's tree is: the marketplace's own fetch (relative) or another git fetch through a source. */
function locateEntry(
  config: Config,
  entry: MarketplaceEntry,
  marketplace: FetchPlan,
  marketplaceSubdir: string,
  kinds: ReadonlyMap<string, "git" | "file">,
): { readonly plan: FetchPlan; readonly subdir: string } {
  if (entry.source.kind === "relative") return { plan: marketplace, subdir: joinPath(marketplaceSubdir, entry.source.path) };
  // The marketplace parser built this address with the same grammar, so it parses.
  const parsed = parsePluginAddress(entry.source.address, kinds, "/");
  if (!parsed.ok) return { plan: { kind: "failed", key: entry.source.address, error: parsed.rule }, subdir: "" };
  return { plan: planFetch(config.sources, parsed.address), subdir: subdirOf(parsed.address) };
}

async function harvestSpec(config: Config, spec: PluginSpec, trees: TreeTable, options: AssembleOptions): Promise<HarvestedPlugin> {
  const tree = await trees.get(spec.plan);
  const base = { id: spec.id, meta: spec.meta, fetch: spec.plan.key, root: spec.subdir };
  if (tree.rootAbs === undefined) return failedPlugin(base, `Fetch ${spec.plan.key} failed: ${tree.error ?? "no tree"}`);
  const stamp = stampOf(spec, tree);
  const previous = options.previous?.get(spec.id);
  // A git tree never changes under a commit: the same commit and spec harvest to the same plugin.
  if (options.force !== true && stamp !== undefined && previous?.stamp === stamp) return previous.plugin;
  // The warm reads below only ever reuse files at the same real path, size and mtime.
  const root = resolveInside(tree.rootAbs, spec.subdir, spec.plan.key);
  if (!root.ok) return failedPlugin(base, root.error);
  // The last harvest is used only if every file it names lies inside the root as it is now: a harvest read from
  // the cache directory is checked, not trusted.
  const last = previous !== undefined && liesWithin(previous.plugin, root.abs) ? previous.plugin : undefined;
  // A local tree nothing was seen to change in is the tree that was harvested last time.
  if (options.force !== true && tree.kind === "local" && last !== undefined && options.unchanged?.(spec.plan.key) === true) return last;
  let meta = spec.meta;
  let skills = spec.skills;
  let commands = spec.commands;
  if (spec.manifest && isDirectorySync(root.abs)) {
    const read = readPluginManifest(root.abs);
    if (!read.ok) return failedPlugin(base, `The plugin manifest ${read.error}.`);
    meta = applyManifestMeta(meta, read.manifest);
    skills ??= read.manifest?.skills;
    commands ??= read.manifest?.commands;
  }
  const harvested = await harvestPlugin({
    ...base,
    meta,
    rootAbs: root.abs,
    ...(skills === undefined ? {} : { skills }),
    ...(spec.prompts === undefined ? {} : { prompts: spec.prompts }),
    ...(spec.files === undefined ? {} : { files: spec.files }),
    ...(commands === undefined ? {} : { commands }),
    limits: config.limits,
    // Unchanged local files (same real path, size and mtime) are not read again; /reindex reads everything.
    ...(options.force !== true && last !== undefined ? { previous: last } : {}),
  });
  // An unchanged walk hands back the previous harvest itself, prompts already parsed.
  return harvested === last ? harvested : parsePluginPrompts({ ...harvested, dialect: spec.dialect });
}

/** Whether every file `plugin` would read lies under `rootAbs`'s real path. */
function liesWithin(plugin: HarvestedPlugin, rootAbs: string): boolean {
  let real: string;
  try {
    real = fs.realpathSync.native(rootAbs);
  } catch {
    return false;
  }
  const prefix = real.endsWith("/") ? real : `${real}/`;
  // Normalised too: a recorded `<root>/../x` starts with the root's path but does not lie in it.
  const inside = (file: { readonly abs: string }): boolean => file.abs.startsWith(prefix) && path.normalize(file.abs) === file.abs;
  return (
    plugin.skills.every((skill) => inside(skill.skillMd) && skill.files.every(inside)) &&
    plugin.libraryFiles.every(inside) &&
    [...plugin.tree.values()].every(inside)
  );
}

/** The commit and everything the spec says, or undefined for a local tree (it may change at any time). */
function stampOf(spec: PluginSpec, tree: Tree | undefined): string | undefined {
  if (tree?.commit === undefined) return undefined;
  const { plan: _plan, ...rest } = spec;
  return `${tree.commit}\n${createHash("sha256").update(JSON.stringify(rest)).digest("hex")}`;
}

function failedPlugin(base: Pick<HarvestedPlugin, "id" | "meta" | "fetch" | "root">, error: string): HarvestedPlugin {
  return { ...base, status: "failed", error, skills: [], libraryFiles: [], tree: new Map(), skillDirs: [], prompts: [], skipped: [] };
}

/**
 * Each library serves its marketplace's entries first (in marketplace order), then the plugins it names, then its
 * selector's matches over every plugin. An `<entry>@<library>` that names no served entry is a library error that
 * lists what the marketplace publishes: a typo that silently serves nothing is the worst failure an operator gets.
 */
export function planLibraries(
  libraries: readonly LibraryConfig[],
  plugins: readonly HarvestedPlugin[],
  marketplaces: ReadonlyMap<string, MarketplaceOutcome>,
): LibraryPlan[] {
  return libraries.map((library) => {
    const own = marketplaces.get(library.name);
    const chosen: string[] = [...(own?.ids ?? [])];
    const errors: string[] = own?.error === undefined ? [] : [own.error];
    for (const name of library.plugins) {
      const at = name.indexOf("@");
      if (at !== -1) {
        const problem = checkEntryReference(name, name.slice(at + 1), marketplaces);
        if (problem !== undefined) {
          errors.push(problem);
          continue;
        }
      }
      if (!chosen.includes(name)) chosen.push(name);
    }
    const selector = library.pluginSelector;
    if (selector !== undefined) {
      for (const plugin of plugins) {
        if (!chosen.includes(plugin.id) && matchesSelector(selector, plugin.meta)) chosen.push(plugin.id);
      }
    }
    return {
      name: library.name,
      description: library.description,
      plugins: chosen,
      ...(errors.length === 0 ? {} : { error: errors.join(" ") }),
      ...(own === undefined || own.skipped.length === 0 ? {} : { skipped: own.skipped }),
    };
  });
}

function checkEntryReference(name: string, library: string, marketplaces: ReadonlyMap<string, MarketplaceOutcome>): string | undefined {
  const outcome = marketplaces.get(library);
  if (outcome === undefined) return `Plugin '${name}' names library '${library}', which has no marketplace.`;
  if (outcome.error !== undefined) return `Plugin '${name}' cannot be served: the marketplace of library '${library}' could not be read.`;
  if (outcome.ids.includes(name)) return undefined;
  const skip = outcome.skipped.find((row) => row.plugin === name);
  if (skip !== undefined) return `Plugin '${name}' is a skipped entry of library '${library}': ${skip.reason}`;
  const published = outcome.ids.map((id) => id.slice(0, id.lastIndexOf("@")));
  return `Plugin '${name}' names no entry of the marketplace of library '${library}'; ${
    published.length === 0 ? "it publishes no entries." : `it publishes: ${published.join(", ")}.`
  }`;
}

/**
 * Every fetch's state. A git fetch reports its own (ok, stale with the refresh error, failed). A local folder is
 * failed when a plugin on it could not be harvested (its folder is missing), with that plugin's error.
 */
export function reportFetches(
  trees: ReadonlyMap<string, Tree>,
  plugins: readonly HarvestedPlugin[],
  built: string,
  watch?: (fetch: string) => FetchReport["watch"],
): Map<string, FetchReport> {
  const fetches = new Map<string, FetchReport>();
  for (const [key, tree] of trees) {
    const state = watch?.(key);
    const extra = state === undefined ? {} : { watch: state };
    if (tree.kind === "local") {
      const failed = plugins.find((plugin) => plugin.fetch === key && plugin.status === "failed" && isLocalFailure(plugin));
      const exists = tree.rootAbs !== undefined && isDirectorySync(tree.rootAbs);
      if (failed !== undefined)
        fetches.set(key, { status: "failed", ...(failed.error === undefined ? {} : { error: failed.error }), ...extra });
      else if (!exists) fetches.set(key, { status: "failed", error: `The folder of fetch ${key} does not exist.`, ...extra });
      else fetches.set(key, { status: "ok", built, ...extra });
    } else {
      fetches.set(key, {
        status: tree.status,
        ...(tree.built === undefined ? {} : { built: tree.built }),
        ...(tree.error === undefined ? {} : { error: tree.error }),
        ...extra,
      });
    }
  }
  return fetches;
}

/** A plugin failure that says the local folder itself is missing (not a manifest or a subdirectory problem). */
function isLocalFailure(plugin: HarvestedPlugin): boolean {
  return plugin.root === "" && plugin.error !== undefined && plugin.error.startsWith("The plugin root");
}

function subdirOf(address: PluginAddress): string {
  return address.kind === "source" ? address.subdir : "";
}
