// Building one WebDAV export: the folder's files as one listing named them, in a directory named by the digest of
// that listing. Files whose tag did not move since the previous export are linked from it, the rest downloaded
// (DOWNLOADS at a time) into a temporary directory renamed into place, so a crash never leaves half of one.
import { createHash, randomBytes } from "node:crypto";
import { copyFile, link, mkdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { isDirectory } from "./directories.js";
import type { DavExport } from "./webdav-store.js";
import { listingFile } from "./webdav-store.js";
import type { DavEntry, DavListing, DavShare } from "./webdav-share.js";

/** Downloads of one export at a time. */
const DOWNLOADS = 8;

/** The digest of a listing: paths in code-unit order with their tags and sizes. */
export function digestListing(listing: DavListing): string {
  const hash = createHash("sha256");
  for (const rel of [...listing.keys()].sort()) {
    const entry = listing.get(rel) as DavEntry;
    hash.update(`${rel}\0${entry.tag}\0${entry.size}\n`);
  }
  return hash.digest("hex");
}

/** Download what changed since `reuse`, link what did not, write the listing beside the export, rename it into
 *  place as `dir` (in `base`). Another build of the same listing that wins the rename is the same files. */
export async function buildExport(
  share: DavShare,
  listing: DavListing,
  base: string,
  dir: string,
  reuse: Partial<DavExport> | undefined,
): Promise<void> {
  await mkdir(base, { recursive: true, mode: 0o700 });
  const temp = `${dir}.${randomBytes(6).toString("hex")}.tmp`;
  await mkdir(temp, { mode: 0o700 });
  try {
    const made = new Set<string>();
    const work = [...listing];
    const next = async (): Promise<void> => {
      for (let item = work.pop(); item !== undefined; item = work.pop()) {
        const [rel, entry] = item;
        const target = path.join(temp, ...rel.split("/"));
        const parent = path.dirname(target);
        if (!made.has(parent)) {
          await mkdir(parent, { recursive: true, mode: 0o700 });
          made.add(parent);
        }
        if (reuse?.dir !== undefined && reuse.listing !== undefined && sameEntry(reuse.listing.get(rel), entry)) {
          if (await linkOrCopy(path.join(reuse.dir, ...rel.split("/")), target)) continue;
        }
        await writeFile(target, await share.download(rel), { mode: 0o600 });
      }
    };
    await Promise.all(Array.from({ length: DOWNLOADS }, next));
    await writeFile(listingFile(dir), JSON.stringify([...listing]), { mode: 0o600 });
    try {
      await rename(temp, dir);
    } catch (error) {
      // Another fetch of the same listing won the rename: its export is the same files.
      if (!(await isDirectory(dir))) throw error;
      await rm(temp, { recursive: true, force: true });
    }
  } catch (error) {
    await rm(temp, { recursive: true, force: true });
    throw error;
  }
}

function sameEntry(a: DavEntry | undefined, b: DavEntry): boolean {
  return a !== undefined && a.tag === b.tag && a.size === b.size;
}

/** Exports are never written once in place, so a file of one can be a hard link to the same file of another. */
async function linkOrCopy(from: string, to: string): Promise<boolean> {
  try {
    await link(from, to);
    return true;
  } catch {
    try {
      await copyFile(from, to);
      return true;
    } catch {
      return false;
    }
  }
}
