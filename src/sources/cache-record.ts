// The cache directory's record of fetched trees (§9): which commit each fetch key served, so a restart with an
// unchanged config serves from disk without touching the network. Written whole to a temporary file and renamed
// over the old one, so a reader sees the previous record or the next, never half of one.
import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";

export const RECORD_FILE = "record.json";
const RECORD_VERSION = 1;

export interface RecordedFetch {
  /** The repository id (a digest of its URL): a changed URL behind one key never reuses a tree. */
  readonly repo: string;
  readonly commit: string;
  /** The object the remote ref named when fetched (a tag object for an annotated tag). */
  readonly oid: string;
  /** When this commit was first served. */
  readonly built: string;
}

interface CacheRecord {
  readonly version: number;
  /** A digest of the config the record was written under; any other config discards it. */
  readonly config: string;
  readonly fetches: Readonly<Record<string, RecordedFetch>>;
}

/** The recorded fetches when the record exists, parses and was written under `configDigest`; else none. */
export async function readCacheRecord(cacheDir: string, configDigest: string): Promise<Map<string, RecordedFetch>> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(path.join(cacheDir, RECORD_FILE), "utf8"));
  } catch {
    return new Map();
  }
  if (!isRecord(value) || value.version !== RECORD_VERSION || value.config !== configDigest) return new Map();
  const fetches = new Map<string, RecordedFetch>();
  for (const [key, entry] of Object.entries(value.fetches)) {
    if (isRecordedFetch(entry)) fetches.set(key, entry);
  }
  return fetches;
}

export async function writeCacheRecord(cacheDir: string, configDigest: string, fetches: ReadonlyMap<string, RecordedFetch>): Promise<void> {
  const record: CacheRecord = {
    version: RECORD_VERSION,
    config: configDigest,
    fetches: Object.fromEntries([...fetches].sort(([a], [b]) => (a < b ? -1 : 1))),
  };
  await mkdir(cacheDir, { recursive: true, mode: 0o700 });
  const target = path.join(cacheDir, RECORD_FILE);
  const temp = `${target}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    await writeFile(temp, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
    await rename(temp, target);
  } finally {
    await rm(temp, { force: true });
  }
}

function isRecord(value: unknown): value is CacheRecord {
  return typeof value === "object" && value !== null && "fetches" in value && typeof value.fetches === "object" && value.fetches !== null;
}

const HEX40 = /^[0-9a-f]{40}$/;

function isRecordedFetch(value: unknown): value is RecordedFetch {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  // The commit becomes a path segment: only 40 hex digits may, never `..` from a tampered record.
  return (
    typeof v.repo === "string" &&
    /^[0-9a-f]{20}$/.test(v.repo) &&
    typeof v.commit === "string" &&
    HEX40.test(v.commit) &&
    typeof v.oid === "string" &&
    typeof v.built === "string"
  );
}
