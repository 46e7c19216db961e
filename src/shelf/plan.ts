// Which plugins each library serves, from the config and the marketplaces read for this build. Pure.
import type { LibraryConfig } from "../config/index.js";
import type { HarvestedPlugin } from "../harvest/index.js";
import type { LibraryPlan } from "./build.js";
import { selectLibraryPlugins } from "./select.js";

/** What reading one library's marketplace gave. */
export interface MarketplaceOutcome {
  /** Plugin ids of the served entries, in marketplace order. */
  readonly ids: readonly string[];
  readonly skipped: readonly { readonly plugin: string; readonly reason: string }[];
  readonly error?: string;
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
    const named: string[] = [];
    for (const name of library.plugins) {
      const at = name.indexOf("@");
      const problem = at === -1 ? undefined : checkEntryReference(name, name.slice(at + 1), marketplaces);
      if (problem !== undefined) errors.push(problem);
      else named.push(name);
    }
    const selected = selectLibraryPlugins({ ...library, plugins: named }, plugins);
    for (const id of selected) if (!chosen.includes(id)) chosen.push(id);
    return {
      name: library.name,
      description: library.description,
      plugins: chosen,
      conflicts: library.conflicts ?? "keep-first",
      ...(errors.length === 0 ? {} : { error: errors.join(" ") }),
      ...(own === undefined || own.skipped.length === 0 ? {} : { skipped: own.skipped }),
    };
  });
}

/**
 * Libraries made from directories (no config file) have no description written anywhere but their plugins' own
 * manifests: each such library without one takes the description of the first of its plugins that has one
 * (`.claude-plugin/plugin.json`, or a marketplace entry's). A library whose config wrote a description, or wrote
 * none on purpose in a config file, keeps what it has: this applies only to plans of a config-less shelf.
 */
export function describeFromPlugins(plans: readonly LibraryPlan[], plugins: readonly HarvestedPlugin[]): LibraryPlan[] {
  const byId = new Map(plugins.map((plugin) => [plugin.id, plugin]));
  return plans.map((plan) => {
    if (plan.description !== "") return plan;
    const described = plan.plugins.map((id) => byId.get(id)?.meta.description ?? "").find((text) => text !== "");
    return described === undefined ? plan : { ...plan, description: described };
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
