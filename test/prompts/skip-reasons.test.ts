import { describe, expect, test } from "vitest";
import type { Dialect } from "../../src/config/types.js";
import { reasonFor } from "./helpers.js";

type Row = { title: string; path?: string; text: string; dialect?: Dialect; reason: string };

const fm = (yaml: string, body = "Body") => `---\n${yaml}\n---\n${body}`;

const ROWS: Row[] = [
  {
    title: "no frontmatter",
    text: "# Review\n\nReview the code.\n",
    reason: "prompt has no frontmatter; outside commands/, a prompt file must start with a YAML block between '---' lines",
  },
  {
    title: "frontmatter not closed",
    text: "---\ndescription: x\n\nBody",
    reason: "prompt frontmatter is not closed; it needs a '---' line after the YAML",
  },
  {
    title: "unquoted argument-hint of two lists",
    path: "commands/c.md",
    text: fm("description: x\nargument-hint: [pr-number] [priority]"),
    reason: "prompt frontmatter is not valid YAML: Unexpected flow-seq-start at node end (line 3 of the file)",
  },
  {
    title: "duplicate keys",
    text: fm("description: a\ndescription: b"),
    reason: "prompt frontmatter is not valid YAML: Map keys must be unique (line 3 of the file)",
  },
  { title: "a list, not a mapping", text: fm("- a\n- b"), reason: "prompt frontmatter is not a mapping of keys to values" },
  { title: "a scalar, not a mapping", text: fm("just text"), reason: "prompt frontmatter is not a mapping of keys to values" },
  {
    title: "applyTo",
    text: fm("applyTo: '**/*.ts'"),
    reason: "has 'applyTo' in its frontmatter, so it is an instruction file, not a prompt",
  },
  {
    title: "globs",
    path: ".github/prompts/x.prompt.md",
    text: fm("globs: ['*.py']"),
    reason: "has 'globs' in its frontmatter, so it is an instruction file, not a prompt",
  },
  {
    title: "both",
    text: fm("applyTo: x\nglobs: y"),
    reason: "has 'applyTo' and 'globs' in its frontmatter, so it is an instruction file, not a prompt",
  },
  {
    title: "globs in a skillshelf plugin",
    text: fm("globs: y"),
    dialect: "skillshelf",
    reason: "has 'globs' in its frontmatter, so it is an instruction file, not a prompt",
  },
  {
    title: "mixed arguments",
    text: fm("arguments: [a, {name: b}]"),
    reason:
      "frontmatter 'arguments' mixes names and objects; list only names (claude) or only objects {name, description?, required?, default?} (skillshelf)",
  },
  {
    title: "mixed arguments in a command",
    path: "commands/c.md",
    text: fm("arguments: [{name: b}, a]"),
    reason:
      "frontmatter 'arguments' mixes names and objects; list only names (claude) or only objects {name, description?, required?, default?} (skillshelf)",
  },
  {
    title: "arguments as a mapping",
    text: fm("arguments: {a: 1}"),
    reason:
      "frontmatter 'arguments' must be a list of names (claude), a list of objects {name, description?, required?, default?} (skillshelf), or a space-separated string of names",
  },
  {
    title: "arguments as numbers",
    path: "commands/c.md",
    text: fm("arguments: [1, 2]"),
    reason:
      "frontmatter 'arguments' must be a list of names (claude), a list of objects {name, description?, required?, default?} (skillshelf), or a space-separated string of names",
  },
  {
    title: "objects in a Claude command",
    path: "commands/c.md",
    text: fm("arguments: [{name: a}]"),
    reason:
      "frontmatter 'arguments' lists objects, the skillshelf dialect, but this prompt is read as a Claude command; list argument names, or set the plugin's dialect to skillshelf",
  },
  {
    title: "names in a skillshelf plugin",
    text: fm("arguments: [a]"),
    dialect: "skillshelf",
    reason:
      "frontmatter 'arguments' lists names, the Claude dialect, but this prompt is read as skillshelf; declare objects {name, description?, required?, default?} or set the plugin's dialect to claude",
  },
  {
    title: "a string of names in a skillshelf plugin",
    text: fm("arguments: a b"),
    dialect: "skillshelf",
    reason: "frontmatter 'arguments' must be a list of objects {name, description?, required?, default?}",
  },
  {
    title: "an argument without a name",
    text: fm("arguments: [{name: a}, {description: x}]"),
    reason: "argument 2 in frontmatter 'arguments' has no name",
  },
  {
    title: "an argument with an empty name",
    text: fm("arguments: [{name: ''}]"),
    reason: "argument 1 in frontmatter 'arguments' has no name",
  },
  {
    title: "a bad skillshelf name",
    text: fm("arguments: [{name: a.b}]"),
    reason: "argument name 'a.b' is not valid; a name is letters, digits, '_' and '-', starting with a letter or '_'",
  },
  {
    title: "a bad claude name",
    path: "commands/c.md",
    text: fm("arguments: ['2nd']"),
    reason: "argument name '2nd' is not valid; a name is letters, digits, '_' and '-', starting with a letter or '_'",
  },
  {
    title: "a skillshelf name twice",
    text: fm("arguments: [{name: a}, {name: a}]"),
    reason: "argument 'a' is declared twice in frontmatter 'arguments'",
  },
  {
    title: "a claude name twice",
    path: "commands/c.md",
    text: fm("arguments: a b a"),
    reason: "argument 'a' is declared twice in frontmatter 'arguments'",
  },
  {
    title: "a description that is a list",
    text: fm("arguments: [{name: a, description: [x]}]"),
    reason: "argument 'a' has a description that is not a string",
  },
  {
    title: "required as text",
    text: fm("arguments: [{name: a, required: 'yes'}]"),
    reason: "argument 'a' has a 'required' that is not true or false",
  },
  {
    title: "a default that is a list",
    text: fm("arguments: [{name: a, default: [1]}]"),
    reason: "argument 'a' has a default that is not a string, number or boolean",
  },
  {
    title: "an undeclared placeholder",
    text: fm("arguments: [{name: a}]", "{{a}} {{ b }} {{b}}"),
    reason: "body uses {{b}} but frontmatter 'arguments' does not declare it",
  },
  {
    title: "undeclared placeholders",
    text: fm("description: x", "{{ b }} {{c}}"),
    reason: "body uses {{b}}, {{c}} but frontmatter 'arguments' does not declare them",
  },
  { title: "a description that is a number", text: fm("description: 42"), reason: "frontmatter 'description' is not a string" },
  {
    title: "an empty stem",
    path: "prompts/.prompt.md",
    text: fm("description: x"),
    reason: "prompt file name has an empty stem, so the prompt would have no name",
  },
];

describe("every skip reason", () => {
  test.each(ROWS)("$title", ({ path, text, dialect, reason }) => {
    expect(reasonFor(path ?? "prompts/x.md", text, dialect ?? "auto")).toBe(reason);
  });
});

describe("not skipped", () => {
  test.each([
    {
      title: "globs in a Claude command (Claude Code ignores them)",
      path: "commands/sast.md",
      text: fm("description: SAST\nglobs: ['**/*.py']"),
    },
    { title: "applyTo in a claude plugin", path: "prompts/x.md", text: fm("applyTo: x"), dialect: "claude" as const },
    { title: "an empty frontmatter block", path: "prompts/x.md", text: "---\n---\nHi" },
    { title: "a comment-only frontmatter block", path: "prompts/x.md", text: "---\n# nothing\n---\nHi" },
    { title: "an undeclared {{x}} in a Claude command is text", path: "commands/x.md", text: fm("description: x", "{{ x }}") },
  ])("$title", ({ path, text, dialect }) => {
    expect(reasonFor(path, text, dialect ?? "auto")).toBe("parsed");
  });
});
