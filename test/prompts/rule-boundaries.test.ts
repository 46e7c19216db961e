// The edges of each rule of the prompts module, one row each: the exact shapes where a rule and its neighbour
// differ (a two-digit word index, a `$` right after a placeholder, a null `arguments`, a list hint of numbers, a
// dotted file name, a YAML alias, a name with a dash), asserted as exact values.
import { describe, expect, test } from "vitest";
import type { Dialect } from "../../src/config/types.js";
import { compileClaude, findClaudeMarkers, splitArgumentWords } from "../../src/prompts/claude.js";
import { hasCopilotInput } from "../../src/prompts/copilot.js";
import { classifyArguments, detectDialect, INVALID_ARGUMENTS, isClaudeCommand, MIXED_ARGUMENTS } from "../../src/prompts/dialect.js";
import { parseFrontmatter, trimBody } from "../../src/prompts/frontmatter.js";
import {
  missingArguments,
  parsePromptFile,
  parsePromptFiles,
  parsePromptStem,
  renderPrompt,
  type PromptArgs,
} from "../../src/prompts/index.js";
import { compileSkillshelf, hasSkillshelfPlaceholder } from "../../src/prompts/skillshelf.js";
import { isArgumentName, isWordChar } from "../../src/prompts/types.js";
import { defineFor, reasonFor } from "./helpers.js";

const NO_FRONTMATTER = "prompt has no frontmatter; outside commands/, a prompt file must start with a YAML block between '---' lines";
const GENERIC = "Free-text arguments, as typed after the command";

describe("claude placeholders at their edges", () => {
  test.each<{ title: string; body: string; args: PromptArgs; text: string }>([
    { title: "a two-digit index", body: "[$ARGUMENTS[10]]", args: { arguments: "0 1 2 3 4 5 6 7 8 9 ten" }, text: "[ten]" },
    { title: "a placeholder right after another", body: "$0$1|$ARGUMENTS[1]$0", args: { arguments: "a b" }, text: "ab|ba" },
    { title: "a file extension after a word", body: "Open $0.md and $1,x", args: { arguments: "a b" }, text: "Open a.md and b,x" },
    { title: "$ARGUMENTS before a dash or a dot", body: "$ARGUMENTS-x $ARGUMENTS.", args: { arguments: "v" }, text: "v-x v." },
    { title: "$ARGUMENTS before a digit is text", body: "$ARGUMENTS9 $0", args: { arguments: "v" }, text: "$ARGUMENTS9 v" },
  ])("$title", ({ body, args, text }) => {
    expect(renderPrompt(defineFor("commands/c.md", `---\n---\n${body}`), args)).toEqual({ ok: true, text });
  });

  test("text around placeholders is one segment per run", () => {
    expect(defineFor("commands/c.md", "---\n---\nCost $HOME $ now $0$ARGUMENTS $ARGUMENTS[12]").segments).toEqual([
      { kind: "text", text: "Cost $HOME $ now " },
      { kind: "word", index: 0, raw: "$0" },
      { kind: "all" },
      { kind: "text", text: " " },
      { kind: "word", index: 12, raw: "$ARGUMENTS[12]" },
    ]);
  });

  test("a declared name 'arguments' is the free text: not given, it is empty", () => {
    const def = defineFor("commands/c.md", "---\narguments: [arguments]\n---\n[$arguments]");
    expect(def.segments).toEqual([{ kind: "text", text: "[" }, { kind: "all" }, { kind: "text", text: "]" }]);
    expect(renderPrompt(def, {})).toEqual({ ok: true, text: "[]" });
  });

  test.each([
    { names: "[file, file-name]", body: "$file-name|$file|$files", text: "B|A|$files" },
    { names: "[file-name, file]", body: "$file-name|$file|$files", text: "B|A|$files" },
    { names: "[x]", body: "ax b $x", text: "ax b A" },
  ])("declared names $names in $body", ({ names, body, text }) => {
    const def = defineFor("commands/c.md", `---\narguments: ${names}\n---\n${body}`);
    const args: PromptArgs = names === "[x]" ? { x: "A" } : { file: "A", "file-name": "B" };
    expect(renderPrompt(def, args)).toEqual({ ok: true, text });
  });

  test.each<{ title: string; names: string; body: string; args: PromptArgs; text: string }>([
    {
      title: "a name not given places nothing: the given one is appended",
      names: "[x, y]",
      body: "$x",
      args: { y: "Y" },
      text: "$x\n\nARGUMENTS: Y",
    },
    {
      title: "empty free text places nothing: the given name is appended",
      names: "[x]",
      body: "$ARGUMENTS",
      args: { x: "X" },
      text: "ARGUMENTS: X",
    },
  ])("$title", ({ names, body, args, text }) => {
    expect(renderPrompt(defineFor("commands/c.md", `---\narguments: ${names}\n---\n${body}`), args)).toEqual({ ok: true, text });
  });

  test.each([
    { body: "$ARGUMENTS", markers: { all: true, positional: false } },
    { body: "$ARGUMENTS[2]", markers: { all: true, positional: false } },
    { body: "$3", markers: { all: false, positional: true } },
    { body: "$ARGUMENTS_X $HOME $5.00", markers: { all: false, positional: false } },
    { body: "$ARGUMENTS_X $2 $ARGUMENTS", markers: { all: true, positional: true } },
  ])("markers of $body", ({ body, markers }) => {
    expect(findClaudeMarkers(body)).toEqual(markers);
  });
});

