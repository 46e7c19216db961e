import { describe, expect, test } from "vitest";
import { buildPromptDefs, parsePromptFiles, parsePromptStem, splitArgumentWords } from "../../src/prompts/index.js";
import { defineFor } from "./helpers.js";

describe("parsePromptStem", () => {
  test.each([
    ["prompts/investigate.prompt.md", "investigate"],
    ["commands/review.md", "review"],
    ["review.md", "review"],
    ["prompts/a.b.md", "a.b"],
    ["prompts/notes.txt", "notes"],
    ["prompts/README", "README"],
    ["prompts/x.PROMPT.md", "x.PROMPT"],
    ["prompts/.prompt.md", ""],
  ])("%s -> %s", (path, stem) => {
    expect(parsePromptStem(path)).toBe(stem);
  });
});

describe("description and title", () => {
  test.each([
    { title: "frontmatter description, trimmed", text: "---\ndescription: '  Review it  '\n---\n# Heading", description: "Review it" },
    { title: "folded description", text: "---\ndescription: >\n  Two\n  lines\n---\nx", description: "Two lines" },
    { title: "first body line without its heading marks", text: "---\n---\n\n\n## Review a PR ##\n\nMore", description: "Review a PR ##" },
    { title: "first non-empty line that is not only #", text: "---\ndescription: ''\n---\n#\n   \nText line", description: "Text line" },
    { title: "a plain first line", text: "---\n---\nYou are a reviewer.\nMore", description: "You are a reviewer." },
    { title: "an empty body", text: "---\n---\n", description: "" },
  ])("$title", ({ text, description }) => {
    expect(defineFor("prompts/x.md", text).description).toBe(description);
  });

  test("title comes from title, else name", () => {
    expect(defineFor("prompts/x.md", "---\ntitle: ' T '\nname: n\n---\n").title).toBe("T");
    expect(defineFor("prompts/x.md", "---\nname: create-form\n---\n").title).toBe("create-form");
    expect(defineFor("prompts/x.md", "---\nname: 3\n---\n").title).toBeUndefined();
  });
});

describe("the body", () => {
  test("leading blank lines and trailing whitespace go, indentation and CRLF stay", () => {
    const def = defineFor("prompts/x.md", "\uFEFF---\r\ndescription: d\r\n---\r\n\r\n  \r\n  indented\r\nnext  \r\n\r\n");
    expect(def.segments).toEqual([{ kind: "text", text: "  indented\r\nnext" }]);
  });

  test("the frontmatter ends at the first '---' line, trailing spaces allowed", () => {
    const def = defineFor("prompts/x.md", "---  \ndescription: d\n---\t\nBody\n---\nMore");
    expect(def.segments).toEqual([{ kind: "text", text: "Body\n---\nMore" }]);
  });

  test("a file that is only frontmatter", () => {
    expect(defineFor("prompts/x.md", "---\ndescription: d\n---").segments).toEqual([]);
  });
});

describe("parsePromptFiles", () => {
  const file = (path: string, text = "---\ndescription: d\n---\nBody") => ({ path, text, command: false });

  test("the first file in sorted path order claims a stem; a file that fails to parse claims nothing", () => {
    const result = parsePromptFiles(
      [
        file("prompts/review.md"),
        file("commands/review.md"),
        file("a/review.prompt.md", "no frontmatter"),
        file("prompts/other.md", "---\napplyTo: x\n---\n"),
      ],
      "auto",
    );
    expect(result.prompts.map((p) => [p.path, p.stem, p.dialect])).toEqual([["commands/review.md", "review", "claude"]]);
    expect(result.skipped).toEqual([
      {
        path: "a/review.prompt.md",
        reason: "prompt has no frontmatter; outside commands/, a prompt file must start with a YAML block between '---' lines",
      },
      { path: "prompts/other.md", reason: "has 'applyTo' in its frontmatter, so it is an instruction file, not a prompt" },
      { path: "prompts/review.md", reason: "a second prompt named 'review' in this plugin; commands/review.md already serves that name" },
    ]);
  });

  test("the plugin's dialect applies to every file", () => {
    const result = parsePromptFiles([file("commands/a.md"), file("b.prompt.md")], "skillshelf");
    expect(result.prompts.map((p) => p.dialect)).toEqual(["skillshelf", "skillshelf"]);
  });

  test("no files, nothing served", () => {
    expect(parsePromptFiles([], "auto")).toEqual({ prompts: [], skipped: [] });
  });
});

