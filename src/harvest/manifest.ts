// Plugin manifests (§8): `.claude-plugin/plugin.json`, then `plugin.json`. A manifest fills an empty description
// and a missing version, adds keywords, and supplies `skills` / `commands` paths for kinds the config left unset.
import fs from "node:fs";
import nodePath from "node:path";
import { errorCode } from "../address/index.js";
import { checkGlob, type PluginGlobs } from "../config/index.js";
import { isLiteralGlob, normalizeGlob } from "./globs.js";
import type { PluginMeta } from "./types.js";

export const MANIFEST_FILES: readonly string[] = [".claude-plugin/plugin.json", "plugin.json"];
/** Other hosts' manifests of the same plugin (GitHub Copilot's, Codex's): read when the plugin has none of the
 *  above, and for their `skills` paths that exist when the manifest read lists none. */
export const VENDOR_MANIFEST_FILES: readonly string[] = [".github/plugin/plugin.json", ".codex-plugin/plugin.json"];
/** A manifest or marketplace file larger than this is refused rather than parsed. */
const MAX_JSON_BYTES = 4 * 1024 * 1024;

export interface PluginManifest extends Pick<PluginGlobs, "skills" | "commands"> {
  /** The file it came from, relative to the plugin root. */
  readonly file: string;
  readonly description?: string;
  readonly version?: string;
  readonly keywords: readonly string[];
  /** A vendor manifest's `skills` paths that are not in the plugin, so not taken (a warning row). */
  readonly absentSkills?: { readonly file: string; readonly paths: readonly string[] };
}

export type JsonRead =
  | { readonly ok: true; readonly found: false }
  | { readonly ok: true; readonly found: true; readonly file: string; readonly value: unknown }
  | { readonly ok: false; readonly file: string; readonly error: string };

/**
 * The first of `candidates` (POSIX paths relative to `rootAbs`) that is a regular file inside the root, parsed as
 * JSON. A candidate reached through a symlink that leaves the root is ignored like a missing one: it was never
 * part of the tree. Messages name the file relative to the root, never an absolute path.
 */
export function readJsonInRoot(rootAbs: string, candidates: readonly string[]): JsonRead {
  let rootReal: string;
  try {
    rootReal = fs.realpathSync.native(rootAbs);
    // Stryker disable next-line BlockStatement: equivalent; without the root every candidate's own realpath fails and is passed over the same way
  } catch {
    return { ok: true, found: false };
  }
  for (const file of candidates) {
    let real: string;
    try {
      real = fs.realpathSync.native(nodePath.join(rootReal, ...file.split("/")));
    } catch {
      continue; // missing, or a dangling link
    }
    if (!isBelow(rootReal, real)) continue;
    let stat: fs.Stats;
    try {
      stat = fs.statSync(real);
    } catch {
      continue;
    }
    if (!stat.isFile()) continue;
    if (stat.size > MAX_JSON_BYTES)
      return { ok: false, file, error: `${file} is ${stat.size} bytes, over the ${MAX_JSON_BYTES}-byte limit for a manifest` };
    let text: string;
    try {
      text = fs.readFileSync(real, "utf8");
    } catch (error) {
      return { ok: false, file, error: `${file} could not be read (${errorCode(error, "unknown error")})` };
    }
    try {
      // A leading BOM is not JSON, but editors write one.
      return { ok: true, found: true, file, value: JSON.parse(text.replace(/^\uFEFF/, "")) as unknown };
    } catch {
      // Never the parser's message: it quotes the file's text.
      return { ok: false, file, error: `${file} is not valid JSON` };
    }
  }
  return { ok: true, found: false };
}

export type ManifestRead = { readonly ok: true; readonly manifest: PluginManifest | null } | { readonly ok: false; readonly error: string };

/** The plugin's manifest, `null` when it has none, or the reason the plugin fails. The first of
 *  `.claude-plugin/plugin.json`, `plugin.json`, `.github/plugin/plugin.json`, `.codex-plugin/plugin.json` is the
 *  manifest; when it lists no `skills`, the first vendor manifest that lists skills paths which exist supplies them
 *  (a vendor manifest's paths that are absent are left out: a repository may list skills it copies in at release). */
