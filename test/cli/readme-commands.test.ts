// What a reader copies from the docs must be what the CLI and the checks run: the README's command block names
// every flag of every command (and no other), and every Inspector command in the docs pins the Inspector the
// project checks itself with (an unpinned one runs whatever is newest, on whatever Node the reader has).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { COMMANDS } from "../../src/usage.js";
import { REPO_ROOT } from "../support/process.js";

const README = readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");

/** The README's `## Commands` block: each `skillshelf <command>` line with its continuation lines. */
function readmeCommands(): Map<string, string> {
  const block = /## Commands\n\n```\n([\s\S]*?)```/.exec(README)?.[1];
  if (block === undefined) throw new Error("the README has no ## Commands block");
  const commands = new Map<string, string>();
  let current: string | undefined;
  for (const line of block.split("\n")) {
    const start = /^skillshelf ([a-z]+|--version)\b/.exec(line);
    if (start !== null) current = start[1] as string;
    if (current !== undefined) commands.set(current, `${commands.get(current) ?? ""} ${line.replace(/#.*$/, "")}`);
  }
  return commands;
}

describe("the README's commands", () => {
  test("name every command and every flag of each, as --help does", () => {
    const readme = readmeCommands();
    expect([...readme.keys()].sort()).toEqual([...COMMANDS.map((command) => command.name), "--version"].sort());
    for (const command of COMMANDS) {
      const flags = command.flags.map((flag) => `--${flag.name}`).filter((flag) => flag !== "--help");
      const written = [...new Set((readme.get(command.name) ?? "").match(/--[a-z][a-z-]*/g) ?? [])];
      expect({ command: command.name, flags: written.sort() }).toEqual({ command: command.name, flags: flags.sort() });
    }
  });
});

describe("the docs' Inspector commands", () => {
  test("pin the Inspector the project checks with", () => {
    const pinned = /INSPECTOR="(@modelcontextprotocol\/inspector@[0-9.]+)"/.exec(
      readFileSync(path.join(REPO_ROOT, "scripts", "check-inspector.sh"), "utf8"),
    )?.[1];
    expect(pinned).toMatch(/@[0-9]+\.[0-9]+\.[0-9]+$/);
    const docs = ["README.md", ...readdirSync(path.join(REPO_ROOT, "docs")).map((file) => path.join("docs", file))].filter((f) =>
      f.endsWith(".md"),
    );
    const unpinned: string[] = [];
    for (const file of docs) {
      for (const use of readFileSync(path.join(REPO_ROOT, file), "utf8").matchAll(
        /npx (?:-y )?(@modelcontextprotocol\/inspector[^\s]*)/g,
      )) {
        if (use[1] !== pinned) unpinned.push(`${file}: ${use[1]}`);
      }
    }
    expect(unpinned).toEqual([]);
  });
});
