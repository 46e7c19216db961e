// The cache directory's record of local harvests (§9): per local plugin, the whole harvest but file bytes: every
// file with its real path, size, mtime and digest, each skill's parse (frontmatter, body offset, citations,
// placeholders), the fallback tree, the prompt files and the skipped rows. Two uses, both only under an unchanged
// config:
// - `serve` starts by serving the recorded plugins as they are, without walking the disk, and verifies them with a
//   rescan straight after (docs/sources.md); reads verify every file on their own meanwhile.
// - any other first build (`check`) takes the record as the previous harvest: every file is walked and stat-ed,
//   and one at the same real path, size and mtime keeps its recorded digest and parse instead of being read again.
// The raw bytes of a SKILL.md with placeholders are recorded (base64): they are substituted per library at build.
// Written to a temporary file a plugin at a time and renamed over the old one, like the git record; a record that is missing,
// damaged, of another version or written under another config is ignored whole.
import { createHash, randomBytes } from "node:crypto";
import { mkdir, open, readFile, rename, rm } from "node:fs/promises";
import path from "node:path";
import { parsePromptFiles } from "../prompts/index.js";
import { digestBytes, formatDigest, VERSION } from "../address/index.js";
import type { HarvestMemo } from "./harvest-spec.js";
import type { DiskFile, HarvestedFile, HarvestedPlugin, HarvestedSkill } from "../harvest/index.js";

export const HARVEST_FILE = "harvest.json";
const HARVEST_VERSION = 7;

type RecordedFile = Omit<HarvestedFile, "bytes"> & { readonly bytes?: string };
type RecordedSkill = Omit<HarvestedSkill, "skillMd" | "files"> & {
  readonly skillMd: RecordedFile;
  readonly files: readonly RecordedFile[];
};
type RecordedPlugin = Omit<HarvestedPlugin, "skills" | "libraryFiles" | "tree" | "parsedPrompts" | "error" | "status"> & {
  /** The directory every file's `abs` is recorded relative to (an `abs` outside it is recorded whole). */
  readonly base: string;
  readonly skills: readonly RecordedSkill[];
  readonly libraryFiles: readonly RecordedFile[];
  readonly tree: readonly DiskFile[];
};

/** The record is a header line (format, skillshelf version, config digest), one line of JSON per plugin, and a last
 *  line with the sha256 of the plugin lines. It is written and parsed a plugin at a time, so neither builds one
 *  string of tens of MB.
 *  The cache directory is private and written only by renames, so plugin lines whose digest matches are exactly
 *  what this version wrote; anything else is ignored without being parsed. */
interface RecordHeader {
  readonly version: number;
  /** The skillshelf that wrote it: another one may harvest the same files differently. */
  readonly app: string;
  readonly config: string;
}

interface RecordTrailer {
  readonly digest: string;
}

/** The recorded harvests, as a memo with no stamps, when the record exists, is whole, and was written by this
 *  version under `configDigest`; else an empty memo. */
export async function readHarvestCache(cacheDir: string, configDigest: string): Promise<HarvestMemo> {
  const memo = new Map<string, { readonly plugin: HarvestedPlugin }>();
  try {
    const bytes = await readFile(path.join(cacheDir, HARVEST_FILE));
    const first = bytes.indexOf(0x0a);
    const last = bytes.lastIndexOf(0x0a);
    if (first < 0) return memo;
    const header = JSON.parse(bytes.toString("utf8", 0, first)) as Partial<RecordHeader> | null;
    const trailer = JSON.parse(bytes.toString("utf8", last + 1)) as Partial<RecordTrailer> | null;
    const lines = bytes.subarray(first + 1, last + 1);
    if (
      header?.version !== HARVEST_VERSION ||
      header.app !== VERSION ||
      header.config !== configDigest ||
      trailer?.digest !== digestBytes(lines)
    )
      return memo;
    for (let start = 0; start < lines.length;) {
      const end = lines.indexOf(0x0a, start);
      const entry = JSON.parse(lines.toString("utf8", start, end)) as RecordedPlugin;
      memo.set(entry.id, { plugin: toPlugin(entry) });
      start = end + 1;
    }
  } catch {
    return new Map();
  }
  return memo;
}

/** Record the harvests of `plugins` (the caller picks the local ones). Only plugins that harvested are recorded, and
 *  not one whose frontmatter JSON cannot carry unchanged (`.inf`, `-0`): it is harvested again next time. */
