// What the package promises: its version is the one servers report, and its entry points exist once built.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import * as api from "../../src/index.js";
import { VERSION } from "../../src/address/index.js";

const ROOT = path.resolve(import.meta.dirname, "../..");
const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
  version: string;
  main: string;
  bin: Record<string, string>;
};

describe("the package", () => {
  test("serverInfo.version is package.json's version", () => {
    expect(VERSION).toBe(pkg.version);
  });

  test("main and bin name the built index and CLI", () => {
    expect(pkg.main).toBe("dist/index.js");
    expect(pkg.bin).toEqual({ skillshelf: "dist/cli.js" });
  });

  test("the public API exposes the pipeline's stages", () => {
    expect(Object.keys(api).sort()).toEqual([
      "CONFIG_SCHEMA",
      "ContentCache",
      "FULL_SCOPE",
      "ShelfReader",
      "ShelfService",
      "VERSION",
      "buildHealth",
      "buildMcpServer",
      "buildShelf",
      "compileScope",
      "configFromDirectories",
      "createHttpApp",
      "formatConfigErrors",
      "harvestPlugin",
      "listingRows",
      "loadConfig",
      "parseConfig",
      "readDirectory",
      "renderPrompt",
      "resolve",
      "startLiveShelf",
      "visibleSkills",
    ]);
  });
});