describe("claude arguments", () => {
  const command = (yaml: string, body = "Do it.") => defineFor("commands/c.md", `---\n${yaml}\n---\n${body}`).arguments;

  test.each([
    {
      title: "a null list is none: free text only",
      yaml: "arguments:",
      args: [{ name: "arguments", description: GENERIC, required: false }],
    },
    {
      title: "a string of names with spaces around",
      yaml: "arguments: '  issue   branch '",
      args: [
        { name: "issue", required: false },
        { name: "branch", required: false },
      ],
    },
    {
      title: "a declared 'arguments' is the free text even unused",
      yaml: "arguments: [arguments, x]",
      args: [
        { name: "x", required: false },
        { name: "arguments", description: GENERIC, required: false },
      ],
    },
    {
      title: "names and a word placeholder: the free text is an argument too",
      yaml: "arguments: [x]",
      body: "$x $0",
      args: [
        { name: "x", required: false },
        { name: "arguments", description: GENERIC, required: false },
      ],
    },
  ])("$title", ({ yaml, body, args }) => {
    expect(command(yaml, body)).toEqual(args);
  });

  test.each([
    ["' a' b", [" a", "b"]],
    ["x 'y z'", ["x", "y z"]],
    ["'a' 'b", ["a", "'b"]],
  ])("the words of %j are %j", (text, words) => {
    expect(splitArgumentWords(text)).toEqual(words);
  });

  test.each([
    { hint: "'  <file>  '", description: "<file>" },
    { hint: "'   '", description: GENERIC },
    { hint: "[]", description: GENERIC },
    { hint: "[1, x]", description: "[1] [x]" },
    { hint: "[{a: 1}]", description: GENERIC },
    { hint: "[x, [y]]", description: GENERIC },
    { hint: "5", description: GENERIC },
  ])("argument-hint $hint describes the free text as $description", ({ hint, description }) => {
    expect(command(`argument-hint: ${hint}`, "$ARGUMENTS")).toEqual([{ name: "arguments", description, required: false }]);
  });

  test.each([
    {
      declared: ["a", 1],
      reason:
        "frontmatter 'arguments' lists objects, the skillshelf dialect, but this prompt is read as a Claude command; " +
        "list argument names, or set the plugin's dialect to skillshelf",
    },
    { declared: { a: "b" }, reason: "frontmatter 'arguments' must be a list of names or a space-separated string of names" },
    { declared: 7, reason: "frontmatter 'arguments' must be a list of names or a space-separated string of names" },
  ])("compileClaude refuses $declared", ({ declared, reason }) => {
    expect(compileClaude(declared, undefined, "x")).toEqual({ ok: false, reason });
  });
});

