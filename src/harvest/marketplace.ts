// Marketplace files (§8): a library's `source` holds one; each entry becomes a plugin `<entry>@<library>`.
// Relative sources read the marketplace's own fetch; `github`, `url` and `git-subdir` sources go through the
// declared git source whose URL prefixes theirs. Anything else (npm, archives, unknown hosts) is skipped with a
// reason, never installed or executed.
import { parsePluginAddress, type PluginAddress, type PluginGlobs, type SourceConfig, type SourceKinds } from "../config/index.js";
import { MANIFEST_FILES, parseLabels, parsePathList, readJsonInRoot } from "./manifest.js";
import type { PluginMeta } from "./types.js";

const MARKETPLACE_FILES: readonly string[] = [
  ".claude-plugin/marketplace.json",
  ".github/plugin/marketplace.json",
  ".agents/plugins/marketplace.json",
];

/** The folders, by name, that hold a plugin manifest or a marketplace file (`.claude-plugin`, `.github`, `.agents`):
 *  what their files say decides what is served and to whom (descriptions, keywords a tag admits by, entries,
 *  skill lists), so a watcher watches them at any depth, although hidden folders are otherwise never watched. */
export const MANIFEST_FOLDERS: ReadonlySet<string> = new Set(
  [...MANIFEST_FILES, ...MARKETPLACE_FILES].filter((file) => file.includes("/")).map((file) => file.slice(0, file.indexOf("/"))),
);

