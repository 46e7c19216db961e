// The embedded database is one process's: PGlite keeps no lock of its own, and two processes writing one folder
// would corrupt it. A lock file holding the owner's pid is taken before it is opened; a lock whose process is gone
// is taken over.
import { mkdir, open, readFile, rm } from "node:fs/promises";
import path, { join } from "node:path";
import { openEmbedded, type SqlBackend } from "./backend.js";

export interface DataDirLock {
  release(): Promise<void>;
}

/** The lock on `dir` (which must exist) for process `pid`; throws naming the holder when a live process has it. */
export async function lockDataDir(dir: string, pid: number, alive: (pid: number) => boolean): Promise<DataDirLock> {
  const file = join(dir, "skillshelf.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(file, "wx");
      await handle.writeFile(`${pid}\n`);
      await handle.close();
      return { release: () => rm(file, { force: true }) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = Number.parseInt(await readFile(file, "utf8").catch(() => ""), 10);
      if (Number.isInteger(holder) && holder !== pid && alive(holder)) {
        throw new Error(
          `the embedded usage database ${dir} is in use by process ${holder}: give each server its own cache directory, or share PostgreSQL (usage.database)`,
        );
      }
      await rm(file, { force: true });
    }
  }
  throw new Error(`the embedded usage database ${dir} could not be locked`);
}

/** Opens the embedded database in `dir` under the lock of process `pid`; closing it releases the lock. */
export async function openLockedEmbedded(dir: string, pid: number, alive: (pid: number) => boolean): Promise<SqlBackend> {
  await mkdir(dir, { recursive: true });
  const lock = await lockDataDir(dir, pid, alive);
  try {
    const db = await openEmbedded(path.join(dir, "pglite"));
    return {
      ...db,
      close: async () => {
        await db.close();
        await lock.release();
      },
    };
  } catch (error) {
    await lock.release();
    throw error;
  }
}
