// One build of the shelf from the config: materialise every fetch once, read the marketplaces (again on every
// build), harvest each plugin (reusing the last harvest of a plugin whose fetch did not move), plan the libraries
// and build the shelf.
import { type Config, guardPolicyOf } from "../config/index.js";
import type { HarvestedPlugin } from "../harvest/index.js";
import { buildShelf, describeFromPlugins, type FetchReport, type MarketplaceOutcome, planLibraries, type Shelf } from "../shelf/index.js";
import { type Fetcher, type Tree, TreeTable } from "../sources/index.js";
import { reportFetches } from "./fetch-report.js";
import { type HarvestMemo, harvestSpec, type ReuseOptions, stampOf } from "./harvest-spec.js";
import { withoutClaimed } from "./rest.js";
import { scanPlugins } from "./scanner.js";
import { configSpec, type PluginSpec, readLibraryMarketplace, zeroConfigLayout } from "./specs.js";

export interface AssembleOptions extends ReuseOptions {
  readonly generation: number;
  /** ISO time stamped on the shelf: the caller owns the clock. */
  readonly built: string;
  /** The fetcher of each source kind, by kind (`git`, `webdav`, …); a kind without one fails its fetches plainly. */
  readonly fetchers?: ReadonlyMap<string, Fetcher>;
  /** Whether this build asks a fetch's source again (a refresh, /reindex); otherwise known trees serve. */
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
    ...(options.fetchers === undefined ? {} : { fetchers: options.fetchers }),
    ...(refresh === undefined ? {} : { refresh: (key, source) => refresh(key, source.name) }),
  });
  const layout = zeroConfigLayout(config);
  const restIds = new Set(layout.rest?.values() ?? []);
  // The discovery plugin beside a marketplace reads no manifest: one at the root belongs to an entry.
  const specs: PluginSpec[] = layout.plugins.map((plugin) => ({ ...configSpec(config, plugin), manifest: !restIds.has(plugin.name) }));
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

  const harvested = await Promise.all(specs.map((spec) => harvestSpec(config, spec, trees, options)));
  const used = await trees.all();
  const memo = new Map<string, { stamp?: string; plugin: HarvestedPlugin }>();
  // The memo keeps the harvests as read; the external scanner's findings are added to what this build serves.
  harvested.forEach((plugin, i) => {
    const stamp = plugin.status === "ok" ? stampOf(specs[i] as PluginSpec, used.get(plugin.fetch)) : undefined;
    memo.set(plugin.id, stamp === undefined ? { plugin } : { stamp, plugin });
  });
  const scanner = config.guard?.scanner;
  const plugins = scanner === undefined ? harvested : await scanPlugins(harvested, scanner);
  const served = withoutClaimedByEntries(plugins, layout.rest, marketplaces);
  const plans = planLibraries(layout.libraries, served, marketplaces);
  const shelf = buildShelf({
    generation: options.generation,
    built: options.built,
    // The guard's policy (the library's own over the default) is part of each plan: a changed policy rebuilds the
    // libraries it applies to.
    libraries: (config.file === null ? describeFromPlugins(plans, served) : plans).map((plan) => {
      const guard = guardPolicyOf(config, plan.name);
      return guard === undefined ? plan : { ...plan, guard };
    }),
    plugins: served,
    fetches: reportFetches(used, plugins, options.built, options.watch),
    ...(options.previousShelf === undefined ? {} : { previous: options.previousShelf }),
  });
  return { shelf, memo, trees: used };
}

/** Each zero-config discovery plugin beside a marketplace, without what its library's entries claim. */
function withoutClaimedByEntries(
  plugins: readonly HarvestedPlugin[],
  rest: ReadonlyMap<string, string> | undefined,
  marketplaces: ReadonlyMap<string, MarketplaceOutcome>,
): readonly HarvestedPlugin[] {
  if (rest === undefined || rest.size === 0) return plugins;
  const byId = new Map(plugins.map((plugin) => [plugin.id, plugin]));
  const restOf = new Map([...rest].map(([library, id]) => [id, library]));
  return plugins.map((plugin) => {
    const library = restOf.get(plugin.id);
    if (library === undefined) return plugin;
    const ids = marketplaces.get(library)?.ids ?? [];
    const entries = ids.map((id) => byId.get(id)).filter((entry): entry is HarvestedPlugin => entry !== undefined);
    return withoutClaimed(plugin, entries);
  });
}
