// Libraries: unique names, something to serve, and each plugin they list declared: a plugin of the config, or an
// entry of a library's marketplace (`<entry>@<library>`).
import { buildLibraryGuard } from "./build-guard.js";
import type { ResolveAddress } from "./build-sources.js";
import type { RawLibrary, RawPlugin } from "./raw.js";
import { checkUnique, type Report } from "./report.js";
import { RULE } from "./rules.js";
import { normaliseTagItem } from "./tags.js";
import type { LibraryConfig, PluginSelector } from "./types.js";
import { formatPointer } from "./yaml-doc.js";

export function buildLibraries(
  raw: readonly RawLibrary[],
  rawPlugins: readonly RawPlugin[],
  address: ResolveAddress,
  report: Report,
): LibraryConfig[] {
  checkUnique(raw, "libraries", "library", report);
  const pluginNames = new Set(rawPlugins.map((p) => p.name));
  const libraryHasSource = new Map(raw.map((l) => [l.name, l.source !== undefined]));
  const libraries: LibraryConfig[] = [];
  for (const [i, l] of raw.entries()) {
    const where = ["libraries", i] as const;
    if (l.source === undefined && (l.plugins ?? []).length === 0 && l.pluginSelector === undefined) report(where, RULE.emptyLibrary);
    const source = l.source === undefined ? undefined : address(l.source, [...where, "source"]);
    const listed = new Map<string, number>();
    for (const [j, ref] of (l.plugins ?? []).entries()) {
      const at = [...where, "plugins", j];
      const first = listed.get(ref);
      if (first !== undefined) report(at, RULE.listedTwice(ref, formatPointer([...where, "plugins", first])));
      else listed.set(ref, j);
      const parts = ref.split("@");
      // Stryker disable next-line StringLiteral: equivalent; split() always yields a first part.
      const [entry = "", library] = parts;
      if (library === undefined) {
        if (!pluginNames.has(ref)) report(at, RULE.noPlugin(ref, pluginNames));
      } else if (!libraryHasSource.has(library)) {
        report(at, RULE.noMarketplaceLibrary(library, entry));
      } else if (libraryHasSource.get(library) !== true) {
        report(at, RULE.noMarketplace(library, entry));
      }
    }
    const selector: PluginSelector | undefined =
      l.pluginSelector === undefined
        ? undefined
        : { categories: l.pluginSelector.categories ?? [], tags: (l.pluginSelector.tags ?? []).map(normaliseTagItem) };
    const guard = buildLibraryGuard(l, where, report);
    libraries.push({
      name: l.name,
      description: l.description ?? "",
      ...(source === undefined ? {} : { source }),
      plugins: l.plugins ?? [],
      ...(selector === undefined ? {} : { pluginSelector: selector }),
      ...(l.naming === undefined ? {} : { naming: l.naming }),
      ...(l.conflicts === undefined ? {} : { conflicts: l.conflicts }),
      ...(guard === undefined ? {} : { guard }),
    });
  }
  return libraries;
}
