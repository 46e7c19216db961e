import { describe, expect, test } from "vitest";
import { renderPrompt, type PromptArgs } from "../../src/prompts/index.js";
import { defineFor } from "./helpers.js";

// A command with no declared names: one free-text argument, described by argument-hint.
const command = (body: string) =>
  defineFor("commands/fix.md", `---\ndescription: Fix an issue\nargument-hint: <issue> [priority]\n---\n\n${body}\n`);

const SEVEN = { arguments: "a b c d e f g" };

const ROWS: { title: string; body: string; args: PromptArgs; text: string }[] = [
  {
    title: "$ARGUMENTS is the text as given",
    body: "Fix $ARGUMENTS now.",
    args: { arguments: " 123  'high' " },
    text: "Fix  123  'high'  now.",
  },
  { title: "$ARGUMENTS not given is empty", body: "Fix $ARGUMENTS now.", args: {}, text: "Fix  now." },
  { title: "$0 and $1 are 0-based words", body: "Fix $0 at $1.", args: { arguments: "123 high" }, text: "Fix 123 at high." },
  {
    title: "$ARGUMENTS[1] is the second word",
    body: "[$ARGUMENTS[1]] [$ARGUMENTS[0]]",
    args: { arguments: "123 high" },
    text: "[high] [123]",
  },
  { title: "a word past the end stays as written", body: "$0 $2 $ARGUMENTS[5]", args: { arguments: "x y" }, text: "x $2 $ARGUMENTS[5]" },
  { title: "no word at all stays as written", body: "$0 and $ARGUMENTS[0]", args: {}, text: "$0 and $ARGUMENTS[0]" },
  { title: "$10 is word ten", body: "$10|$1", args: { arguments: "0 1 2 3 4 5 6 7 8 9 ten" }, text: "ten|1" },
  { title: "$5.00 and $1,000 are amounts", body: "Pay $5.00 or $1,000 by $0.", args: SEVEN, text: "Pay $5.00 or $1,000 by a." },
  { title: "$5. ending a sentence is a placeholder", body: "It costs $5.", args: SEVEN, text: "It costs f." },
  {
    title: "quoted words keep their spaces",
    body: "[$0][$1][$2][$3]",
    args: { arguments: `'hello world' "it's" don't ''` },
    text: "[hello world][it's][don't][]",
  },
  { title: "an unclosed quote is a character", body: "[$0][$1]", args: { arguments: "'abc def" }, text: "['abc][def]" },
  {
    title: "$ARGUMENTS_FILE and $HOME are text",
    body: "$ARGUMENTS_FILE $HOME $ $$",
    args: { arguments: "x" },
    text: "$ARGUMENTS_FILE $HOME $ $$\n\nARGUMENTS: x",
  },
  {
    title: "a body placing nothing gets the arguments appended",
    body: "Review the code.",
    args: { arguments: "src/a.ts --fix" },
    text: "Review the code.\n\nARGUMENTS: src/a.ts --fix",
  },
  { title: "nothing is appended when nothing is given", body: "Review the code.", args: { arguments: "" }, text: "Review the code." },
  { title: "null is not given", body: "Review the code.", args: { arguments: null }, text: "Review the code." },
  {
    title: "amounts place nothing, so the text is appended",
    body: "Budget: $500 ACV, $50K MRR.",
    args: { arguments: "seed round" },
    text: "Budget: $500 ACV, $50K MRR.\n\nARGUMENTS: seed round",
  },
  { title: "a command is never executed", body: "!`git status` then $ARGUMENTS", args: { arguments: "x" }, text: "!`git status` then x" },
  {
    title: "the plugin root becomes the library",
    body: "${CLAUDE_PLUGIN_ROOT}/scripts/run.sh $ARGUMENTS",
    args: { arguments: "go" },
    text: "skill://kit/scripts/run.sh go",
  },
  {
    title: "the skill dir stays as written",
    body: "${CLAUDE_SKILL_DIR}/x $0",
    args: { arguments: "go" },
    text: "${CLAUDE_SKILL_DIR}/x go",
  },
  {
    title: "other dialects' placeholders are text",
    body: "{{topic}} ${input:x} $0",
    args: { arguments: "go" },
    text: "{{topic}} ${input:x} go",
  },
];

