import { describe, expect, test } from "vitest";
import { renderPrompt } from "../../src/prompts/index.js";
import { defineFor } from "./helpers.js";

// One prompt written in each dialect is served identically.
const VERSIONS = [
  {
    dialect: "skillshelf",
    path: "prompts/review.md",
    text: [
      "---",
      "description: Review a file for one concern",
      "arguments:",
      "  - name: file",
      "  - {name: focus}",
      "---",
      "# Review",
      "",
      "Review {{ file }} for {{focus}} issues; see ${CLAUDE_PLUGIN_ROOT}/guide.md.",
      "",
    ].join("\n"),
  },
  {
    dialect: "claude",
    path: "commands/review.md",
    text: [
      "---",
      "description: Review a file for one concern",
      "arguments: [file, focus]",
      "---",
      "",
      "# Review",
      "",
      "Review $file for $focus issues; see ${CLAUDE_PLUGIN_ROOT}/guide.md.",
    ].join("\n"),
  },
  {
    dialect: "copilot",
    path: ".github/prompts/review.prompt.md",
    text: [
      "---",
      "description: Review a file for one concern",
      "---",
      "# Review",
      "",
      "Review ${input:file} for ${input:focus} issues; see ${CLAUDE_PLUGIN_ROOT}/guide.md.",
      "",
      "",
    ].join("\n"),
  },
] as const;

describe("one prompt in three dialects", () => {
  test.each(VERSIONS)("$dialect ($path)", ({ dialect, path, text }) => {
    const def = defineFor(path, text);
    expect(def.dialect).toBe(dialect);
    expect(def.name).toBe("kit_review");
    expect(def.description).toBe("Review a file for one concern");
    expect(def.arguments).toEqual([
      { name: "file", required: false },
      { name: "focus", required: false },
    ]);
    const rendered = renderPrompt(def, { file: "src/a.ts", focus: "security" });
    expect(rendered).toEqual({ ok: true, text: "# Review\n\nReview src/a.ts for security issues; see skill://kit/guide.md." });
  });
});
