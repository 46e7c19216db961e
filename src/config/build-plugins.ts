// Plugins: unique names, an address each (resolved against the sources), globs that stay inside the plugin, and the
// `watch` a plugin inherits from its source.
import type { ResolveAddress } from "./build-sources.js";
import { checkGlob } from "./globs.js";
import type { RawPlugin } from "./raw.js";
import { checkUnique, type Report } from "./report.js";
import type { PluginConfig, SourceConfig } from "./types.js";

export function buildPlugins(
  raw: readonly RawPlugin[],
  sources: readonly SourceConfig[],
  address: ResolveAddress,
  report: Report,
): PluginConfig[] {
  checkUnique(raw, "plugins", "plugin", report);
  const sourceWatch = new Map(sources.map((s) => [s.name, s.watch]));
  const plugins: PluginConfig[] = [];
  for (const [i, p] of raw.entries()) {
    const where = ["plugins", i] as const;
    const addr = address(p.source, [...where, "source"]);
    for (const kind of ["skills", "prompts", "files"] as const) {
      // Stryker disable next-line ArrayDeclaration: equivalent; the mutant's one entry is a valid glob, which reports nothing.
      for (const [j, glob] of (p[kind] ?? []).entries()) {
        const bad = checkGlob(glob);
        if (bad !== undefined) report([...where, kind, j], bad);
      }
    }
    if (addr === undefined) continue;
    // A plugin inherits its source's `watch` unless it says otherwise.
    const watch = p.watch ?? (addr.kind === "source" ? sourceWatch.get(addr.source) : undefined) ?? true;
    plugins.push({
      name: p.name,
      address: addr,
      description: p.description ?? "",
      ...(p.category === undefined ? {} : { category: p.category }),
      tags: p.tags ?? [],
      keywords: p.keywords ?? [],
      ...(p.version === undefined ? {} : { version: p.version }),
      ...(p.skills === undefined ? {} : { skills: p.skills }),
      ...(p.prompts === undefined ? {} : { prompts: p.prompts }),
      ...(p.files === undefined ? {} : { files: p.files }),
      dialect: p.dialect ?? "auto",
      watch,
      ...(p.naming === undefined ? {} : { naming: p.naming }),
    });
  }
  return plugins;
}
