import { describe, expect, test } from "vitest";
import { renderPrompt, type PromptArgs } from "../../src/prompts/index.js";
import { defineFor } from "./helpers.js";

const FRONTMATTER = [
  "---",
  "description: Review one topic",
  "arguments:",
  "  - {name: topic, description: What to review, required: true}",
  "  - {name: depth, default: shallow}",
  "  - {name: note}",
  "  - {name: count, default: 3, required: true}",
  "---",
  "",
].join("\n");

const review = (body: string) => defineFor("prompts/review.md", FRONTMATTER + body);

const ROWS: { title: string; body: string; args: PromptArgs; text: string }[] = [
  { title: "a placeholder", body: "Review {{topic}}.", args: { topic: "auth" }, text: "Review auth." },
  { title: "inner spaces and tabs", body: "{{ topic }}|{{topic }}|{{\ttopic\t}}", args: { topic: "auth" }, text: "auth|auth|auth" },
  { title: "single braces are content", body: "{single} {topic} { topic }", args: { topic: "auth" }, text: "{single} {topic} { topic }" },
  { title: "triple braces keep the outer pair", body: "{{{topic}}}", args: { topic: "auth" }, text: "{auth}" },
  { title: "dotted names are content", body: "{{ matrix.os }} {{ topic }}", args: { topic: "auth" }, text: "{{ matrix.os }} auth" },
  { title: "handlebars blocks are content", body: "{{#if topic}}{{topic}}{{/if}}", args: { topic: "a" }, text: "{{#if topic}}a{{/if}}" },
  { title: "a default applies when not given", body: "{{depth}}", args: { topic: "t" }, text: "shallow" },
  { title: "a null value is not given", body: "{{depth}}", args: { topic: "t", depth: null }, text: "shallow" },
  { title: "an empty value is not given", body: "{{depth}}", args: { topic: "t", depth: "" }, text: "shallow" },
  { title: "an undefined value is not given", body: "{{depth}}", args: { topic: "t", depth: undefined }, text: "shallow" },
  { title: "a given value beats the default", body: "{{depth}}", args: { topic: "t", depth: "deep" }, text: "deep" },
  { title: "a number default is text", body: "{{count}}", args: { topic: "t" }, text: "3" },
  { title: "an optional argument not given is empty", body: "[{{note}}]", args: { topic: "t" }, text: "[]" },
  {
    title: "a value is inserted verbatim",
    body: "{{topic}}",
    args: { topic: "{{note}} $ARGUMENTS ${input:x}" },
    text: "{{note}} $ARGUMENTS ${input:x}",
  },
  {
    title: "other dialects' placeholders are text",
    body: "$ARGUMENTS $0 $topic ${input:topic}",
    args: { topic: "t" },
    text: "$ARGUMENTS $0 $topic ${input:topic}",
  },
  { title: "shell commands are text", body: "!`rm -rf {{topic}}`", args: { topic: "x" }, text: "!`rm -rf x`" },
  {
    title: "the plugin root becomes the library",
    body: "${CLAUDE_PLUGIN_ROOT}/a.md ${CLAUDE_PLUGIN_ROOT}",
    args: { topic: "t" },
    text: "skill://kit/a.md skill://kit",
  },
  {
    title: "the skill dir stays as written",
    body: "${CLAUDE_SKILL_DIR}/x ${OTHER}",
    args: { topic: "t" },
    text: "${CLAUDE_SKILL_DIR}/x ${OTHER}",
  },
  {
    title: "the plugin root in a value too (replaced after substitution)",
    body: "{{topic}}",
    args: { topic: "${CLAUDE_PLUGIN_ROOT}" },
    text: "skill://kit",
  },
  { title: "nothing is appended", body: "Static.", args: { topic: "t", note: "n" }, text: "Static." },
];

describe("skillshelf rendering", () => {
  test.each(ROWS)("$title", ({ body, args, text }) => {
    expect(renderPrompt(review(body), args)).toEqual({ ok: true, text });
  });

  test("declared arguments, a default makes an argument optional", () => {
    expect(review("{{topic}}").arguments).toEqual([
      { name: "topic", description: "What to review", required: true },
      { name: "depth", required: false },
      { name: "note", required: false },
      { name: "count", required: false },
    ]);
  });

  test.each([{ topic: undefined }, { topic: null }, { topic: "" }, {}])("missing required %o", (args: PromptArgs) => {
    expect(renderPrompt(review("{{topic}}"), args)).toEqual({
      ok: false,
      message: "Missing required argument 'topic' for prompt 'kit_review'",
    });
  });

  test("several missing required arguments are all named", () => {
    const def = defineFor("prompts/pair.md", "---\narguments: [{name: a, required: true}, {name: b, required: true}]\n---\n{{a}}{{b}}");
    expect(renderPrompt(def, {})).toEqual({ ok: false, message: "Missing required arguments 'a', 'b' for prompt 'kit_pair'" });
  });

  test("an unknown argument is an error naming the known ones", () => {
    expect(renderPrompt(review("{{topic}}"), { topic: "t", topc: "x" })).toEqual({
      ok: false,
      message: "Unknown argument 'topc' for prompt 'kit_review'; its arguments are: topic, depth, note, count",
    });
  });

  test("an unknown argument that is not given is ignored", () => {
    expect(renderPrompt(review("{{topic}}"), { topic: "t", extra: "", other: null })).toEqual({ ok: true, text: "t" });
  });

  test("prototype keys are ordinary unknown names", () => {
    const args = JSON.parse('{"__proto__": "x"}') as PromptArgs;
    expect(renderPrompt(defineFor("prompts/none.md", "---\n---\nHi"), args)).toEqual({
      ok: false,
      message: "Unknown argument '__proto__' for prompt 'kit_none'; it takes no arguments",
    });
  });
});
