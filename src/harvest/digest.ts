// Reading served files: one read per file gives its digest and its text-ness (and hands over the bytes, when asked).
import { isUtf8 } from "node:buffer";
import { createHash } from "node:crypto";
import fs from "node:fs";

import { digestBytes, errorCode, formatDigest } from "../address/index.js";
import { checkBinary, type FileFinding, FindingCache } from "../guard/index.js";

/** What a failed read without an errno code is called in a skipped row. */
export const IO_ERROR = "I/O error";
import type { Pacer } from "./pacer.js";
import type { DiskFile, HarvestedFile, HarvestedPlugin } from "./types.js";

/** The guard's findings by content digest, shared by every harvest of the process: bytes checked once (in any
 *  plugin, in any earlier harvest) are not checked again, so a rescan or a rebuild of unchanged files re-checks
 *  nothing. */
export const guardFindings = new FindingCache();

/** Files up to this size are read whole in one call; larger ones are hashed in chunks of this size. The shelf keeps
 *  no file's bytes either way: a read is served from disk (through the serving process's bounded cache). */
export const SMALL_FILE_BYTES = 1024 * 1024;

/** The one buffer every read goes through (allocated on first use): a harvest reads tens of thousands of files,
 *  and a fresh buffer for each leaves ~100 MB of external memory behind it. Its contents are consumed before any
 *  `await`, so concurrent harvests can share it. */
let scratch: Buffer | undefined;
const scratchBuffer = (): Buffer => (scratch ??= Buffer.allocUnsafeSlow(SMALL_FILE_BYTES + 1));

/** What a reader hands the whole bytes of a file to, with their digest (a view that is only good during the call). */
type BytesUse = (bytes: Uint8Array, digest: string) => void;

/** Told the bytes of each file read whole (up to SMALL_FILE_BYTES) and their digest: a view, good only during the
 *  call. */
export type FileBytesSeen = (digest: string, bytes: Uint8Array) => void;

const modeOf = (file: DiskFile): { executable?: true } => (file.executable ? { executable: true } : {});

/** Whether two records name the same file unchanged: same real path, size and mtime (§9). */
export function sameStat(a: DiskFile, b: DiskFile): boolean {
  return a.abs === b.abs && a.size === b.size && a.mtimeMs === b.mtimeMs && a.executable === b.executable;
}

/** Read `file` once, reporting it as `path`. `use` is handed the whole bytes first (a SKILL.md to parse). Sizes come
 *  from the bytes read, not the earlier stat, so the size and the digest always describe the same bytes. */
async function readHarvestedFile(
  file: DiskFile,
  path: string,
  pacer: Pacer,
  use?: BytesUse,
  onRead?: FileBytesSeen,
): Promise<HarvestedFile> {
  const whole = file.size <= SMALL_FILE_BYTES ? readIntoScratch(file.abs) : null;
  if (whole !== null || use !== undefined) {
    const bytes = whole ?? readWhole(file.abs);
    const digest = digestBytes(bytes);
    use?.(bytes, digest);
    onRead?.(digest, bytes);
    // isUtf8 is the fatal TextDecoder's verdict without building the string.
    const text = isUtf8(bytes);
    // The guard reads the shared buffer before its first await (it decodes the text synchronously).
    const findings = await guardFindings.file(digest, path, bytes, text);
    return { path, abs: file.abs, size: bytes.length, mtimeMs: file.mtimeMs, ...modeOf(file), digest, text, ...withFindings(findings) };
  }
  const hash = createHash("sha256");
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const chunk = scratchBuffer();
  let text = true;
  let size = 0;
  let findings: FileFinding[] = [];
  const fd = openRegularFile(file.abs);
  try {
    for (let n = fs.readSync(fd, chunk, 0, SMALL_FILE_BYTES, size); n > 0; n = fs.readSync(fd, chunk, 0, SMALL_FILE_BYTES, size)) {
      const part = chunk.subarray(0, n);
      // A file past SMALL_FILE_BYTES is checked for an executable's header only.
      if (size === 0) findings = checkBinary(part.subarray(0, 4096));
      hash.update(part);
      size += n;
      if (text) text = decodes(decoder, part);
      if (pacer.due()) await pacer.pause();
    }
  } finally {
    fs.closeSync(fd);
  }
  if (text) text = decodes(decoder); // A multi-byte sequence cut off at the end is not UTF-8.
  return { path, abs: file.abs, size, mtimeMs: file.mtimeMs, ...modeOf(file), digest: formatDigest(hash), text, ...withFindings(findings) };
}