describe("claude rendering, free-text arguments", () => {
  test.each(ROWS)("$title", ({ body, args, text }) => {
    expect(renderPrompt(command(body), args)).toEqual({ ok: true, text });
  });

  test("the free-text argument is optional and described by argument-hint", () => {
    expect(command("$ARGUMENTS").arguments).toEqual([{ name: "arguments", description: "<issue> [priority]", required: false }]);
  });

  test("an argument-hint YAML read as a list is shown as written", () => {
    const def = defineFor("commands/c.md", "---\nargument-hint: [message]\n---\nCommit.");
    expect(def.arguments).toEqual([{ name: "arguments", description: "[message]", required: false }]);
  });

  test("without argument-hint the free text has a generic description", () => {
    const def = defineFor("commands/c.md", "---\ndescription: C\n---\nCommit.");
    expect(def.arguments).toEqual([{ name: "arguments", description: "Free-text arguments, as typed after the command", required: false }]);
  });

  test("an empty body gets the arguments alone", () => {
    const def = defineFor("commands/c.md", "---\ndescription: C\n---\n");
    expect(renderPrompt(def, { arguments: "x" })).toEqual({ ok: true, text: "ARGUMENTS: x" });
  });
});

describe("claude rendering, declared names", () => {
  const migrate = (body: string, names = "[component, from, to]") =>
    defineFor("commands/migrate.md", `---\ndescription: Migrate\narguments: ${names}\n---\n${body}`);

  test("names without $ARGUMENTS: one optional argument per name, no free text", () => {
    expect(migrate("$component").arguments).toEqual([
      { name: "component", required: false },
      { name: "from", required: false },
      { name: "to", required: false },
    ]);
  });

  const ROWS: { title: string; body: string; args: PromptArgs; text: string }[] = [
    {
      title: "names",
      body: "Migrate $component from $from to $to.",
      args: { component: "SearchBar", from: "React", to: "Vue" },
      text: "Migrate SearchBar from React to Vue.",
    },
    {
      title: "a name not given stays as written",
      body: "Migrate $component to $to.",
      args: { component: "A", to: null },
      text: "Migrate A to $to.",
    },
    {
      title: "a longer word is not a name",
      body: "$component_name $components $from-x",
      args: { component: "A", from: "B" },
      text: "$component_name $components B-x",
    },
    { title: "unused names are appended", body: "Do it.", args: { component: "A", to: "B" }, text: "Do it.\n\nARGUMENTS: A B" },
  ];
  test.each(ROWS)("$title", ({ body, args, text }) => {
    expect(renderPrompt(migrate(body), args)).toEqual({ ok: true, text });
  });

  test("names with $ARGUMENTS add the free text after them", () => {
    const def = migrate("Issue $issue: $ARGUMENTS ($0)", "issue");
    expect(def.arguments).toEqual([
      { name: "issue", required: false },
      { name: "arguments", description: "Free-text arguments, as typed after the command", required: false },
    ]);
    expect(renderPrompt(def, { issue: "42", arguments: "crash on start" })).toEqual({ ok: true, text: "Issue 42: crash on start (crash)" });
  });

  test("a declared name 'arguments' is the free text", () => {
    const def = migrate("[$arguments] [$ARGUMENTS]", "[arguments]");
    expect(def.arguments.map((a) => a.name)).toEqual(["arguments"]);
    expect(renderPrompt(def, { arguments: "x y" })).toEqual({ ok: true, text: "[x y] [x y]" });
  });

  test("the free text is not an argument of a command that declares names only", () => {
    expect(renderPrompt(migrate("$component"), { arguments: "x" })).toEqual({
      ok: false,
      message: "Unknown argument 'arguments' for prompt 'kit_migrate'; its arguments are: component, from, to",
    });
  });
});

test("a plugin-root path into one of the plugin's served skills renders as that skill's address", () => {
  const def = {
    ...command("Read ${CLAUDE_PLUGIN_ROOT}/skills/pdf/references/x.md and ${CLAUDE_PLUGIN_ROOT}/scripts/run.sh for $ARGUMENTS."),
    skills: new Map([["skills/pdf", "skill://kit/pdf"]]),
  };
  expect(renderPrompt(def, { arguments: "a.pdf" })).toEqual({
    ok: true,
    text: "Read skill://kit/pdf/references/x.md and skill://kit/scripts/run.sh for a.pdf.",
  });
});
