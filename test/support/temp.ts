// Temporary directories that a test file creates are removed when the file's tests end: the suite's setup file
// (test/support/setup.ts) registers `removeTempDirs` as an afterAll of every test file, so this holds even when
// test files share one module graph (`isolate: false`).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const made: string[] = [];

/** Remove every directory made through `tempDir` so far. */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A fresh directory in the OS temporary folder, named `<prefix>XXXXXX`, removed after this file's tests. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}
