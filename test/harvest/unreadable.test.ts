// An unreadable directory under a plugin root is a skipped row with the reason, not a silent gap. Root ignores
// permissions, so the harvest runs as an unprivileged user: `check --json` in a child process with nobody's uid.
import { spawn } from "node:child_process";
import { chmodSync, cpSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, REPO_ROOT, cleanEnv } from "../support/process.js";
import { tempDir } from "../support/temp.js";

/** nobody's uid and gid, when this process may switch to them (it runs as root), else undefined. */
function nobody(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  return { uid: 65534, gid: 65534 };
}

function runAs(
  user: { uid: number; gid: number },
  args: readonly string[],
  cwd: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env: cleanEnv({ HOME: cwd }), uid: user.uid, gid: user.gid });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("an unreadable directory under a plugin root", () => {
  const user = nobody();
  it.skipIf(user === undefined)("is a skipped row naming the directory and the error, and the rest is served", async () => {
    const dir = tempDir("skillshelf-unreadable-");
    chmodSync(dir, 0o755);
    const kit = path.join(dir, "kit");
    cpSync(path.join(REPO_ROOT, "examples", "engineering-kit"), kit, { recursive: true });
    const locked = path.join(kit, "skills", "locked");
    mkdirSync(locked);
    writeFileSync(path.join(locked, "SKILL.md"), "---\nname: locked\ndescription: never read\n---\nbody\n");
    chmodSync(locked, 0o000);
    const cache = path.join(dir, "cache");
    mkdirSync(cache);
    chmodSync(cache, 0o777);
    writeFileSync(
      path.join(dir, "config.yaml"),
      "plugins:\n  - name: kit\n    source: ./kit\nlibraries:\n  - name: lib\n    description: d\n    plugins: [kit]\n",
    );
    try {
      const result = await runAs(
        user as { uid: number; gid: number },
        ["check", "--json", "--config", "config.yaml", "--cache-dir", "cache"],
        dir,
      );
      expect(result.code).toBe(1);
      const report = JSON.parse(result.stdout) as { status: string; skills: number; plugins: Record<string, { skipped?: unknown }> };
      expect([report.status, report.skills]).toEqual(["warnings", 3]);
      expect(report.plugins["kit"]?.skipped).toEqual([
        { path: "skills/locked", reason: "The directory could not be read; nothing under it is served (EACCES)." },
      ]);
    } finally {
      chmodSync(locked, 0o755); // so the temporary directory can be removed
    }
  });
});
