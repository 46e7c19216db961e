// A mutation run's temporary trees in one folder of their own, removed when the run ends. Stryker stops a test
// worker that runs past its timeout, and a stopped worker never reaches its afterAll: the trees it made would
// otherwise stay in the system's temporary folder, one set per timed-out mutant.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export default function setup(): () => void {
  const dir = mkdtempSync(path.join(tmpdir(), "skillshelf-mutation-"));
  const previous = process.env["TMPDIR"];
  // Set before the workers start, so each inherits it and os.tmpdir() answers it there.
  process.env["TMPDIR"] = dir;
  return () => {
    if (previous === undefined) delete process.env["TMPDIR"];
    else process.env["TMPDIR"] = previous;
    rmSync(dir, { recursive: true, force: true });
  };
}