describe("the dialect rules' helpers", () => {
  test.each<[unknown, string]>([
    [undefined, "none"],
    [null, "none"],
    ["a b", "names"],
    [{ a: 1 }, "invalid"],
    [5, "invalid"],
    [[], "none"],
    [[{}], "objects"],
    [["a"], "names"],
    [["a", {}], "mixed"],
    [["a", 1], "invalid"],
    [[{}, 1], "invalid"],
    [[null], "invalid"],
    [[["a"]], "invalid"],
    [[1, 2], "invalid"],
  ])("classifyArguments(%j) is %s", (value, shape) => {
    expect(classifyArguments(value)).toBe(shape);
  });

  test.each([
    { path: "commands/x.prompt.md", command: true, is: false },
    { path: "x.md", command: true, is: true },
    { path: "a/commands/b/x.md", command: false, is: true },
    { path: "commands", command: false, is: false },
    { path: "commandsx/y.md", command: false, is: false },
  ])("isClaudeCommand($path, command $command) is $is", ({ path, command, is }) => {
    expect(isClaudeCommand({ path, text: "", command })).toBe(is);
  });

  test.each([
    ["[null]", "arguments: [~]"],
    ["a list in the list", "arguments: [[a]]"],
    ["a name and a number", "arguments: [a, 1]"],
    ["an object and a number", "arguments: [{name: a}, 1]"],
  ])("arguments as %s are refused", (_title, yaml) => {
    expect(reasonFor("prompts/x.md", `---\n${yaml}\n---\nBody`)).toBe(INVALID_ARGUMENTS);
  });

  test.each([
    { arguments: ["a", { name: "b" }], result: { ok: false, reason: MIXED_ARGUMENTS } },
    { arguments: [1], result: { ok: false, reason: INVALID_ARGUMENTS } },
    { arguments: [{ name: "b" }], result: { ok: true, dialect: "skillshelf" } },
  ])("detectDialect over arguments $arguments", ({ arguments: declared, result }) => {
    expect(detectDialect({ path: "prompts/x.md", text: "", command: false }, { arguments: declared }, "", "auto")).toEqual(result);
  });

  test.each<[Dialect, string]>([
    ["copilot", "has 'applyTo' in its frontmatter, so it is an instruction file, not a prompt"],
    ["claude", "parsed"],
  ])("applyTo under a configured %s dialect: %s", (dialect, reason) => {
    expect(reasonFor("prompts/x.md", "---\napplyTo: x\n---\nBody", dialect)).toBe(reason);
  });
});

describe("frontmatter at its edges", () => {
  test.each([
    { title: "an opening line alone", text: "---", reason: "prompt frontmatter is not closed; it needs a '---' line after the YAML" },
    {
      title: "an opening line and a newline",
      text: "---\n",
      reason: "prompt frontmatter is not closed; it needs a '---' line after the YAML",
    },
    { title: "four dashes are not a fence", text: "----\ndescription: x\n----\nBody", reason: NO_FRONTMATTER },
    { title: "a fence with text after it", text: "--- x\ndescription: x\n---\nBody", reason: NO_FRONTMATTER },
    {
      title: "an error past line nine",
      text: `---\n${Array.from({ length: 10 }, (_, i) => `k${i + 1}: ${i}`).join("\n")}\nk1: again\n---\nBody`,
      reason: "prompt frontmatter is not valid YAML: Map keys must be unique (line 12 of the file)",
    },
    {
      title: "an alias with no anchor",
      text: "---\ndescription: *nope\n---\nBody",
      reason: "prompt frontmatter is not valid YAML: the YAML could not be read",
    },
  ])("$title", ({ text, reason }) => {
    expect(reasonFor("prompts/x.md", text)).toBe(reason);
  });

  test.each([
    { text: "---\t\ndescription: d\n---\nB", result: { ok: true, data: { description: "d" }, body: "B" } },
    { text: "---\n---", result: { ok: true, data: {}, body: "" } },
    { text: "\uFEFF---\nname: n\n---\nBody", result: { ok: true, data: { name: "n" }, body: "Body" } },
    { text: "---\r\n---\r\n\r\nBody\r\n", result: { ok: true, data: {}, body: "Body" } },
    { text: "---\n---\n \t\n\t x \n\n", result: { ok: true, data: {}, body: "\t x" } },
    { text: "---\nname: n\n---  \n# x", result: { ok: true, data: { name: "n" }, body: "# x" } },
  ])("parseFrontmatter(%j)", ({ text, result }) => {
    expect(parseFrontmatter(text)).toEqual(result);
  });

  test.each([
    ["\n\n  Body\n\n", "  Body"],
    [" \t\r\n\r\nx\n y \n", "x\n y"],
    ["x  ", "x"],
    ["", ""],
  ])("trimBody(%j) is %j", (body, trimmed) => {
    expect(trimBody(body)).toBe(trimmed);
  });
});

