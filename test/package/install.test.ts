// The package as a user installs it: `npm pack`, then `npm install -g` into a temporary prefix, then the installed
// `skillshelf` binary prints its version and checks a config outside the repository.
import { execFile } from "node:child_process";
import { cpSync, readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { EXAMPLE_CONFIG, REPO_ROOT, assertBuilt, cleanEnv } from "../support/process.js";
import { tempDir } from "../support/temp.js";

const run = promisify(execFile);
const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string };

describe("npm pack, then npm install -g", () => {
  it("gives a skillshelf that prints its version and runs check", { timeout: 240_000 }, async () => {
    assertBuilt();
    const dir = tempDir("skillshelf-install-");
    const env = cleanEnv({ npm_config_update_notifier: "false", npm_config_fund: "false", npm_config_audit: "false" });
    // The package is packed from what `npm test` just built (the prepare script would build it again).
    const packed = await run("npm", ["pack", "--ignore-scripts", "--pack-destination", dir, "--json"], { cwd: REPO_ROOT, env });
    const [{ filename }] = JSON.parse(packed.stdout) as [{ filename: string }];
    expect(filename).toBe(`skillshelf-${pkg.version}.tgz`);
    const prefix = path.join(dir, "prefix");
    await run("npm", ["install", "-g", "--prefer-offline", "--prefix", prefix, path.join(dir, filename)], { cwd: dir, env });
    const bin = path.join(prefix, "bin", "skillshelf");

    const version = await run(bin, ["--version"], { cwd: dir, env });
    expect(version.stdout).toBe(`skillshelf ${pkg.version}\n`);

    // The example config and its plugins, copied away from the repository.
    const work = path.join(dir, "work");
    cpSync(path.join(REPO_ROOT, "examples"), path.join(work, "examples"), { recursive: true });
    cpSync(EXAMPLE_CONFIG, path.join(work, "plugins.example.yaml"));
    const check = await run(bin, ["check", "--config", "plugins.example.yaml", "--cache-dir", path.join(dir, "cache")], {
      cwd: work,
      env,
    }).catch((error: { code: number; stdout: string }) => error);
    // The example skips one skill on purpose: status warnings, exit 1.
    expect("code" in check ? check.code : 0).toBe(1);
    expect(check.stdout.split("\n")[0]).toBe("8 skills and 4 prompts in 3 libraries (warnings: 1 skipped)");
  });
});
