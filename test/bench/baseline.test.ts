import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { missingEntries } from "../../bench/lib/baseline.mjs";
import { tempDir } from "../support/temp.js";

describe("a baseline build older than a section", () => {
  it("names the entry points its dist/ lacks, in the section's order", () => {
    const dist = tempDir("bench-baseline-");
    mkdirSync(path.join(dist, "config"));
    writeFileSync(path.join(dist, "cli.js"), "");
    writeFileSync(path.join(dist, "config/index.js"), "");
    expect(missingEntries(dist, ["cli.js", "plugins/index.js", "config/index.js", "guard/check.js"])).toEqual([
      "plugins/index.js",
      "guard/check.js",
    ]);
    expect(missingEntries(dist, ["cli.js", "config/index.js"])).toEqual([]);
  });
});