describe("parsing at its edges", () => {
  test.each([
    ["prompts/.review", ".review"],
    ["a.d/b/c.d.prompt.md", "c.d"],
    ["x", "x"],
    ["dir.d/file", "file"],
    ["review.prompt.md", "review"],
  ])("the stem of %s is %s", (path, stem) => {
    expect(parsePromptStem(path)).toBe(stem);
  });

  test.each<{ title: string; path: string; dialect: Dialect; command?: boolean; served: boolean }>([
    { title: "a claude plugin's file anywhere", path: "prompts/x.md", dialect: "claude", served: true },
    { title: "a declared command in auto", path: "prompts/x.md", dialect: "auto", command: true, served: true },
    { title: "a command of a skillshelf plugin", path: "commands/x.md", dialect: "skillshelf", served: false },
    { title: "a command of a copilot plugin", path: "commands/x.md", dialect: "copilot", served: false },
  ])("without frontmatter: $title", ({ path, dialect, command, served }) => {
    const result = parsePromptFile({ path, text: "\uFEFF\n# Fix\n\nFix $ARGUMENTS.\n\n", command: command ?? false }, dialect);
    if (served) {
      expect(result).toMatchObject({ ok: true, prompt: { stem: "x", dialect: "claude", description: "Fix" } });
      expect(result.ok && result.prompt.segments).toEqual([
        { kind: "text", text: "# Fix\n\nFix " },
        { kind: "all" },
        { kind: "text", text: "." },
      ]);
    } else {
      expect(result).toEqual({
        ok: false,
        reason: `prompt has no frontmatter; in the ${dialect} dialect every prompt file starts with a YAML block between '---' lines`,
      });
    }
  });

  test.each([
    { yaml: "title: '  '\nname: n", title: "n" },
    { yaml: "title: 5\nname: ' n '", title: "n" },
    { yaml: "title: ''\nname: ''", title: undefined },
  ])("the title of $yaml is $title", ({ yaml, title }) => {
    expect(defineFor("prompts/x.md", `---\n${yaml}\n---\n`).title).toBe(title);
  });

  test.each([
    { title: "a null description", text: "---\ndescription:\n---\n\r\n  ### Deploy it ##  \r\nmore", description: "Deploy it ##" },
    { title: "a blank description", text: "---\ndescription: '   '\n---\n#hash", description: "hash" },
    { title: "heading marks alone", text: "---\n---\n ## \n#\nText", description: "Text" },
    { title: "a '#' inside a line", text: "---\n---\nC# tips: use C# here", description: "C# tips: use C# here" },
  ])("$title: the description is the first body line", ({ text, description }) => {
    expect(defineFor("prompts/x.md", text).description).toBe(description);
  });

  test("files are taken in code-unit path order whatever order they come in", () => {
    const file = (path: string) => ({ path, text: "---\n---\nBody", command: false });
    const result = parsePromptFiles([file("prompts/b.md"), file("prompts/a.md"), file("prompts/B.md"), file("prompts/a.md")], "auto");
    expect(result.prompts.map((p) => p.path)).toEqual(["prompts/B.md", "prompts/a.md", "prompts/b.md"]);
    expect(result.skipped).toEqual([
      { path: "prompts/a.md", reason: "a second prompt named 'a' in this plugin; prompts/a.md already serves that name" },
    ]);
  });
});

describe("skillshelf arguments at their edges", () => {
  const declare = (yaml: string, body = "Body") => defineFor("prompts/x.md", `---\narguments:\n${yaml}\n---\n${body}`);

  test("null description, required and default are absent", () => {
    const def = declare("  - {name: a, description: ~, required: ~, default: ~}");
    expect(def.arguments).toEqual([{ name: "a", required: false }]);
    expect(def.defaults).toEqual(new Map());
  });

  test("a blank description is none; an empty default is none, so the argument stays required", () => {
    const def = declare("  - {name: a, description: '  ', required: true, default: ''}");
    expect(def.arguments).toEqual([{ name: "a", required: true }]);
    expect(def.defaults).toEqual(new Map());
  });

  test("a boolean default is its text and makes a required argument optional; a description is trimmed", () => {
    const def = declare("  - {name: a, description: ' Flag ', required: true, default: false}", "{{a}}");
    expect(def.arguments).toEqual([{ name: "a", description: "Flag", required: false }]);
    expect(renderPrompt(def, {})).toEqual({ ok: true, text: "false" });
  });

  test("names with a dash, a digit or a leading underscore", () => {
    const def = declare("  - name: source-lang\n  - name: _x\n  - name: a2", "{{source-lang}}|{{ _x }}|{{a2}}");
    expect(renderPrompt(def, { "source-lang": "go", _x: "u", a2: "d" })).toEqual({ ok: true, text: "go|u|d" });
  });

  test("a null list declares nothing", () => {
    expect(defineFor("prompts/x.md", "---\narguments: ~\n---\nBody", "skillshelf").arguments).toEqual([]);
  });

  test.each<[unknown, string]>([
    [
      [null],
      "frontmatter 'arguments' lists names, the Claude dialect, but this prompt is read as skillshelf; " +
        "declare objects {name, description?, required?, default?} or set the plugin's dialect to claude",
    ],
    [
      [["a"]],
      "frontmatter 'arguments' lists names, the Claude dialect, but this prompt is read as skillshelf; " +
        "declare objects {name, description?, required?, default?} or set the plugin's dialect to claude",
    ],
    [{ name: "a" }, "frontmatter 'arguments' must be a list of objects {name, description?, required?, default?}"],
    [[{ name: 5 }], "argument 1 in frontmatter 'arguments' has no name"],
  ])("compileSkillshelf refuses %j", (declared, reason) => {
    expect(compileSkillshelf(declared, "x")).toEqual({ ok: false, reason });
  });
});

