// Which local trees to watch: every local fetch a plugin or a marketplace library reads, once per fetch key.
// `watch: false` on a plugin (or inherited from its source) turns its fetch's watch off, unless another plugin
// on the same fetch still wants it.
import type { Config, PluginAddress } from "../config/index.js";
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
  const add = (address: PluginAddress, watch: boolean): void => {
    const plan = planFetch(config.sources, address);
    if (plan.kind !== "local") return;
    if (watch) wanted.set(plan.key, { fetch: plan.key, abs: plan.abs });
    else off.add(plan.key);
  };
  for (const plugin of config.plugins) add(plugin.address, plugin.watch);
  for (const library of config.libraries) {
    const address = library.source;
    if (address === undefined) continue;
    const watch = address.kind === "source" ? (config.sources.find((source) => source.name === address.source)?.watch ?? true) : true;
    add(address, watch);
  }
  return { targets: [...wanted.values()], off: [...off].filter((key) => !wanted.has(key)) };
}
