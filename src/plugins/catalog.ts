// What a plugin marketplace lists and what each plugin's repository holds: the plugins a scope sees (by library),
// each plugin's served files (its skills' files, its library files, its prompts as Claude commands) named by the
// path they have in the plugin, the digest of that content and the version derived from it.
import { createHash } from "node:crypto";
import { compareCodeUnits, formatSkillUri, pluginName } from "../address/index.js";
import type { PluginMeta } from "../harvest/index.js";
import { visiblePrompts, visibleSkills, type Scope } from "../resolve/index.js";
import type { Shelf } from "../shelf/index.js";

/** Where a plugin's manifest lives in its repository. */
export const MANIFEST_PATH = ".claude-plugin/plugin.json";
/** Where its prompts go: Claude Code reads `commands/<name>.md` as `/name`. */
export const COMMANDS_FOLDER = "commands";

/** One plugin of one library, as a marketplace lists it. */
export interface ListedPlugin {
  readonly library: string;
  /** The plugin id on the shelf (`kit`, `entry@library`). */
  readonly plugin: string;
  /** The name clients install it by: the id with every character Claude Code refuses turned into `-`. */
  readonly name: string;
  readonly meta: PluginMeta;
}

/** A file of a plugin's repository: read through the shelf (`uri`) or given (`text`). */
export type PluginEntry =
  | { readonly path: string; readonly uri: string; readonly digest: string }
  | { readonly path: string; readonly text: string; readonly digest: string };

export interface PluginContent {
  readonly listed: ListedPlugin;
  /** Sorted by path (code units); no path twice. */
  readonly entries: readonly PluginEntry[];
  /** `sha256:` over the entries' paths and digests and the manifest's fields: changes exactly when the content does. */
  readonly digest: string;
  /** The plugin's version with the content digest appended: `1.2.0-sk.<12 hex>` (`0.0.0-…` when it declares none). */
  readonly version: string;
}

/** Every plugin with a skill or a prompt the scope sees, library by library (libraries by name, plugins in library
 *  order); `library` narrows to one. */
export function listPlugins(shelf: Shelf, scope: Scope, library?: string): ListedPlugin[] {
  const seen = new Set<string>();
  for (const skill of visibleSkills(shelf, scope)) seen.add(`${skill.library}\0${skill.plugin}`);
  for (const prompt of visiblePrompts(shelf, scope)) if (prompt.plugin !== undefined) seen.add(`${prompt.library}\0${prompt.plugin}`);
  const out: ListedPlugin[] = [];
  const names = [...shelf.libraries.keys()].sort(compareCodeUnits);
  for (const name of names) {
    if (library !== undefined && name !== library) continue;
    const lib = shelf.libraries.get(name);
    for (const plugin of lib?.served ?? []) {
      const harvested = shelf.plugins.get(plugin);
      if (harvested === undefined || !seen.has(`${name}\0${plugin}`)) continue;
      out.push({ library: name, plugin, name: pluginName(plugin), meta: harvested.meta });
    }
  }
  return out;
}

/** The plugin `plugin` of `library` on `shelf`, or null when the library does not serve it. */
export function findPlugin(shelf: Shelf, library: string, plugin: string): ListedPlugin | null {
  const lib = shelf.libraries.get(library);
  const harvested = shelf.plugins.get(plugin);
  if (lib === undefined || harvested === undefined || !lib.served.includes(plugin)) return null;
  return { library, plugin, name: pluginName(plugin), meta: harvested.meta };
}

const sha256 = (text: string): string => createHash("sha256").update(text).digest("hex");

/** What the plugin's repository holds, without reading a byte: the served files' digests say it all. A nested
 *  skill's own files win over the same path listed by the skill that contains it (they are the same bytes). */
export function pluginContent(shelf: Shelf, listed: ListedPlugin): PluginContent {
  const lib = shelf.libraries.get(listed.library);
  const byPath = new Map<string, PluginEntry>();
  const skills = [...(lib?.skills.values() ?? [])]
    .filter((skill) => skill.plugin === listed.plugin)
    .sort((a, b) => a.dir.length - b.dir.length || compareCodeUnits(a.dir, b.dir));
  for (const skill of skills) {
    for (const path of skill.paths) {
      const file = skill.files.get(path);
      if (file === undefined) continue;
      const full = skill.dir === "" ? path : `${skill.dir}/${path}`;
      byPath.set(full, { path: full, uri: formatSkillUri(skill.library, [...skill.address, ...path.split("/")]), digest: file.digest });
    }
  }
  for (const file of lib?.files.values() ?? []) {
    if (file.plugin !== listed.plugin || byPath.has(file.path)) continue;
    byPath.set(file.path, { path: file.path, uri: formatSkillUri(listed.library, file.path.split("/")), digest: file.file.digest });
  }
  const harvested = shelf.plugins.get(listed.plugin);
  for (const prompt of lib?.prompts.values() ?? []) {
    if (prompt.plugin !== listed.plugin) continue;
    const text = harvested?.prompts.find((file) => file.path === prompt.path)?.text;
    if (text === undefined) continue;
    const path = `${COMMANDS_FOLDER}/${prompt.stem}.md`;
    if (!byPath.has(path)) byPath.set(path, { path, text, digest: `sha256:${sha256(text)}` });
  }
  byPath.delete(MANIFEST_PATH);
  const entries = [...byPath.values()].sort((a, b) => compareCodeUnits(a.path, b.path));
  const meta = listed.meta;
  const digest = sha256(
    [
      JSON.stringify([listed.library, listed.plugin, meta.description, meta.version ?? null, meta.category ?? null, meta.keywords]),
      ...entries.map((entry) => `${entry.path}\0${entry.digest}`),
    ].join("\n"),
  );
  return { listed, entries, digest: `sha256:${digest}`, version: versionOf(meta.version, digest) };
}

/** A declared `1.2.0` (or nothing: `0.0.0`) with the content's digest as a pre-release part: two contents never
 *  share a version, and the plugin's own version still leads. */
export function versionOf(declared: string | undefined, hexDigest: string): string {
  const base = declared !== undefined && /^\d+\.\d+\.\d+$/.test(declared) ? declared : "0.0.0";
  return `${base}-sk.${hexDigest.slice(0, 12)}`;
}

/** The repository's `.claude-plugin/plugin.json`: name, version, description, keywords (and category), two-space
 *  JSON with a final newline. */
export function formatManifest(content: PluginContent): string {
  const meta = content.listed.meta;
  const keywords = keywordsOf(meta);
  return `${JSON.stringify(
    {
      name: content.listed.name,
      version: content.version,
      description: meta.description,
      ...(keywords.length === 0 ? {} : { keywords }),
    },
    null,
    2,
  )}\n`;
}

/** Keywords and tags, once each, in their order. */
export function keywordsOf(meta: PluginMeta): string[] {
  return [...new Set([...meta.keywords, ...meta.tags])];
}
