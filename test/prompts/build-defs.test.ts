// Naming a plugin's parsed prompts for one library, built in the test body.
import { describe, expect, test } from "vitest";
import { buildPromptDefs, formatPromptName, type ParsedPrompt } from "../../src/prompts/index.js";

const review: ParsedPrompt = {
  stem: "review",
  path: "commands/review.md",
  dialect: "claude",
  description: "Review",
  arguments: [],
  defaults: new Map(),
  segments: [{ kind: "text", text: "Review." }],
};

describe("buildPromptDefs", () => {
  test("with a plugin: the definition names it", () => {
    expect(buildPromptDefs("kit", [review], "p")).toStrictEqual([{ ...review, name: "kit_review", library: "kit", plugin: "p" }]);
  });

  test("without a plugin: the definition has no plugin key at all", () => {
    expect(buildPromptDefs("ops", [review])).toStrictEqual([{ ...review, name: "ops_review", library: "ops" }]);
  });

  test.each([
    ["kit", "review", "kit_review"],
    ["a_b", "c-d", "a_b_c-d"],
  ])("formatPromptName(%s, %s) is %s", (library, stem, name) => {
    expect(formatPromptName(library, stem)).toBe(name);
  });
});
