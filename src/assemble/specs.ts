// What to harvest for each plugin: one spec per configured plugin and per served marketplace entry, with the fetch
// that holds it. Marketplaces are read here, on every build, so an edited marketplace file is seen at once.
import {
  type Config,
  type LibraryConfig,
  type Dialect,
  type Naming,
  pickGlobs,
  type PluginAddress,
  type PluginConfig,
  type PluginGlobs,
} from "../config/index.js";
import { hasMarketplaceFile, type MarketplaceEntry, type PluginMeta, readMarketplace } from "../harvest/index.js";
import type { MarketplaceOutcome } from "../shelf/index.js";
import { type FetchPlan, planFetch, resolveInside, type TreeTable } from "../sources/index.js";
import { joinPath } from "../address/index.js";

/** What to harvest for one plugin, from the config or from a marketplace entry. */
export interface PluginSpec {
  readonly id: string;
  readonly meta: PluginMeta;
  readonly plan: FetchPlan;
  readonly subdir: string;
  readonly globs: PluginGlobs;
  readonly dialect: Dialect;
  readonly naming: Naming;
  /** Report each glob the config file wrote that matches nothing (a warning row). */
  readonly reportUnmatched: boolean;
  /** Read `.claude-plugin/plugin.json` / `plugin.json` (not for a `strict: false` marketplace entry). */
  readonly manifest: boolean;
  /** A marketplace entry: without declared prompts or commands, its prompts are its commands alone. */
  readonly commandsOnly?: boolean;
}

export interface Layout {
  readonly plugins: readonly PluginConfig[];
  readonly libraries: readonly LibraryConfig[];
  /** Zero-config libraries served by discovery beside a marketplace none of whose entries can be served: the
   *  marketplace's skipped entries, so each is named once. */
  readonly unservedMarketplaces?: ReadonlyMap<string, MarketplaceOutcome>;
  /** Zero-config libraries served through their marketplace: library name => the id of the discovery plugin that
   *  serves, after the entries, every SKILL.md under the directory that no entry claims. */
  readonly rest?: ReadonlyMap<string, string>;
}

/** What the discovery plugin beside a marketplace is, on /health. */
const REST_DESCRIPTION = "The SKILL.md files under the directory that no plugin of its marketplace serves, found by discovery.";

/**
 * Zero-config: a directory holding a marketplace file with at least one servable entry is served through it, so
 * its library takes the directory as its `source`; its discovery plugin stays in the library, after the entries,
 * to serve every SKILL.md under the directory that no entry claims (the assembler drops the rest from it), with
 * no prompts of its own. One whose marketplace serves no entry (every entry on a host no source declares, on npm,
 * an archive) is served by discovery alone, and each entry is a skipped row of its library. Checked on every
 * build, like the marketplace.
 */
export function zeroConfigLayout(config: Config): Layout {
  if (config.file !== null) return config;
  const rest = new Map<string, string>();
  const unservedMarketplaces = new Map<string, MarketplaceOutcome>();
  const libraries = config.libraries.map((library) => {
    const plugin = library.plugins.length === 1 ? config.plugins.find((p) => p.name === library.plugins[0]) : undefined;
    if (plugin === undefined || plugin.address.kind !== "local" || !hasMarketplaceFile(plugin.address.abs)) return library;
    const read = readMarketplace(plugin.address.abs, config.sources);
    if (read.ok && read.marketplace.entries.length === 0) {
      const skipped = read.marketplace.skipped.map((row) => ({ plugin: entryId(row.entry, library.name), reason: row.reason }));
      unservedMarketplaces.set(library.name, { ids: [], skipped });
      return library;
    }
    rest.set(library.name, plugin.name);
    return {
      name: library.name,
      description: library.description,
      source: plugin.address,
      plugins: [plugin.name],
      ...(plugin.naming === undefined ? {} : { naming: plugin.naming }),
    };
  });
  const restIds = new Set(rest.values());
  const plugins = config.plugins.map((plugin) =>
    restIds.has(plugin.name) ? { ...plugin, description: REST_DESCRIPTION, prompts: [] } : plugin,
  );
  return { plugins, libraries, unservedMarketplaces, rest };
}

/** A skipped entry's name in a library's rows: `remote@team`, or `plugins[3]` for an entry without a name. */
function entryId(entry: string, library: string): string {
  return entry.startsWith("plugins[") ? entry : `${entry}@${library}`;
}

export function configSpec(config: Config, plugin: PluginConfig): PluginSpec {
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
    globs: pickGlobs(plugin),
    dialect: plugin.dialect,
    naming: plugin.naming ?? "strict",
    reportUnmatched: config.file !== null,
    manifest: true,
  };
}

/** The specs of a library's marketplace entries, and what reading the marketplace gave for the library plan. */
export async function readLibraryMarketplace(
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
  const specs: PluginSpec[] = read.marketplace.entries.map((entry) => ({
    id: `${entry.name}@${library.name}`,
    meta: entry.meta,
    ...locateEntry(config, entry, plan, subdir),
    globs: pickGlobs(entry),
    dialect: "auto",
    naming: library.naming ?? "strict",
    reportUnmatched: false,
    manifest: entry.strict,
    commandsOnly: true,
  }));
  const skipped = read.marketplace.skipped.map((row) => ({ plugin: entryId(row.entry, library.name), reason: row.reason }));
  return { outcome: { ids: specs.map((spec) => spec.id), skipped }, specs };
}

/** Where an entry's tree is: the marketplace's own fetch (relative) or another git fetch through a source. */
function locateEntry(
  config: Config,
  entry: MarketplaceEntry,
  marketplace: FetchPlan,
  marketplaceSubdir: string,
): { readonly plan: FetchPlan; readonly subdir: string } {
  if (entry.source.kind === "relative") return { plan: marketplace, subdir: joinPath(marketplaceSubdir, entry.source.path) };
  return { plan: planFetch(config.sources, entry.source.address), subdir: subdirOf(entry.source.address) };
}

function subdirOf(address: PluginAddress): string {
  return address.kind === "source" ? address.subdir : "";
}
