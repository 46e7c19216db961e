// One harvest of the whole config: locate every plugin's tree, harvest it, plan the libraries, build the shelf.
import type { Config } from "../config/types.js";
import { harvestPlugin } from "../harvest/index.js";
import type { FetchReport, HarvestedPlugin, PluginMeta, Shelf } from "../model.js";
import { buildShelf, type LibraryPlan } from "../shelf/build.js";
import { parsePluginPrompts } from "../shelf/prompts.js";
import { selectLibraryPlugins } from "../shelf/select.js";
import { locatePluginRoot } from "../sources/local.js";

export interface AssembleOptions {
  readonly generation: number;
  /** ISO time stamped on the shelf: the caller owns the clock. */
  readonly built: string;
}

export async function harvestConfig(config: Config): Promise<HarvestedPlugin[]> {
  return Promise.all(
    config.plugins.map(async (plugin) => {
      const meta: PluginMeta = {
        description: plugin.description,
        ...(plugin.category === undefined ? {} : { category: plugin.category }),
        tags: plugin.tags,
        keywords: plugin.keywords,
        ...(plugin.version === undefined ? {} : { version: plugin.version }),
      };
      const where = locatePluginRoot(config, plugin);
      const base = { id: plugin.name, meta, fetch: where.fetch, root: where.root };
      if (!where.ok) {
        return { ...base, status: "failed", error: where.error, skills: [], libraryFiles: [], tree: new Map(), skillDirs: [], prompts: [], skipped: [] } satisfies HarvestedPlugin;
      }
      const harvested = await harvestPlugin({
        ...base,
        rootAbs: where.rootAbs,
        ...(plugin.skills === undefined ? {} : { skills: plugin.skills }),
        ...(plugin.prompts === undefined ? {} : { prompts: plugin.prompts }),
        ...(plugin.files === undefined ? {} : { files: plugin.files }),
        limits: config.limits,
      });
      return parsePluginPrompts({ ...harvested, dialect: plugin.dialect });
    }),
  );
}

export function planLibraries(config: Config, plugins: readonly HarvestedPlugin[]): LibraryPlan[] {
  return config.libraries.map((library) => ({
    name: library.name,
    description: library.description,
    plugins: selectLibraryPlugins(library, plugins),
  }));
}

/** Every fetch's state: failed when any plugin on it could not be harvested, with that plugin's error. */
export function reportFetches(plugins: readonly HarvestedPlugin[], built: string, watch?: (fetch: string) => FetchReport["watch"]): Map<string, FetchReport> {
  const fetches = new Map<string, FetchReport>();
  for (const plugin of plugins) {
    const state = watch?.(plugin.fetch);
    const previous = fetches.get(plugin.fetch);
    if (previous?.status === "failed") continue;
    fetches.set(
      plugin.fetch,
      plugin.status === "failed"
        ? { status: "failed", ...(plugin.error === undefined ? {} : { error: plugin.error }), ...(state === undefined ? {} : { watch: state }) }
        : { status: "ok", built, ...(state === undefined ? {} : { watch: state }) },
    );
  }
  return fetches;
}

export async function assembleShelf(config: Config, options: AssembleOptions): Promise<Shelf> {
  const plugins = await harvestConfig(config);
  return buildShelf({
    generation: options.generation,
    built: options.built,
    libraries: planLibraries(config, plugins),
    plugins,
    fetches: reportFetches(plugins, options.built),
  });
}