describe("buildPromptDefs", () => {
  test("names are <library>_<stem>, one parse serves every library", () => {
    const { prompts } = parsePromptFiles([{ path: "commands/fix-bug.md", text: "---\n---\n$ARGUMENTS", command: true }], "auto");
    expect(buildPromptDefs("kit", prompts, "p").map((d) => [d.name, d.library, d.plugin])).toEqual([["kit_fix-bug", "kit", "p"]]);
    expect(buildPromptDefs("ops", prompts).map((d) => [d.name, d.library, d.plugin])).toEqual([["ops_fix-bug", "ops", undefined]]);
  });
});

describe("splitArgumentWords", () => {
  test.each([
    ["", []],
    ["   ", []],
    ["a  b\tc\nd", ["a", "b", "c", "d"]],
    ["'hello world' second", ["hello world", "second"]],
    [`"it's fine" x`, ["it's fine", "x"]],
    ["don't stop", ["don't", "stop"]],
    ["'a'b' c", ["a'b", "c"]],
    ["'unclosed quote", ["'unclosed", "quote"]],
    ["x='a b'", ["x='a", "b'"]],
    ["'' \"\"", ["", ""]],
  ])("%j -> %j", (text, words) => {
    expect(splitArgumentWords(text)).toEqual(words);
  });
});

describe("hostile sizes stay linear (a quadratic scan would hit the test timeout)", () => {
  test("many quotes that never close", () => {
    expect(splitArgumentWords("'a ".repeat(100_000)).length).toBe(100_000);
  });

  test("many unclosed copilot inputs on one line", () => {
    const def = defineFor("prompts/x.prompt.md", `---\n---\n${"${input:a:".repeat(100_000)}`);
    expect(def.arguments).toEqual([]);
  });

  test("many unclosed indexed claude placeholders", () => {
    const def = defineFor("commands/x.md", `---\n---\n${"$ARGUMENTS[1".repeat(100_000)}`);
    expect(def.segments.length).toBe(200_000);
  });
});

describe("a body marker decides and the same body compiles", () => {
  test("copilot inputs found by detection are all arguments", () => {
    expect(defineFor("prompts/x.md", "---\n---\n${input:a} ${input:b}").arguments.map((a) => a.name)).toEqual(["a", "b"]);
  });

  test("skillshelf placeholders found by detection are all checked", () => {
    const def = defineFor("prompts/x.md", "---\narguments: [{name: a}, {name: b}]\n---\n{{a}} {{b}}");
    expect(def.segments).toEqual([
      { kind: "value", name: "a" },
      { kind: "text", text: " " },
      { kind: "value", name: "b" },
    ]);
  });
});

describe("Claude commands without frontmatter", () => {
  test("serve their whole body, as Claude Code runs them", () => {
    const result = parsePromptFiles(
      [{ path: "commands/review.md", text: "\uFEFF# Review\n\nReview $ARGUMENTS carefully.\n", command: true }],
      "auto",
    );
    expect(result.skipped).toEqual([]);
    const [prompt] = buildPromptDefs("kit", result.prompts, "p");
    expect(prompt?.name).toBe("kit_review");
    expect(prompt?.dialect).toBe("claude");
    expect(prompt?.description).toBe("Review");
    expect(prompt?.arguments.map((a) => a.name)).toEqual(["arguments"]);
  });

  test.each(["copilot", "skillshelf"] as const)(
    "a command file without frontmatter in the %s dialect is skipped by that dialect's rule",
    (dialect) => {
      const result = parsePromptFiles([{ path: "commands/review.md", text: "Review $ARGUMENTS\n", command: true }], dialect);
      expect(result.prompts).toEqual([]);
      expect(result.skipped).toEqual([
        {
          path: "commands/review.md",
          reason: `prompt has no frontmatter; in the ${dialect} dialect every prompt file starts with a YAML block between '---' lines`,
        },
      ]);
    },
  );

  test("outside commands/ a file without frontmatter is still skipped", () => {
    const result = parsePromptFiles([{ path: "prompts/review.md", text: "Review $ARGUMENTS\n", command: false }], "auto");
    expect(result.prompts).toEqual([]);
    expect(result.skipped.map((row) => row.path)).toEqual(["prompts/review.md"]);
  });
});
