// `--version` and `help` answer without loading the server: a command's modules load only when it runs. Checked by
// what the process resolves (a loader hook logs every module), not by time.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { tempDir } from "../support/temp.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const HOOK = pathToFileURL(path.join(ROOT, "test/support/module-log.mjs")).href;

/** The modules of dist/ (relative paths) and the packages a run of the CLI loaded. */
function loaded(args: string[], input?: string): { dist: string[]; packages: string[]; stdout: string } {
  const log = path.join(tempDir("skillshelf-modules-"), "modules.txt");
  const run = spawnSync(process.execPath, ["--import", HOOK, path.join(ROOT, "dist/cli.js"), ...args], {
    env: { ...process.env, SKILLSHELF_MODULE_LOG: log },
    encoding: "utf8",
    ...(input === undefined ? {} : { input, cwd: ROOT }),
  });
  expect(run.status).toBe(0);
  const urls = readFileSync(log, "utf8").trim().split("\n");
  const dist = pathToFileURL(path.join(ROOT, "dist")).href + "/";
  const modules = pathToFileURL(path.join(ROOT, "node_modules")).href + "/";
  return {
    dist: [...new Set(urls.filter((url) => url.startsWith(dist)).map((url) => url.slice(dist.length)))].sort(),
    packages: [
      ...new Set(
        urls.filter((url) => url.startsWith(modules)).map((url) => /^(@[^/]+\/[^/]+|[^/]+)/.exec(url.slice(modules.length))?.[1] ?? url),
      ),
    ].sort(),
    stdout: run.stdout,
  };
}

describe("what a command loads", () => {
  it.each([{ args: ["--version"] }, { args: ["help"] }, { args: ["help", "serve"] }, { args: ["serve", "--help"] }])(
    "$args loads the CLI's tables and the vocabulary, no server",
    ({ args }) => {
      const run = loaded(args);
      expect(run.stdout).not.toBe("");
      // The vocabulary's media types (address/media.ts) are the one package.
      expect(run.packages).toEqual(["mime-types"]);
      // The entry, the command table, the help text, the help tables and the vocabulary they name (address/): nothing
      // else.
      expect(run.dist.filter((file) => !file.startsWith("address/"))).toEqual(["cli.js", "cli/help.js", "cli/index.js", "usage.js"]);
    },
  );

  it("schema loads the config's schema but no server", () => {
    const run = loaded(["schema"]);
    expect(run.dist.some((file) => file.startsWith("config/"))).toBe(true);
    expect(run.dist.filter((file) => /^(live|http|mcp|web|sources|harvest|store|oauth|plugins)\//.test(file))).toEqual([]);
  });

  it("a stdio server answers initialize without the HTTP face, the store, the git remote, archives or SARIF", () => {
    const initialize = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "modules", version: "1" } },
    };
    const cache = tempDir("skillshelf-modules-cache-");
    const run = loaded(
      ["serve", "--transport", "stdio", "--config", "plugins.example.yaml", "--cache-dir", cache],
      `${JSON.stringify(initialize)}\n`,
    );
    expect(run.stdout).toContain('"protocolVersion":"2025-06-18"');
    expect(run.dist.filter((file) => /^(http|web|oauth|store|plugins)\//.test(file))).toEqual([]);
    // Packages that only HTTP, usage counting, archives or `check --sarif` need; ajv's compiler (the config check
    // runs as generated code).
    const heavy = ["express", "postgres", "@electric-sql/pglite", "tar-stream", "node-sarif-builder", "openid-client", "jose", "ajv"];
    expect(run.packages.filter((name) => heavy.includes(name))).toEqual([]);
  });
});
