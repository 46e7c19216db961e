// Temporary directories that a test file creates are removed when the file's tests end: importing this module
// registers one afterAll in the importing file that removes every directory made through it.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll } from "vitest";

const made: string[] = [];

afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh directory in the OS temporary folder, named `<prefix>XXXXXX`, removed after this file's tests. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}