function withFindings(findings: readonly FileFinding[]): { findings?: readonly FileFinding[] } {
  return findings.length === 0 ? {} : { findings };
}

/** The whole file as a view of the shared buffer (good until the next read), or null when it has grown past
 *  SMALL_FILE_BYTES since it was listed. */
function readIntoScratch(abs: string): Uint8Array | null {
  const buffer = scratchBuffer();
  const fd = openRegularFile(abs);
  try {
    let size = 0;
    for (let n = fs.readSync(fd, buffer, 0, buffer.length, 0); n > 0; n = fs.readSync(fd, buffer, size, buffer.length - size, size)) {
      size += n;
      if (size === buffer.length) return null;
    }
    return buffer.subarray(0, size);
  } finally {
    fs.closeSync(fd);
  }
}

/** Opened without blocking and checked: a FIFO swapped in for a listed file would block a plain open, and the
 *  whole process with it, until a writer came. Throws (code `not a regular file`) for anything but a file. */
function openRegularFile(abs: string): number {
  const fd = fs.openSync(abs, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  if (fs.fstatSync(fd).isFile()) return fd;
  fs.closeSync(fd);
  throw Object.assign(new Error("not a regular file"), { code: "not a regular file" });
}

function readWhole(abs: string): Buffer {
  const fd = openRegularFile(abs);
  try {
    return fs.readFileSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Feed one chunk to a streaming fatal decoder (no chunk = the end); false once the bytes are not UTF-8. */
function decodes(decoder: TextDecoder, part?: Uint8Array): boolean {
  try {
    if (part === undefined) decoder.decode();
    else decoder.decode(part, { stream: true });
    return true;
  } catch {
    return false;
  }
}

/** Node's error code (`ENOENT`) or a generic word; never the message, which carries the absolute path. */
type ReadResult = { readonly ok: true; readonly file: HarvestedFile } | { readonly ok: false; readonly code: string };

/** Reads each file at most once, by its path from the plugin root: a nested skill's files are also its outer
 *  skill's files. Yields to the event loop between slices of work. */
export interface FileReader {
  /** The file's read: reused from the previous harvest when unchanged, else read and hashed. */
  read(file: DiskFile): Promise<ReadResult>;
  /** Read the file whatever the previous harvest holds, handing its whole bytes to `use` during the read. */
  readWith(file: DiskFile, use: BytesUse): Promise<ReadResult>;
}

/** `prior` holds the previous harvest's reads by path from the plugin root: a file with the same real path, size
 *  and mtime is taken as unchanged (§9) and is neither re-read nor re-hashed. */
export function createFileReader(pacer: Pacer, prior: ReadonlyMap<string, HarvestedFile> = new Map(), onRead?: FileBytesSeen): FileReader {
  const cache = new Map<string, Promise<ReadResult>>();
  const load = async (file: DiskFile, use?: BytesUse): Promise<ReadResult> => {
    if (pacer.due()) await pacer.pause();
    try {
      return { ok: true, file: await readHarvestedFile(file, file.path, pacer, use, onRead) };
    } catch (error) {
      return { ok: false, code: errorCode(error, IO_ERROR) };
    }
  };
  return {
    read(file: DiskFile): Promise<ReadResult> {
      let result = cache.get(file.path);
      if (result === undefined) {
        const old = prior.get(file.path);
        result = old !== undefined && sameStat(old, file) ? Promise.resolve({ ok: true, file: { ...old, path: file.path } }) : load(file);
        cache.set(file.path, result);
      }
      return result;
    },
    readWith(file: DiskFile, use: BytesUse): Promise<ReadResult> {
      const result = load(file, use);
      cache.set(file.path, result);
      return result;
    },
  };
}

/** The reads of a previous harvest, by path from the plugin root (skill files are stored relative to their skill). */
export function priorReads(previous: HarvestedPlugin | undefined): Map<string, HarvestedFile> {
  const reads = new Map<string, HarvestedFile>();
  if (previous === undefined || previous.status !== "ok") return reads;
  const keep = (path: string, file: HarvestedFile): void => {
    const { bytes: _bytes, ...read } = file;
    reads.set(path, read);
  };
  for (const skill of previous.skills) {
    const prefix = skill.dir === "" ? "" : `${skill.dir}/`;
    keep(`${prefix}SKILL.md`, skill.skillMd);
    for (const file of skill.files) keep(prefix + file.path, file);
  }
  for (const file of previous.libraryFiles) keep(file.path, file);
  return reads;
}
