// `--version`, `help [command]` and `--help` on every command: on stdout, exit 0, every flag with its meaning,
// default and environment variable, and the exit codes; a wrong command or topic on stderr, exit 2.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT, runCli } from "../support/process.js";

const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string };

/** Every flag of a command as its help lists them: `--name`, in order. */
function flagsOf(help: string): string[] {
  return [...help.matchAll(/^ {2}(?:-\w, )?(--[a-z-]+)/gm)].map((match) => match[1] as string);
}

const EXIT_CODES = ["0", "1", "2", "3", "4", "70"];

function exitCodesOf(help: string): string[] {
  const section = help.slice(help.indexOf("Exit codes:"));
  return [...section.matchAll(/^ {2}(\d+) /gm)].map((match) => match[1] as string);
}

describe("skillshelf --version", () => {
  it("prints the package version on stdout", async () => {
    expect(await runCli(["--version"])).toEqual({ code: 0, signal: null, stdout: `skillshelf ${pkg.version}\n`, stderr: "" });
  });
});

describe("help", () => {
  it("lists the commands and the exit codes, from `help` and `--help` alike", async () => {
    const help = await runCli(["help"]);
    expect({ code: help.code, stderr: help.stderr }).toEqual({ code: 0, stderr: "" });
    expect([...help.stdout.matchAll(/^ {2}(serve|check|schema|help) /gm)].map((m) => m[1])).toEqual(["serve", "check", "schema", "help"]);
    expect(exitCodesOf(help.stdout)).toEqual(EXIT_CODES);
    expect((await runCli(["--help"])).stdout).toBe(help.stdout);
  });

  it.each([
    [
      "serve",
      [
        "--config",
        "--naming",
        "--transport",
        "--host",
        "--port",
        "--allowed-hosts",
        "--allow-any-host",
        "--allowed-origins",
        "--cache-dir",
        "--library",
        "--categories",
        "--tags",
        "--log-level",
        "--log-format",
        "--drain-seconds",
        "--stateless",
        "--max-sessions",
        "--session-idle-seconds",
        "--help",
      ],
    ],
    ["check", ["--config", "--naming", "--json", "--sarif", "--cache-dir", "--help"]],
    ["schema", ["--help"]],
    ["help", ["--help"]],
  ])("`%s --help` and `help %s` print every flag and the exit codes on stdout", async (command, flags) => {
    const viaFlag = await runCli([command, "--help"]);
    const viaHelp = await runCli(["help", command]);
    expect({ code: viaFlag.code, stderr: viaFlag.stderr }).toEqual({ code: 0, stderr: "" });
    expect(viaHelp.stdout).toBe(viaFlag.stdout);
    expect(flagsOf(viaFlag.stdout)).toEqual(flags);
    expect(exitCodesOf(viaFlag.stdout)).toEqual(EXIT_CODES);
  });

  it("gives the default and the environment variable of each serve setting", async () => {
    const { stdout } = await runCli(["help", "serve"]);
    const block = (flag: string): string => {
      const start = stdout.indexOf(`  --${flag} `);
      const end = stdout.indexOf("\n  -", start + 1);
      return stdout.slice(start, end).replace(/\s+/g, " ");
    };
    expect(block("port")).toContain("Default: 8000. Environment: SKILLSHELF_PORT; the flag wins.");
    expect(block("host")).toContain("Default: 127.0.0.1. Environment: SKILLSHELF_HOST; the flag wins.");
    expect(block("transport")).toContain("Default: http. Environment: SKILLSHELF_TRANSPORT; the flag wins.");
    expect(block("log-format")).toContain("Default: text. Environment: SKILLSHELF_LOG_FORMAT; the flag wins.");
    expect(block("drain-seconds")).toContain("Default: 5. Environment: SKILLSHELF_DRAIN_SECONDS; the flag wins.");
    expect(block("max-sessions")).toContain("Default: 1000. Environment: SKILLSHELF_MAX_SESSIONS; the flag wins.");
    expect(block("session-idle-seconds")).toContain("Default: 900. Environment: SKILLSHELF_SESSION_IDLE_SECONDS; the flag wins.");
    expect(stdout).toContain("      Default: false. Environment: SKILLSHELF_STATELESS; the flag wins.\n  --max-sessions N\n");
    expect(block("allowed-hosts")).toContain("Environment: SKILLSHELF_ALLOWED_HOSTS (comma-separated); the flag wins.");
  });

  it("names an unknown topic on stderr and exits 2", async () => {
    const result = await runCli(["help", "frobnicate"]);
    expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 2, stdout: "" });
    expect(result.stderr.split("\n")[0]).toBe("skillshelf help: no command 'frobnicate'");
  });

  it("names an unknown command on stderr and exits 2", async () => {
    const result = await runCli(["frobnicate"]);
    expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 2, stdout: "" });
    expect(result.stderr.split("\n")[0]).toBe("skillshelf: unknown command 'frobnicate'");
  });
});
