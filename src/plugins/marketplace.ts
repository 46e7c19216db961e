// A Claude Code plugin marketplace (`.claude-plugin/marketplace.json`) for one scope or one library: every plugin the
// caller sees, with its git URL (`{"source": "url"}`: a marketplace added by URL has no folder of its own for
// relative sources), its description, version, category and keywords. The same names are the plugins' manifests'.
export { SCOPE_MARKETPLACE, libraryMarketplaceName } from "../address/index.js";
import type { PluginContent } from "./catalog.js";
import { keywordsOf } from "./catalog.js";

export interface MarketplaceInput {
  /** The marketplace's name: `skillshelf` for a scope, `skillshelf-<library>` for one library. */
  readonly name: string;
  readonly description: string;
  /** The plugins in the order listed; a name already listed is left out (a plugin served by two libraries). */
  readonly plugins: readonly PluginContent[];
  /** The git URL of a plugin's repository. */
  readonly urlOf: (content: PluginContent) => string;
}

export interface Marketplace {
  readonly body: string;
  /** Plugins left out because an earlier one has their name: `<library>/<plugin>`. */
  readonly left: readonly string[];
}

export function formatMarketplace(input: MarketplaceInput): Marketplace {
  const names = new Set<string>();
  const left: string[] = [];
  const plugins: unknown[] = [];
  for (const content of input.plugins) {
    const { listed } = content;
    if (names.has(listed.name)) {
      left.push(`${listed.library}/${listed.plugin}`);
      continue;
    }
    names.add(listed.name);
    const keywords = keywordsOf(listed.meta);
    plugins.push({
      name: listed.name,
      source: { source: "url", url: input.urlOf(content) },
      description: listed.meta.description,
      version: content.version,
      ...(listed.meta.category === undefined ? {} : { category: listed.meta.category }),
      ...(keywords.length === 0 ? {} : { keywords }),
    });
  }
  const body = { name: input.name, owner: { name: "skillshelf" }, metadata: { description: input.description }, plugins };
  return { body: `${JSON.stringify(body, null, 2)}\n`, left };
}
