import { describe, expect, test } from "vitest";
import { renderPrompt, type PromptArgs } from "../../src/prompts/index.js";
import { defineFor } from "./helpers.js";

const form = (body: string) => defineFor(".github/prompts/form.prompt.md", `---\ndescription: Create a form\nagent: edit\n---\n${body}`);

const BODY = "Create ${input:formName:Name of the form} with ${input:fields} and ${input:formName}.";

const ROWS: { title: string; body: string; args: PromptArgs; text: string }[] = [
  {
    title: "every input given",
    body: BODY,
    args: { formName: "Login", fields: "user, pass" },
    text: "Create Login with user, pass and Login.",
  },
  {
    title: "an input not given stays as written",
    body: BODY,
    args: { formName: "Login" },
    text: "Create Login with ${input:fields} and Login.",
  },
  {
    title: "an empty input is not given",
    body: BODY,
    args: { formName: "", fields: null },
    text: "Create ${input:formName:Name of the form} with ${input:fields} and ${input:formName}.",
  },
  { title: "malformed inputs are text", body: "${input:} ${input:a b} ${input:x", args: {}, text: "${input:} ${input:a b} ${input:x" },
  {
    title: "other variables are text",
    body: "${env:HOME} ${workspaceFolder} ${selection}",
    args: {},
    text: "${env:HOME} ${workspaceFolder} ${selection}",
  },
  {
    title: "other dialects' placeholders are text",
    body: "{{x}} $ARGUMENTS $0 ${input:x}",
    args: { x: "v" },
    text: "{{x}} $ARGUMENTS $0 v",
  },
  { title: "nothing is appended", body: "Static ${input:x}.", args: { x: "v" }, text: "Static v." },
  {
    title: "the plugin root becomes the library",
    body: "${CLAUDE_PLUGIN_ROOT}/t.md ${input:x}",
    args: { x: "v" },
    text: "skill://kit/t.md v",
  },
  { title: "the skill dir stays as written", body: "${CLAUDE_SKILL_DIR} ${input:x}", args: { x: "v" }, text: "${CLAUDE_SKILL_DIR} v" },
  { title: "a command is never executed", body: "!`ls ${input:x}`", args: { x: "/" }, text: "!`ls /`" },
];

describe("copilot rendering", () => {
  test.each(ROWS)("$title", ({ body, args, text }) => {
    expect(renderPrompt(form(body), args)).toEqual({ ok: true, text });
  });

  test("one optional argument per distinct input, in order of appearance, described by its placeholder", () => {
    expect(form(BODY).arguments).toEqual([
      { name: "formName", description: "Name of the form", required: false },
      { name: "fields", required: false },
    ]);
  });

  test("the first non-empty placeholder describes an input", () => {
    expect(form("${input:x} ${input:x:  } ${input:x:First} ${input:x:Second}").arguments).toEqual([
      { name: "x", description: "First", required: false },
    ]);
  });

  test("an arguments key is not a copilot thing and is ignored", () => {
    const def = defineFor("prompts/f.prompt.md", "---\narguments: [a, {name: b}]\n---\n${input:c}");
    expect(def.arguments).toEqual([{ name: "c", required: false }]);
  });
});
