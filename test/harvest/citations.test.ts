// The citation audit's parse: marked's lexer decides what is a link, so code never cites and reference-style links do.
import { expect, test } from "vitest";
import { findCitations } from "../../src/harvest/citations.js";

test("links and images in prose, lists, quotes and tables cite; code spans, fences and indented code do not", () => {
  const body = [
    'See `[name](relative-url)` and [a](a.md) and ![diagram](img/x.png "title").',
    "",
    "Reference-style: [one][r1] and [r2].",
    "",
    "[r1]: refs/one.md",
    "[r2]: <refs/two words.md>",
    "[unused]: refs/unused.md",
    "",
    "```bash",
    "cat [x](in-fence.md)",
    "python ${CLAUDE_SKILL_DIR}/scripts/run.py",
    "```",
    "",
    "    [y](indented.md)",
    "",
    "- item [z](list/z.md)",
    "",
    "> quote [q](q.md)",
    "",
    "| a | b |",
    "|---|---|",
    "| [t](table.md) | x |",
    "",
    "[web](https://example.com) [anchor](#usage) [templates/](templates/) [again](a.md)",
  ].join("\n");
  expect(findCitations(body)).toEqual([
    "a.md",
    "img/x.png",
    "refs/one.md",
    "refs/two words.md",
    "list/z.md",
    "q.md",
    "table.md",
    "https://example.com",
    "#usage",
    "templates/",
    "${CLAUDE_SKILL_DIR}/scripts/run.py",
  ]);
});

test("an empty body cites nothing", () => {
  expect(findCitations("")).toEqual([]);
});