export async function writeHarvestCache(cacheDir: string, configDigest: string, plugins: readonly HarvestedPlugin[]): Promise<void> {
  const recordable = plugins.filter((plugin) => plugin.status === "ok" && plugin.skills.every((skill) => isPlainJson(skill.frontmatter)));
  await mkdir(cacheDir, { recursive: true, mode: 0o700 });
  const target = path.join(cacheDir, HARVEST_FILE);
  const temp = `${target}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    const file = await open(temp, "w", 0o600);
    try {
      const header: RecordHeader = { version: HARVEST_VERSION, app: VERSION, config: configDigest };
      await file.writeFile(`${JSON.stringify(header)}\n`);
      const hash = createHash("sha256");
      for (const plugin of recordable) {
        const line = Buffer.from(`${JSON.stringify(toRecord(plugin))}\n`);
        hash.update(line);
        await file.writeFile(line);
      }
      const trailer: RecordTrailer = { digest: formatDigest(hash) };
      await file.writeFile(JSON.stringify(trailer));
    } finally {
      await file.close();
    }
    await rename(temp, target);
  } finally {
    await rm(temp, { force: true });
  }
}

function toRecord(plugin: HarvestedPlugin): RecordedPlugin {
  const { skills, libraryFiles, tree, parsedPrompts: _parsed, status: _status, error: _error, ...rest } = plugin;
  const base = commonDir([...tree.values()].map((file) => file.abs));
  const fileRecord = (file: HarvestedFile): RecordedFile => {
    const { bytes, ...read } = file;
    const short = { ...read, abs: relativeTo(base, file.abs) };
    return bytes === undefined ? short : { ...short, bytes: Buffer.from(bytes).toString("base64") };
  };
  return {
    ...rest,
    base,
    skills: skills.map((skill) => ({ ...skill, skillMd: fileRecord(skill.skillMd), files: skill.files.map(fileRecord) })),
    libraryFiles: libraryFiles.map(fileRecord),
    tree: [...tree.values()].map((file) => ({ ...file, abs: relativeTo(base, file.abs) })),
  };
}

/** The plugin as harvested, its prompts parsed again from the recorded files (their skip rows are recorded). */
function toPlugin(entry: RecordedPlugin): HarvestedPlugin {
  const { base, ...recorded } = entry;
  const toFile = (file: RecordedFile): HarvestedFile => {
    const { bytes, ...read } = file;
    const whole = { ...read, abs: absoluteIn(base, file.abs) };
    return bytes === undefined ? whole : { ...whole, bytes: new Uint8Array(Buffer.from(bytes, "base64")) };
  };
  const plugin: HarvestedPlugin = {
    ...recorded,
    status: "ok",
    skills: entry.skills.map((skill) => ({ ...skill, skillMd: toFile(skill.skillMd), files: skill.files.map(toFile) })),
    libraryFiles: entry.libraryFiles.map(toFile),
    tree: new Map(entry.tree.map((file) => [file.path, { ...file, abs: absoluteIn(base, file.abs) }])),
  };
  return { ...plugin, parsedPrompts: parsePromptFiles(plugin.prompts, plugin.dialect ?? "auto").prompts };
}

/** The longest directory (ending in `/`) that holds every path: the plugin's root, in practice. */
function commonDir(paths: readonly string[]): string {
  let base = paths.length === 0 ? "/" : (paths[0] as string).slice(0, (paths[0] as string).lastIndexOf("/") + 1);
  for (const abs of paths) {
    while (!abs.startsWith(base)) base = base.slice(0, base.lastIndexOf("/", base.length - 2) + 1);
  }
  return base;
}

/** Absolute paths start with `/`, so a recorded `abs` without one is relative to the base. */
function relativeTo(base: string, abs: string): string {
  return abs.startsWith(base) ? abs.slice(base.length) : abs;
}

function absoluteIn(base: string, recorded: string): string {
  return recorded.startsWith("/") ? recorded : base + recorded;
}

/** Strings, finite numbers (not -0), booleans, null, arrays and plain objects: what JSON round-trips unchanged. */
function isPlainJson(value: unknown): boolean {
  if (value === null || typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value) && !Object.is(value, -0);
  if (Array.isArray(value)) return value.every(isPlainJson);
  if (typeof value !== "object") return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return false;
  return Object.entries(value).every(([key, v]) => key !== "__proto__" && isPlainJson(v));
}
