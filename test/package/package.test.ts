// What the package promises: its version is the one servers report, and its entry points exist once built.
import { readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import ts from "typescript";
import { describe, expect, test } from "vitest";
import { assertBuilt } from "../support/process.js";
import * as api from "../../src/index.js";
import { VERSION } from "../../src/address/index.js";

const ROOT = path.resolve(import.meta.dirname, "../..");
const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
  version: string;
  main: string;
  bin: Record<string, string>;
  dependencies: Record<string, string>;
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

  // Type-only helpers (json-schema-to-ts) are devDependencies: neither the code nor the public types may need them.
  test.each([
    { what: "the code of the CLI", entry: "dist/cli.js" },
    { what: "the code of the API", entry: "dist/index.js" },
    { what: "the public types", entry: "dist/index.d.ts" },
  ])("$what imports only node's modules and the dependencies", ({ entry }) => {
    assertBuilt();
    const outside = [...packagesImported(path.join(ROOT, entry))].filter(
      (name) => !builtinModules.includes(name.replace(/^node:/, "")) && !(name in pkg.dependencies),
    );
    expect(outside).toEqual([]);
  });
});

/** Every package a built file imports, following its relative imports (`.js` to `.js`, `.d.ts` to `.d.ts`). */
function packagesImported(entry: string): Set<string> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const { fileName } of ts.preProcessFile(readFileSync(file, "utf8"), true, true).importedFiles) {
      if (fileName.startsWith("."))
        visit(path.resolve(path.dirname(file), file.endsWith(".d.ts") ? fileName.replace(/\.js$/, ".d.ts") : fileName));
      else
        packages.add(
          fileName
            .split("/")
            .slice(0, fileName.startsWith("@") ? 2 : 1)
            .join("/"),
        );
    }
  };
  visit(entry);
  return packages;
}
