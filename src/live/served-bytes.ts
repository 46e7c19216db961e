// Reading served bytes back from disk. The shelf publishes size and digest at harvest; a read must never
// return bytes that disagree with them, so a file that changed since is refused until the next rescan. Nor may it
// return bytes from outside the plugin root, whatever was swapped for a link since: every descriptor opened is
// checked to be the file at the real path the harvest recorded, before a byte of it is read.
import { closeSync, constants, existsSync, fstatSync, openSync, readlinkSync, readSync, realpathSync, type Stats, statSync } from "node:fs";
import { open } from "node:fs/promises";
import { digestBytes } from "../address/index.js";
import type { DiskFile } from "../harvest/index.js";
import type { ServedFile } from "../shelf/index.js";

export type Content = { readonly ok: true; readonly bytes: Uint8Array } | { readonly ok: false };

/** The bytes a read of `file` returns: held in memory, or read from disk. With `hash`, the bytes read are served only
 *  if their digest is the published one (bytes about to be held under that digest must be exactly those). Without,
 *  a file whose size and mtime still match the harvest is served as read (§9), and one whose mtime moved is hashed
 *  and served only if its digest still matches. */
export async function readServedFile(file: ServedFile, hash = false): Promise<Content> {
  if (file.bytes !== undefined) return { ok: true, bytes: file.bytes };
  const read = await readDiskFile(file.disk);
  if (read === null || read.bytes.byteLength !== file.size) return { ok: false };
  if (!hash && read.mtimeMs === file.disk.mtimeMs) return { ok: true, bytes: read.bytes };
  return digestBytes(read.bytes) === file.digest ? { ok: true, bytes: read.bytes } : { ok: false };
}

/** A fallback read publishes no digest, so there is nothing to check its bytes against: it is served only while its
 *  size and mtime are still the harvest's. One that changed since is refused like a served file that did, and waits
 *  for the rescan that publishes it again. */
export async function readFallbackFile(disk: DiskFile): Promise<Content> {
  const read = await readDiskFile(disk);
  if (read === null || read.bytes.byteLength !== disk.size || read.mtimeMs !== disk.mtimeMs) return { ok: false };
  return { ok: true, bytes: read.bytes };
}

/** Harvest records each file by its real path, so no component is a link; a last component that became one since
 *  is refused by the open itself (O_NOFOLLOW), a directory above it swapped for one by `isOpenedAt`. Non-blocking:
 *  a FIFO put where a file was would otherwise block the open, and with it the whole process, until a writer came;
 *  opened this way it answers at once and fails the isFile check. */
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** Where Linux names the file behind each open descriptor: the path it was reached by, every link resolved. */
const FD_PATHS = "/proc/self/fd";
const HAS_FD_PATHS = existsSync(FD_PATHS);

/**
 * Whether the open descriptor `fd` (whose fstat is `stat`) is the file at `abs`, a real path the harvest recorded
 * inside the root. O_NOFOLLOW refuses a link only in the last component: a directory above the file replaced by a
 * link to a folder outside, holding a file of the same name, size and mtime, is opened without complaint. Where the
 * kernel names the descriptor's file (`/proc/self/fd`), that name must be `abs` itself: a file reached through any
 * link, moved, or deleted is named otherwise. Elsewhere `abs` must resolve to itself now and name the very file
 * opened (same device and inode), so a link swapped in for the open and out again is caught by the inode. One or
 * two system calls, synchronous even for the large reads: cheaper than a promise round trip.
 */
export function isOpenedAt(fd: number, stat: Stats, abs: string, fdPaths = HAS_FD_PATHS): boolean {
  if (fdPaths) return readlinkSync(`${FD_PATHS}/${fd}`) === abs;
  if (realpathSync.native(abs) !== abs) return false;
  const now = statSync(abs);
  return now.dev === stat.dev && now.ino === stat.ino;
}

/** Up to this size a read is synchronous: one open, fstat, read and close from the page cache cost less than the
 *  four promise round trips of the async API (the largest cost of a read on the 10k-skill shelf). */
const SYNC_READ_BYTES = 64 * 1024;

/** Null when the file vanished, is no longer a regular file, or is not the file at the recorded real path (a link
 *  above it); never throws for a missing file. */
async function readDiskFile(disk: DiskFile): Promise<{ bytes: Uint8Array; mtimeMs: number } | null> {
  return disk.size <= SYNC_READ_BYTES ? readSmallFile(disk) : readLargeFile(disk);
}

function readSmallFile(disk: DiskFile): { bytes: Uint8Array; mtimeMs: number } | null {
  let fd: number | undefined;
  try {
    fd = openSync(disk.abs, OPEN_FLAGS);
    const stat = fstatSync(fd);
    if (!stat.isFile() || !isOpenedAt(fd, stat, disk.abs)) return null;
    // Read what is there now (it may have grown or shrunk since the harvest); the caller checks the size.
    const bytes = new Uint8Array(stat.size);
    let read = 0;
    while (read < bytes.length) {
      const n = readSync(fd, bytes, read, bytes.length - read, read);
      if (n === 0) break;
      read += n;
    }
    return { bytes: read === bytes.length ? bytes : bytes.subarray(0, read), mtimeMs: stat.mtimeMs };
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

async function readLargeFile(disk: DiskFile): Promise<{ bytes: Uint8Array; mtimeMs: number } | null> {
  let handle;
  try {
    handle = await open(disk.abs, OPEN_FLAGS);
    const stat = await handle.stat();
    if (!stat.isFile() || !isOpenedAt(handle.fd, stat, disk.abs)) return null;
    return { bytes: new Uint8Array(await handle.readFile()), mtimeMs: stat.mtimeMs };
  } catch {
    return null;
  } finally {
    await handle?.close();
  }
}

const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The text of `bytes` when they are valid UTF-8 (a BOM is kept: bytes are served as they are), else null. */
export function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return UTF8.decode(bytes);
  } catch {
    return null;
  }
}