export function readPluginManifest(rootAbs: string): ManifestRead {
  const read = readJsonInRoot(rootAbs, [...MANIFEST_FILES, ...VENDOR_MANIFEST_FILES]);
  if (!read.ok) return { ok: false, error: read.error };
  if (!read.found) return { ok: true, manifest: null };
  const parsed = parsePluginManifest(read.value, read.file);
  if (!parsed.ok || parsed.manifest === null) return parsed;
  let manifest = parsed.manifest;
  const vendor = VENDOR_MANIFEST_FILES.includes(manifest.file);
  if (vendor && manifest.skills !== undefined) manifest = keepExisting(rootAbs, manifest, manifest.file, manifest.skills);
  if (manifest.skills !== undefined) return { ok: true, manifest };
  for (const file of VENDOR_MANIFEST_FILES) {
    if (file === parsed.manifest.file) continue;
    const other = readJsonInRoot(rootAbs, [file]);
    // Another host's manifest that cannot be read is not this plugin's manifest: it supplies nothing.
    if (!other.ok || !other.found) continue;
    const otherParsed = parsePluginManifest(other.value, file);
    if (!otherParsed.ok || otherParsed.manifest?.skills === undefined) continue;
    const taken = keepExisting(rootAbs, manifest, file, otherParsed.manifest.skills);
    if (taken.skills !== undefined) return { ok: true, manifest: taken };
    manifest = taken;
  }
  return { ok: true, manifest };
}

/** `manifest` with those of `paths` (from the vendor manifest `file`) that exist in the plugin as its `skills`;
 *  the absent ones are recorded. A glob is kept: what it matches is the harvest's to find. */
function keepExisting(rootAbs: string, manifest: PluginManifest, file: string, paths: readonly string[]): PluginManifest {
  const present: string[] = [];
  const absent: string[] = [];
  for (const path of paths) {
    if (!isLiteralGlob(path) || existsInRoot(rootAbs, path)) present.push(path);
    // An absent `./skills/` is what the convention finds anyway, nothing: generated manifests list it blindly.
    else if (normalizeGlob(path) !== "skills") absent.push(path);
  }
  const { skills: _skills, ...rest } = manifest;
  return {
    ...rest,
    ...(present.length === 0 ? {} : { skills: present }),
    ...(absent.length === 0 ? {} : { absentSkills: { file, paths: absent } }),
  };
}

/** Whether the relative path names a file or folder inside the root (never through a link leaving it). */
function existsInRoot(rootAbs: string, path: string): boolean {
  try {
    const root = fs.realpathSync.native(rootAbs);
    const real = fs.realpathSync.native(nodePath.join(root, ...normalizeGlob(path).split("/")));
    return real === root || isBelow(root, real);
  } catch {
    return false;
  }
}

/** Pure: a parsed plugin.json as the fields skillshelf uses. Fields it does not use (agents, hooks…) are ignored. */
export function parsePluginManifest(value: unknown, file: string): ManifestRead {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { ok: false, error: `${file} is not a JSON object` };
  const v = value as Record<string, unknown>;
  const skills = parsePathList(v.skills, file, "skills");
  if (typeof skills === "string") return { ok: false, error: skills };
  const commands = parsePathList(v.commands, file, "commands");
  if (typeof commands === "string") return { ok: false, error: commands };
  const manifest: PluginManifest = {
    file,
    ...(typeof v.description === "string" && v.description.trim() !== "" ? { description: v.description } : {}),
    ...(typeof v.version === "string" && v.version.trim() !== "" ? { version: v.version } : {}),
    keywords: parseLabels(v.keywords),
    ...(skills === undefined ? {} : { skills }),
    ...(commands === undefined ? {} : { commands }),
  };
  return { ok: true, manifest };
}

/** `"./skills/"` or `["./a", "./b"]` => the list; anything else, or a path that climbs out, => the rule broken. */
export function parsePathList(value: unknown, file: string, field: string): readonly string[] | undefined | string {
  if (value === undefined) return undefined;
  const list = typeof value === "string" ? [value] : value;
  if (!Array.isArray(list) || !list.every((item): item is string => typeof item === "string" && item.trim() !== "")) {
    return `${file}: ${field} must be a path or a list of paths`;
  }
  for (const item of list) {
    const bad = checkGlob(item.trim());
    if (bad !== undefined) return `${file}: ${field} path ${JSON.stringify(item)}: ${bad}`;
  }
  return list.map((item) => item.trim());
}

/** Keywords and tags as selectors can match them: strings without commas, trimmed, no repeats. */
export function parseLabels(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  const labels = value.filter((item): item is string => typeof item === "string").map((item) => item.trim());
  return [...new Set(labels.filter((label) => label !== "" && !label.includes(",")))];
}

/** The config's metadata with the manifest's filled in: `description` when empty, `version` when missing, keywords added. */
export function applyManifestMeta(meta: PluginMeta, manifest: PluginManifest | null): PluginMeta {
  if (manifest === null) return meta;
  const keywords = [...new Set([...meta.keywords, ...manifest.keywords])];
  return {
    ...meta,
    description: meta.description === "" && manifest.description !== undefined ? manifest.description : meta.description,
    ...(meta.version === undefined && manifest.version !== undefined ? { version: manifest.version } : {}),
    keywords,
  };
}

/** Strictly below the root: a candidate is a file, and the root is not. */
function isBelow(rootReal: string, real: string): boolean {
  return real.startsWith(rootReal.endsWith(nodePath.sep) ? rootReal : rootReal + nodePath.sep);
}
