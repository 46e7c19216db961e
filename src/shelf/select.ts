// Which plugins a library serves, and the category/tag matching that library selectors and scopes share.
import { type LibraryConfig, parseTagSelector, type PluginSelector, type TagGroup } from "../config/index.js";
import type { PluginMeta } from "../harvest/index.js";

/** What a selector or a scope narrows by: categories any-of, tag items any-of (each all of its tags). */
export interface SelectorSpec {
  readonly categories?: readonly string[];
  readonly tags?: readonly string[];
}

/** A selector compiled once (its tag items parsed) into a test of a plugin's metadata. An empty list of either kind
 *  matches everything. `{tags: ["a,b", "c"]}` admits a plugin tagged (or keyworded) a and b, or c. */
export function compileSelector(spec: SelectorSpec): (meta: PluginMeta) => boolean {
  const categories = spec.categories ?? [];
  const groups = parseTagSelector(spec.tags ?? []);
  return (meta) => matchesCategories(categories, meta) && matchesTagGroups(groups, meta);
}

/** Any-of: the plugin's category is one of `categories`. An empty list matches everything. */
function matchesCategories(categories: readonly string[], meta: PluginMeta): boolean {
  return categories.length === 0 || categories.some((category) => category === meta.category);
}

function matchesTagGroups(groups: readonly TagGroup[], meta: PluginMeta): boolean {
  if (groups.length === 0) return true;
  const labels = new Set([...meta.tags, ...meta.keywords]);
  return groups.some((group) => group.every((tag) => labels.has(tag)));
}

/** The library's plugins in order: those it names first (in its order), then selector matches in config order. */
export function selectLibraryPlugins(
  library: Pick<LibraryConfig, "plugins" | "pluginSelector">,
  candidates: readonly { readonly id: string; readonly meta: PluginMeta }[],
): string[] {
  const chosen = [...new Set(library.plugins)];
  const selector: PluginSelector | undefined = library.pluginSelector;
  if (selector !== undefined) {
    const matches = compileSelector(selector);
    for (const plugin of candidates) {
      if (!chosen.includes(plugin.id) && matches(plugin.meta)) chosen.push(plugin.id);
    }
  }
  return chosen;
}