describe("names and placeholders", () => {
  test.each([
    ["topic", true],
    ["Topic", true],
    ["aB", true],
    ["file_name", true],
    ["source-lang", true],
    ["_x", true],
    ["a2", true],
    ["2nd", false],
    ["-a", false],
    ["a b", false],
    ["a.b", false],
    ["", false],
    ["é", false],
  ])("isArgumentName(%j) is %s", (name, valid) => {
    expect(isArgumentName(name)).toBe(valid);
  });

  test.each([
    ["a", true],
    ["Z", true],
    ["0", true],
    ["_", true],
    ["-", false],
    [".", false],
    ["ab", false],
    ["", false],
  ])("isWordChar(%j) is %s", (ch, word) => {
    expect(isWordChar(ch)).toBe(word);
  });

  test.each([
    ["${input:x}", true],
    ["${input:Xy}", true],
    ["${input:a_b}", true],
    ["${input:x:a\rb}", false],
    ["${input:file-name:The file}", true],
    ["${input:_x2}", true],
    ["${input:2x}", false],
    ["${input:x:a\nb}", false],
    ["${input:x:a{b}", false],
    ["$input:x}", false],
    ["before ${input:x} after", true],
  ])("hasCopilotInput(%j) is %s", (body, found) => {
    expect(hasCopilotInput(body)).toBe(found);
  });

  test("a placeholder text ends at the first closing brace", () => {
    const def = defineFor("prompts/x.prompt.md", "---\n---\n${input:x:a} b}");
    expect(def.arguments).toEqual([{ name: "x", description: "a", required: false }]);
    expect(renderPrompt(def, { x: "v" })).toEqual({ ok: true, text: "v b}" });
  });

  test("copilot inputs named with a dash, a digit or a leading underscore are arguments; a line break ends a placeholder", () => {
    const def = defineFor("prompts/x.prompt.md", "---\n---\n${input:file-name} ${input:_x2:Why} ${input:2x} ${input:y:a\nb}");
    // Strict: an input without a placeholder has no description key at all.
    expect(def.arguments).toStrictEqual([
      { name: "file-name", required: false },
      { name: "_x2", description: "Why", required: false },
    ]);
  });

  test.each([
    ["{{x}}", true],
    ["{{Xy}}", true],
    ["{{aB_c-9}}", true],
    ["{{ x-y }}", true],
    ["{{\t_1\t}}", true],
    ["{{ 1x }}", false],
    ["{{ a.b }}", false],
    ["{ x }", false],
    ["a {{x}} b", true],
  ])("hasSkillshelfPlaceholder(%j) is %s", (body, found) => {
    expect(hasSkillshelfPlaceholder(body)).toBe(found);
  });
});

describe("missingArguments", () => {
  const def = () =>
    defineFor("prompts/x.md", "---\narguments: [{name: a, required: true}, {name: b}, {name: c, required: true}]\n---\n{{a}}{{b}}{{c}}");

  test.each<[PromptArgs, string[]]>([
    [{}, ["a", "c"]],
    [{ a: "1", c: null }, ["c"]],
    [{ a: "", c: "" }, ["a", "c"]],
    [{ a: "1", c: "2" }, []],
    // An unknown argument makes the request wrong whatever else it lacks: nothing to ask for.
    [{ z: "1" }, []],
  ])("%j lacks %j", (args, names) => {
    expect(missingArguments(def(), args).map((arg) => arg.name)).toEqual(names);
  });

  test("the rows are the declared arguments themselves", () => {
    expect(missingArguments(def(), { a: "1" })).toEqual([{ name: "c", required: true }]);
  });
});
