// Reading served bytes back from disk. The shelf publishes size and digest at harvest; a read must never
// return bytes that disagree with them, so a file that changed since is refused until the next rescan.
import { createHash } from "node:crypto";
import { open } from "node:fs/promises";
import type { DiskFile, ServedFile } from "../model.js";

export type Content = { readonly ok: true; readonly bytes: Uint8Array } | { readonly ok: false };

/** The bytes a read of `file` returns: held in memory, or read from disk. A file whose size and mtime still
 *  match the harvest is served as read; one that changed is hashed and served only if its digest still matches. */
export async function readServedFile(file: ServedFile): Promise<Content> {
  if (file.bytes !== undefined) return { ok: true, bytes: file.bytes };
  const read = await readDiskFile(file.disk);
  if (read === null || read.bytes.byteLength !== file.size) return { ok: false };
  if (read.mtimeMs === file.disk.mtimeMs) return { ok: true, bytes: read.bytes };
  const digest = `sha256:${createHash("sha256").update(read.bytes).digest("hex")}`;
  return digest === file.digest ? { ok: true, bytes: read.bytes } : { ok: false };
}

/** A fallback read publishes no digest in advance: the bytes are whatever the file holds now. */
export async function readFallbackFile(disk: DiskFile): Promise<Content> {
  const read = await readDiskFile(disk);
  return read === null ? { ok: false } : { ok: true, bytes: read.bytes };
}

/** Null when the file vanished or is no longer a regular file; never throws for a missing file. */
async function readDiskFile(disk: DiskFile): Promise<{ bytes: Uint8Array; mtimeMs: number } | null> {
  let handle;
  try {
    handle = await open(disk.abs, "r");
    const stat = await handle.stat();
    if (!stat.isFile()) return null;
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
