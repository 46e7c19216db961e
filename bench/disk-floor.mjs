// The floor for harvest: walk a tree and read and sha256 every regular file, nothing else (no frontmatter, no
// globs, no shelf). A harvest must at least do this to publish digests, so skillshelf's harvest + build time
// over this is the share that is ours. Prints `{ms, files, bytes, peakMB}` as JSON.
//   node bench/disk-floor.mjs ROOT
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { memoryOf } from "./lib/proc.mjs";

const root = path.resolve(process.argv[2]);
const t0 = performance.now();
let files = 0;
let bytes = 0;
const stack = [root];
while (stack.length > 0) {
  const dir = stack.pop();
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const abs = path.join(dir, entry.name);
    if (entry.isDirectory()) stack.push(abs);
    else if (entry.isFile() && dir !== root) {
      // the root holds the bench's manifest and config, not the shelf
      const data = fs.readFileSync(abs);
      createHash("sha256").update(data).digest("hex");
      files++;
      bytes += data.length;
    }
  }
}
process.stdout.write(`${JSON.stringify({ ms: performance.now() - t0, files, bytes, peakMB: memoryOf(process.pid)?.peakMB })}\n`);
