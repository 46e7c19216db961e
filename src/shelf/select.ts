// Which plugins a library serves, and the category/tag matching that library selectors and scopes share.
import type { LibraryConfig, PluginSelector } from "../config/index.js";
import type { PluginMeta } from "../harvest/index.js";

/** Any-of: the plugin's category is one of `categories`. An empty list matches everything. */
export function matchesCategories(categories: readonly string[], meta: PluginMeta): boolean {
  return categories.length === 0 || (meta.category !== undefined && categories.includes(meta.category));
}

/** Each item is all-of its comma parts; items are any-of; matched on tags and keywords.
 *  `["a,b", "c"]` admits a plugin tagged a and b, or tagged c. An empty list matches everything. */
export function matchesTags(items: readonly string[], meta: PluginMeta): boolean {
  if (items.length === 0) return true;
  const labels = new Set([...meta.tags, ...meta.keywords]);
  return items.some((item) =>
    item
      .split(",")
      .map((part) => part.trim())
      .filter((part) => part !== "")
      .every((part) => labels.has(part)),
  );
}

export function matchesSelector(selector: PluginSelector, meta: PluginMeta): boolean {
  return matchesCategories(selector.categories, meta) && matchesTags(selector.tags, meta);
}

/** The library's plugins in order: those it names first (in its order), then selector matches in config order. */
export function selectLibraryPlugins(
  library: Pick<LibraryConfig, "plugins" | "pluginSelector">,
  candidates: readonly { readonly id: string; readonly meta: PluginMeta }[],
): string[] {
  const chosen = [...new Set(library.plugins)];
  const selector = library.pluginSelector;
  if (selector !== undefined) {
    for (const plugin of candidates) {
      if (!chosen.includes(plugin.id) && matchesSelector(selector, plugin.meta)) chosen.push(plugin.id);
    }
  }
  return chosen;
}
