// The cache directory's record of local harvests (§9): per local plugin, the files it read with their real path,
// size, mtime and digest, and each skill's parse (frontmatter, body offset, citations, placeholders). A restart
// with an unchanged config hands it to the first build as the previous harvest, so an unchanged file (same real
// path, size and mtime) is neither read nor hashed again, and an unchanged SKILL.md is not parsed again. No bytes
// are recorded: a SKILL.md with placeholders is read again, so the shelf a warm restart builds is the shelf a cold
// one builds. Written whole to a temporary file and renamed over the old one, like the git record; a record that
// is missing, corrupted or foreign is ignored.
import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { HarvestedFile, HarvestedPlugin, HarvestedSkill } from "../model.js";
import type { HarvestMemo } from "./assemble.js";

export const HARVEST_FILE = "harvest.json";
const HARVEST_VERSION = 2;

interface RecordedFile {
  readonly path: string;
  readonly abs: string;
  readonly size: number;
  readonly mtimeMs: number;
  readonly digest: string;
  readonly text: boolean;
}

interface RecordedSkill {
  readonly dir: string;
  readonly skillMd: RecordedFile;
  readonly frontmatter: Record<string, unknown>;
  readonly bodyOffset: number;
  readonly cites: readonly string[];
  readonly placeholders: boolean;
  readonly files: readonly RecordedFile[];
}

interface RecordedPlugin {
  readonly id: string;
  readonly skills: readonly RecordedSkill[];
  readonly libraryFiles: readonly RecordedFile[];
}

/** The recorded harvests as a memo with no stamps (so only the per-file reuse applies), when the record exists,
 *  parses, and was written under `configDigest`; else an empty memo. */
export async function readHarvestCache(cacheDir: string, configDigest: string): Promise<HarvestMemo> {
  const memo = new Map<string, { readonly plugin: HarvestedPlugin }>();
  let value: unknown;
  try {
    value = JSON.parse(await readFile(path.join(cacheDir, HARVEST_FILE), "utf8"));
  } catch {
    return memo;
  }
  if (!isObject(value) || value.version !== HARVEST_VERSION || value.config !== configDigest || !Array.isArray(value.plugins)) return memo;
  for (const entry of value.plugins as unknown[]) {
    // One malformed entry means the file is not ours (or was damaged): trust none of it.
    if (!isRecordedPlugin(entry)) return new Map();
    memo.set(entry.id, { plugin: toPlugin(entry) });
  }
  return memo;
}

/** Record the harvests of `plugins` (the caller picks the local ones that harvested). */
export async function writeHarvestCache(cacheDir: string, configDigest: string, plugins: readonly HarvestedPlugin[]): Promise<void> {
  const record = { version: HARVEST_VERSION, config: configDigest, plugins: plugins.filter((p) => p.status === "ok").map(toRecord) };
  await mkdir(cacheDir, { recursive: true, mode: 0o700 });
  const target = path.join(cacheDir, HARVEST_FILE);
  const temp = `${target}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    await writeFile(temp, JSON.stringify(record), { mode: 0o600 });
    await rename(temp, target);
  } finally {
    await rm(temp, { force: true });
  }
}

function toRecord(plugin: HarvestedPlugin): RecordedPlugin {
  return {
    id: plugin.id,
    // A skill whose frontmatter JSON cannot carry unchanged (`.inf`, `-0`) is left out, so it is parsed again.
    skills: plugin.skills.filter((skill) => isPlainJson(skill.frontmatter)).map((skill) => ({
      dir: skill.dir,
      skillMd: fileRecord(skill.skillMd),
      frontmatter: skill.frontmatter,
      bodyOffset: skill.bodyOffset,
      cites: skill.cites,
      placeholders: skill.placeholders,
      files: skill.files.map(fileRecord),
    })),
    libraryFiles: plugin.libraryFiles.map(fileRecord),
  };
}

function fileRecord(file: HarvestedFile): RecordedFile {
  return { path: file.path, abs: file.abs, size: file.size, mtimeMs: file.mtimeMs, digest: file.digest, text: file.text };
}

/** Only what a later harvest reuses: the reads (without bytes) and each skill's parse. The rest stays empty and
 *  is never served: the first build harvests every plugin again from these. */
function toPlugin(entry: RecordedPlugin): HarvestedPlugin {
  const skills = entry.skills.map(
    (skill): HarvestedSkill => ({
      dir: skill.dir,
      address: [],
      name: "",
      description: "",
      frontmatter: skill.frontmatter,
      // No bytes: a SKILL.md with placeholders is read again (its parse is reused when the digest matches).
      skillMd: { ...skill.skillMd },
      bodyOffset: skill.bodyOffset,
      cites: skill.cites,
      placeholders: skill.placeholders,
      files: skill.files.map((file) => ({ ...file })),
    }),
  );
  return {
    id: entry.id,
    meta: { description: "", tags: [], keywords: [] },
    fetch: "",
    root: "",
    status: "ok",
    skills,
    libraryFiles: entry.libraryFiles.map((file) => ({ ...file })),
    tree: new Map(),
    skillDirs: [],
    prompts: [],
    skipped: [],
  };
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

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const DIGEST = /^sha256:[0-9a-f]{64}$/;

function isRecordedFile(value: unknown): value is RecordedFile {
  if (!isObject(value)) return false;
  return typeof value.path === "string" && typeof value.abs === "string" && path.isAbsolute(value.abs) &&
    isCount(value.size) && typeof value.mtimeMs === "number" && Number.isFinite(value.mtimeMs) &&
    typeof value.digest === "string" && DIGEST.test(value.digest) &&
    typeof value.text === "boolean";
}

function isRecordedSkill(value: unknown): value is RecordedSkill {
  if (!isObject(value)) return false;
  return typeof value.dir === "string" && isRecordedFile(value.skillMd) && isObject(value.frontmatter) &&
    isCount(value.bodyOffset) && Array.isArray(value.cites) && value.cites.every((cite) => typeof cite === "string") &&
    typeof value.placeholders === "boolean" && Array.isArray(value.files) && value.files.every((file) => isRecordedFile(file));
}

function isRecordedPlugin(value: unknown): value is RecordedPlugin {
  if (!isObject(value)) return false;
  return typeof value.id === "string" && Array.isArray(value.skills) && value.skills.every(isRecordedSkill) &&
    Array.isArray(value.libraryFiles) && value.libraryFiles.every((file) => isRecordedFile(file));
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}
