// --cold-disk: a cold start that reads the shelf from the disk, not from the page cache. Node cannot ask the kernel
// to drop one tree's pages (no posix_fadvise), and a fresh copy of the shelf would sit in the page cache as it was
// written; so this drops the whole page cache, the one portable way: `sync`, then 1 into /proc/sys/vm/drop_caches.
// That needs root (and a /proc/sys the container may write), and it disturbs every process on the machine: their
// files are read from the disk again too. Node itself, node_modules and dist/ are dropped with the shelf, so the
// figure is a cold start of the whole program after a reboot-like state of the cache, not only of the shelf.
import { execFileSync } from "node:child_process";
import fs from "node:fs";

const DROP_CACHES = "/proc/sys/vm/drop_caches";

/** Why the page cache cannot be dropped here, or null when it can. */
export function whyNoColdDisk() {
  if (process.platform !== "linux") return `--cold-disk needs Linux's ${DROP_CACHES} (this is ${process.platform})`;
  if (process.getuid?.() !== 0) return `--cold-disk needs root: it writes 1 to ${DROP_CACHES}`;
  try {
    fs.accessSync(DROP_CACHES, fs.constants.W_OK);
  } catch (error) {
    return `--cold-disk: ${DROP_CACHES} is not writable here (${error.code})`;
  }
  return null;
}

/** Write dirty pages out, then drop the clean page cache (not dentries and inodes: `1`, not `3`). */
export function dropPageCache() {
  const why = whyNoColdDisk();
  if (why !== null) throw new Error(why);
  execFileSync("sync");
  fs.writeFileSync(DROP_CACHES, "1\n");
}
