// §11: `schema` prints the committed JSON Schema; bad arguments exit 2 with the usage on stderr.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EXAMPLE_CONFIG, REPO_ROOT, runCli } from "../support/process.js";

describe("skillshelf schema", () => {
  it("prints config.schema.json byte for byte", async () => {
    const result = await runCli(["schema"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(readFileSync(path.join(REPO_ROOT, "config.schema.json"), "utf8"));
    expect((JSON.parse(result.stdout) as { $schema?: string }).$schema).toMatch(/2020-12/);
  });
});

describe("bad arguments", () => {
  it.each([
    ["an unknown flag to serve", ["serve", "--config", EXAMPLE_CONFIG, "--bogus"]],
    ["an unknown flag to check", ["check", "--config", EXAMPLE_CONFIG, "--bogus"]],
    ["an unknown command", ["frobnicate"]],
    ["no command", []],
    ["an unknown transport", ["serve", "--config", EXAMPLE_CONFIG, "--transport", "carrier-pigeon"]],
    ["a port out of range", ["serve", "--config", EXAMPLE_CONFIG, "--port", "70000"]],
    ["a port that is not a number", ["serve", "--config", EXAMPLE_CONFIG, "--port", "eighty"]],
    ["an unknown log format", ["serve", "--config", EXAMPLE_CONFIG, "--log-format", "xml"]],
    ["both a config and directories", ["check", "--config", EXAMPLE_CONFIG, "examples/writing-kit"]],
    ["neither a config nor directories", ["check"]],
    ["a directory that does not exist", ["check", "examples/writing-kti"]],
  ])("exit 2 on %s, with the usage on stderr and nothing on stdout", async (_what, args) => {
    const result = await runCli(args);
    expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 2, stdout: "" });
    expect(result.stderr).toContain("Usage:");
  });

  it("takes a setting from the environment, and a flag over it", async () => {
    // SKILLSHELF_TRANSPORT stands for --transport: a bad value from either is refused the same way.
    expect((await runCli(["serve", "--config", EXAMPLE_CONFIG], { env: { SKILLSHELF_TRANSPORT: "carrier-pigeon" } })).code).toBe(2);
    // SKILLSHELF_CONFIG stands for --config (the example skips one skill: exit 1)...
    expect((await runCli(["check"], { env: { SKILLSHELF_CONFIG: EXAMPLE_CONFIG } })).code).toBe(1);
    // ...and the flag wins over it.
    expect((await runCli(["check", "--config", EXAMPLE_CONFIG], { env: { SKILLSHELF_CONFIG: "does-not-exist.yaml" } })).code).toBe(1);
  });

  it("names the path of a directory that does not exist, and the variable that named a config beside directories", async () => {
    const typo = await runCli(["serve", "examples/writing-kti"]);
    expect([typo.code, typo.stderr.split("\n")[0]]).toEqual([
      2,
      "skillshelf serve: 'examples/writing-kti' is not a directory: give skill directories, or --config FILE",
    ]);
    const both = await runCli(["serve", "examples/writing-kit"], { env: { SKILLSHELF_CONFIG: EXAMPLE_CONFIG } });
    expect([both.code, both.stderr.split("\n")[0]]).toEqual([
      2,
      "skillshelf serve: SKILLSHELF_CONFIG names a config file, and directories were given too: unset SKILLSHELF_CONFIG to serve directories, or give no directories",
    ]);
  });

  it("prints the usage on stdout and exits 0 with --help", async () => {
    const result = await runCli(["serve", "--help"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Usage:");
  });
});
