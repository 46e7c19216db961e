// One build of the shelf from the config: materialise every fetch once, read the marketplaces (again on every
// build), harvest each plugin (reusing the last harvest of a plugin whose fetch did not move), plan the libraries
// and build the shelf.
import type { Config } from "../config/index.js";
import type { HarvestedPlugin } from "../harvest/index.js";
import { buildShelf, type FetchReport, type MarketplaceOutcome, planLibraries, type Shelf } from "../shelf/index.js";
import { type GitTrees, type Tree, TreeTable, type WebdavTrees } from "../sources/index.js";
import { reportFetches } from "./fetch-report.js";
import { type HarvestMemo, harvestSpec, type ReuseOptions, stampOf } from "./harvest-spec.js";
import { configSpec, type PluginSpec, readLibraryMarketplace, zeroConfigLayout } from "./specs.js";

export interface AssembleOptions extends ReuseOptions {
  readonly generation: number;
  /** ISO time stamped on the shelf: the caller owns the clock. */
  readonly built: string;
  /** Materialises git fetches; without it, every git fetch fails plainly. */
  readonly git?: GitTrees;
  /** Materialises WebDAV fetches; without it, every WebDAV fetch fails plainly. */
  readonly webdav?: WebdavTrees;
  /** Whether this build re-resolves the refs of a git fetch (a refresh, /reindex); otherwise known trees serve. */
  readonly refresh?: (fetch: string, source: string) => boolean;
  /** The watch state of a local fetch, for /health. */
  readonly watch?: (fetch: string) => FetchReport["watch"];
  /** The shelf being replaced: libraries whose plan and plugins did not change are kept from it. */
  readonly previousShelf?: Shelf;
}

export interface AssembleResult {
  readonly shelf: Shelf;
  readonly memo: HarvestMemo;
  /** Every fetch this build read, by key. */
  readonly trees: ReadonlyMap<string, Tree>;
}

export async function assemble(config: Config, options: AssembleOptions): Promise<AssembleResult> {
  const refresh = options.refresh;
  const trees = new TreeTable({
    ...(options.git === undefined ? {} : { git: options.git }),
    ...(options.webdav === undefined ? {} : { webdav: options.webdav }),
    ...(refresh === undefined ? {} : { refresh: (key, source) => refresh(key, source.name) }),
  });
  const layout = zeroConfigLayout(config);
  const specs: PluginSpec[] = layout.plugins.map((plugin) => configSpec(config, plugin));
  const marketplaces = new Map<string, MarketplaceOutcome>(layout.unservedMarketplaces ?? []);
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
    // The guard's policy is part of each plan: a changed policy rebuilds the libraries it applies to.
    libraries: planLibraries(layout.libraries, plugins, marketplaces).map((plan) =>
      config.guard === undefined ? plan : { ...plan, guard: config.guard },
    ),
    plugins,
    fetches: reportFetches(used, plugins, options.built, options.watch),
    ...(options.previousShelf === undefined ? {} : { previous: options.previousShelf }),
  });
  return { shelf, memo, trees: used };
}
