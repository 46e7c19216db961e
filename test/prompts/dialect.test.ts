import { describe, expect, test } from "vitest";
import type { Dialect } from "../../src/config/types.js";
import { detectDialect } from "../../src/prompts/index.js";

type Row = { path: string; command?: boolean; fm?: Record<string, unknown>; body?: string; configured?: Dialect; expect: string };

const ROWS: Row[] = [
  // The plugin's dialect wins.
  { path: "prompts/x.prompt.md", fm: { tools: [] }, configured: "claude", expect: "claude" },
  { path: "commands/x.md", body: "$ARGUMENTS", configured: "copilot", expect: "copilot" },
  { path: "prompts/x.md", fm: { "argument-hint": "x" }, configured: "skillshelf", expect: "skillshelf" },
  // Then location: commands are Claude commands unless they are `.prompt.md`.
  { path: "commands/x.md", fm: { arguments: [{ name: "a" }] }, body: "{{a}}", expect: "claude" },
  { path: "commands/sub/x.md", expect: "claude" },
  { path: ".claude/commands/x.md", expect: "claude" },
  { path: "prompts/x.md", command: true, body: "${input:x}", expect: "claude" },
  { path: "commands/x.prompt.md", expect: "copilot" },
  { path: "commands", expect: "skillshelf" },
  { path: "my-commands/x.md", expect: "skillshelf" },
  // Then frontmatter keys.
  { path: "prompts/x.prompt.md", fm: { arguments: [{ name: "a" }] }, expect: "copilot" },
  { path: "prompts/x.md", fm: { agent: "edit" }, expect: "copilot" },
  { path: "prompts/x.md", fm: { tools: ["search"] }, expect: "copilot" },
  { path: "prompts/x.md", fm: { mode: "agent" }, expect: "copilot" },
  { path: "prompts/x.md", fm: { "argument-hint": "<file>" }, body: "{{a}}", expect: "claude" },
  { path: "prompts/x.md", fm: { arguments: ["a", "b"] }, expect: "claude" },
  { path: "prompts/x.md", fm: { arguments: "a b" }, expect: "claude" },
  { path: "prompts/x.md", fm: { arguments: [{ name: "a" }] }, body: "$ARGUMENTS", expect: "skillshelf" },
  { path: "prompts/x.md", fm: { arguments: [{ name: "a" }], "argument-hint": "x" }, expect: "skillshelf" },
  { path: "prompts/x.md", fm: { arguments: [] }, body: "$1", expect: "claude" },
  { path: "prompts/x.md", fm: { "allowed-tools": "Bash" }, expect: "skillshelf" },
  // Then body markers, strongest first.
  { path: "prompts/x.md", body: "${input:x}", expect: "copilot" },
  { path: "prompts/x.md", body: "${input:x} $ARGUMENTS {{y}}", expect: "copilot" },
  { path: "prompts/x.md", body: "$ARGUMENTS {{y}}", expect: "claude" },
  { path: "prompts/x.md", body: "$ARGUMENTS[0]", expect: "claude" },
  { path: "prompts/x.md", body: "{{ y }} $1", expect: "skillshelf" },
  { path: "prompts/x.md", body: "Use $1.", expect: "claude" },
  { path: "prompts/x.md", body: "Costs $5.00", expect: "skillshelf" },
  { path: "prompts/x.md", body: "{{ a.b }} {single} $HOME ${input:} $ARGUMENTS_X", expect: "skillshelf" },
  { path: "prompts/x.md", body: "", expect: "skillshelf" },
];

describe("detectDialect", () => {
  test.each(ROWS)("$path $fm $body ($configured) -> $expect", ({ path, command, fm, body, configured, expect: dialect }) => {
    expect(detectDialect({ path, text: "", command: command ?? false }, fm ?? {}, body ?? "", configured ?? "auto")).toEqual({
      ok: true,
      dialect,
    });
  });
});
