// Which local trees to watch: every local fetch a plugin or a marketplace library reads, once per fetch key.
// `watch: false` on a plugin (or inherited from its source) turns its fetch's watch off, unless another plugin
// on the same fetch still wants it.
import type { Config, PluginAddress, PluginConfig } from "../config/index.js";
import { compileHiddenOptIns, PROMPT_CONVENTION, SKILL_CONVENTION } from "../harvest/index.js";
import { joinPath } from "../address/index.js";
import { planFetch } from "../sources/index.js";
import type { WatchTarget } from "./watch.js";

export interface WatchPlan {
  readonly targets: readonly WatchTarget[];
  /** Fetch keys whose watch is off. */
  readonly off: readonly string[];
}

export function planWatch(config: Config): WatchPlan {
  const wanted = new Map<string, WatchTarget>();
  const off = new Set<string>();
  /** Per fetch, the globs of its config plugins, written from the fetch root. */
  const globs = new Map<string, string[]>();
  const add = (address: PluginAddress, watch: boolean, plugin?: PluginConfig): void => {
    const plan = planFetch(config.sources, address);
    if (plan.kind !== "local") return;
    if (plugin !== undefined) globs.set(plan.key, [...(globs.get(plan.key) ?? []), ...writtenGlobs(plugin)]);
    if (watch) wanted.set(plan.key, { fetch: plan.key, abs: plan.abs });
    else off.add(plan.key);
  };
  for (const plugin of config.plugins) add(plugin.address, plugin.watch, plugin);
  for (const library of config.libraries) {
    const address = library.source;
    if (address === undefined) continue;
    const watch = address.kind === "source" ? (config.sources.find((source) => source.name === address.source)?.watch ?? true) : true;
    add(address, watch);
  }
  const targets = [...wanted.values()].map((target) => {
    const optIns = compileHiddenOptIns(globs.get(target.fetch) ?? []);
    return optIns.empty ? target : { ...target, hiddenOptIns: (path: string) => optIns.match(path) };
  });
  return { targets, off: [...off].filter((key) => !wanted.has(key)) };
}

/** The globs a plugin's harvest walks by (the conventions where the config wrote none), from the fetch root. A
 *  plugin manifest's or a marketplace entry's own lists are not known before the harvest and are not included. */
function writtenGlobs(plugin: PluginConfig): string[] {
  const subdir = plugin.address.kind === "source" ? plugin.address.subdir : "";
  const all = [...(plugin.skills ?? SKILL_CONVENTION), ...(plugin.prompts ?? PROMPT_CONVENTION), ...(plugin.files ?? [])];
  return all.map((glob) => (glob.startsWith("!") ? `!${joinPath(subdir, glob.slice(1))}` : joinPath(subdir, glob)));
}