const NAME = /^[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$/;
const ARCHIVE = /\.(zip|tar|tgz|tar\.gz|tar\.bz2|tar\.xz|txz)$/i;
const GITHUB_REPO = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;

type EntrySource =
  /** A folder of the marketplace's own fetch, relative to the marketplace root (`""` for `./`). */
  | { readonly kind: "relative"; readonly path: string }
  /** Another repository, as an address through a declared git source: `github://owner/repo//sub?ref=v1`. */
  | { readonly kind: "git"; readonly address: PluginAddress };

export interface MarketplaceEntry extends PluginGlobs {
  readonly name: string;
  readonly meta: PluginMeta;
  readonly source: EntrySource;
  /** `strict: false`: the entry is the plugin's whole manifest, and no plugin.json is read. */
  readonly strict: boolean;
}

interface MarketplaceSkip {
  /** The entry's name, or `plugins[<i>]` when it has no usable one. */
  readonly entry: string;
  readonly reason: string;
}

interface Marketplace {
  /** The marketplace file, relative to the marketplace root. */
  readonly file: string;
  readonly entries: readonly MarketplaceEntry[];
  readonly skipped: readonly MarketplaceSkip[];
}

export type MarketplaceRead = { readonly ok: true; readonly marketplace: Marketplace } | { readonly ok: false; readonly error: string };

/** Whether `rootAbs` holds a marketplace file (a zero-config directory is then served through it). */
export function hasMarketplaceFile(rootAbs: string): boolean {
  const read = readJsonInRoot(rootAbs, MARKETPLACE_FILES);
  return !read.ok || read.found;
}

/** The first marketplace file under `rootAbs`, parsed; a missing or broken one is the library's error. */
export function readMarketplace(rootAbs: string, sources: readonly SourceConfig[]): MarketplaceRead {
  const read = readJsonInRoot(rootAbs, MARKETPLACE_FILES);
  if (!read.ok) return { ok: false, error: `the marketplace file ${read.error}` };
  if (!read.found) return { ok: false, error: `no marketplace file was found (looked for ${MARKETPLACE_FILES.join(", ")})` };
  return parseMarketplace(read.value, read.file, sources);
}

/** Pure: a parsed marketplace file → servable entries and skipped rows. */
export function parseMarketplace(value: unknown, file: string, sources: readonly SourceConfig[]): MarketplaceRead {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return { ok: false, error: `the marketplace file ${file} is not a JSON object` };
  const v = value as Record<string, unknown>;
  if (!Array.isArray(v.plugins)) return { ok: false, error: `the marketplace file ${file} has no plugins list` };
  const metadata = typeof v.metadata === "object" && v.metadata !== null ? (v.metadata as Record<string, unknown>) : {};
  // A pluginRoot that climbs out of the marketplace is null: the bare sources it would prefix are skipped, never
  // read from the marketplace root instead.
  const pluginRootText = typeof metadata.pluginRoot === "string" ? metadata.pluginRoot : "";
  const pluginRoot = parseRelativePath(pluginRootText);
  const entries: MarketplaceEntry[] = [];
  const skipped: MarketplaceSkip[] = [];
  const seen = new Set<string>();
  v.plugins.forEach((raw: unknown, i: number) => {
    const parsed = parseEntry(raw, i, { sources, pluginRoot, pluginRootText });
    if ("reason" in parsed) {
      skipped.push(parsed);
    } else if (seen.has(parsed.name)) {
      skipped.push({ entry: parsed.name, reason: `A second entry is named ${JSON.stringify(parsed.name)}; the first one is served.` });
    } else {
      seen.add(parsed.name);
      entries.push(parsed);
    }
  });
  return { ok: true, marketplace: { file, entries, skipped } };
}

interface EntryContext {
  readonly sources: readonly SourceConfig[];
  /** metadata.pluginRoot as a path in the marketplace ("" when unset), or null when it escapes it. */
  readonly pluginRoot: string | null;
  readonly pluginRootText: string;
}

function parseEntry(raw: unknown, index: number, ctx: EntryContext): MarketplaceEntry | MarketplaceSkip {
  const unnamed = `plugins[${index}]`;
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return { entry: unnamed, reason: "The entry is not a JSON object." };
  const e = raw as Record<string, unknown>;
  if (typeof e.name !== "string" || e.name === "") return { entry: unnamed, reason: "The entry has no name." };
  const name = e.name;
  if (!NAME.test(name)) {
    return {
      entry: unnamed,
      reason: `The entry name ${JSON.stringify(name)} breaks the naming rule: 1-64 characters of a-z, 0-9 and '-', no hyphen first or last.`,
    };
  }
  const skip = (reason: string): MarketplaceSkip => ({ entry: name, reason });
  const source = parseEntrySource(e.source, ctx);
  if (typeof source === "string") return skip(source);
  const where = `the entry ${JSON.stringify(name)}`;
  const skills = parsePathList(e.skills, where, "skills");
  if (typeof skills === "string") return skip(`${capitalise(skills)}.`);
  const commands = parsePathList(e.commands, where, "commands");
  if (typeof commands === "string") return skip(`${capitalise(commands)}.`);
  const meta: PluginMeta = {
    description: typeof e.description === "string" ? e.description : "",
    ...(typeof e.category === "string" && e.category.trim() !== "" ? { category: e.category.trim() } : {}),
    tags: parseLabels(e.tags),
    keywords: parseLabels(e.keywords),
    ...(typeof e.version === "string" && e.version.trim() !== "" ? { version: e.version } : {}),
  };
  return {
    name,
    meta,
    source,
    strict: e.strict !== false,
    ...(skills === undefined ? {} : { skills }),
    ...(commands === undefined ? {} : { commands }),
  };
}

/** The entry's source, or the one-sentence reason it cannot be served. */
function parseEntrySource(source: unknown, ctx: EntryContext): EntrySource | string {
  if (source === undefined || source === null) return "The entry has no source.";
  if (typeof source === "string") {
    if (/^[a-z][a-z0-9+.-]*:/i.test(source))
      return `Its source ${JSON.stringify(source)} is not a relative path (./…); a repository is given as {source: github|url|git-subdir}.`;
    // `./x` is relative to the marketplace root; a bare `x` to metadata.pluginRoot when the file sets one.
    const explicit = source.startsWith("./") || source === ".";
    if (!explicit && ctx.pluginRoot === null)
      return `Its source path ${JSON.stringify(source)} is under metadata.pluginRoot ${JSON.stringify(ctx.pluginRootText)}, which escapes the marketplace.`;
    const rel = parseRelativePath(explicit ? source : joinRelative(ctx.pluginRoot ?? "", source));
    if (rel === null) return `Its source path ${JSON.stringify(source)} escapes the marketplace.`;
    return { kind: "relative", path: rel };
  }
  if (typeof source !== "object" || Array.isArray(source)) return "Its source is neither a relative path nor an object.";
  const s = source as Record<string, unknown>;
  const type = typeof s.source === "string" ? s.source : "";
  switch (type) {
    case "github": {
      if (typeof s.repo !== "string" || !GITHUB_REPO.test(s.repo)) return "Its github source has no repo as owner/name.";
      return throughSource(`https://github.com/${s.repo}`, "", s, ctx);
    }
    case "url":
    case "git": {
      if (typeof s.url !== "string" || s.url === "") return `Its ${type} source has no url.`;
      return throughSource(s.url, "", s, ctx);
    }
    case "git-subdir": {
      if (typeof s.url !== "string" || s.url === "") return "Its git-subdir source has no url.";
      if (typeof s.path !== "string" || s.path === "") return "Its git-subdir source has no path.";
      const subdir = parseRelativePath(s.path);
      if (subdir === null) return `Its git-subdir path ${JSON.stringify(s.path)} escapes the repository.`;
      // `owner/repo` is GitHub shorthand.
      return throughSource(GITHUB_REPO.test(s.url) ? `https://github.com/${s.url}` : s.url, subdir, s, ctx);
    }
    case "npm":
    case "pip":
      return `Its source is ${type === "npm" ? "an npm" : "a pip"} package: skillshelf never installs packages.`;
    default:
      return type === ""
        ? "Its source object has no source type."
        : `Its source type ${JSON.stringify(type)} is not one skillshelf serves (a relative path, github, url or git-subdir).`;
  }
}

/** A repository URL as an address through the declared git source whose URL is its longest prefix. */
function throughSource(url: string, subdir: string, s: Record<string, unknown>, ctx: EntryContext): EntrySource | string {
  const authority = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(url)?.[1];
  // Credentials written into a public file would be echoed everywhere a URL goes.
  if (authority?.includes("@")) return "Its source URL carries credentials (user:password@), which skillshelf refuses.";
  const clean = url.replace(/\/+$/, "");
  if (ARCHIVE.test(clean)) return "Its source is an archive, which skillshelf does not fetch.";
  let best: { readonly source: SourceConfig; readonly base: string } | undefined;
  for (const source of ctx.sources) {
    if (source.kind !== "git") continue;
    const base = source.url.replace(/^git\+/, "").replace(/\/+$/, "");
    if (clean.startsWith(`${base}/`) && (best === undefined || base.length > best.base.length)) best = { source, base };
  }
  if (best === undefined) return `Its repository is on ${formatHost(url)}, which no declared git source serves.`;
  const sha = typeof s.sha === "string" ? s.sha : undefined;
  const ref = sha ?? (typeof s.ref === "string" ? s.ref : undefined);
  const address = `${best.source.name}://${clean.slice(best.base.length + 1)}${subdir === "" ? "" : `//${subdir}`}${ref === undefined ? "" : `?ref=${ref}`}`;
  const kinds: SourceKinds = new Map(ctx.sources.map((source) => [source.name, source.kind]));
  // The config's own grammar: no `..`, no percent escapes, a ref that cannot reach git as an option.
  // Stryker disable next-line StringLiteral: equivalent; the address always names a source, so no local path is resolved against the base
  const parsed = parsePluginAddress(address, kinds, "/");
  if (!parsed.ok) return `Its source is refused: the address ${parsed.rule}.`;
  return { kind: "git", address: parsed.address };
}

/** `https://github.com/a/b.git` => `https://github.com`; `git@github.com:a/b` => `github.com`. A URL with
 *  credentials never gets here. */
function formatHost(url: string): string {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)/i.exec(url);
  if (scheme !== null) return `${scheme[1]}://${scheme[2]}`;
  return /^(?:[^@/]+@)?([^:/]+):/.exec(url)?.[1] ?? "an unknown host";
}

/** `./plugins/x/` => `plugins/x`; `./` => ``; `../x`, `/x`, `a\b` => null (it escapes). */
export function parseRelativePath(path: string): string | null {
  const trimmed = path.trim();
  if (trimmed.startsWith("/") || trimmed.includes("\\") || trimmed.includes("\u0000")) return null;
  const segments = trimmed.split("/").filter((segment) => segment !== "" && segment !== ".");
  if (segments.includes("..")) return null;
  return segments.join("/");
}

function joinRelative(base: string, rest: string): string {
  return base === "" ? rest : `${base}/${rest}`;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
