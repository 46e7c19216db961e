// The Markdown renderer of the page: marked, then sanitize-html. Adversarial inputs come out inert; relative links
// stay below the library.
import { describe, expect, it } from "vitest";
import { renderMarkdown } from "../../src/web/markdown.js";

const BASE = { files: "/files/lib/folder/skill/", library: "/files/lib/" };
const render = (markdown: string): string => renderMarkdown(markdown, BASE).value.trim();

describe("renderMarkdown", () => {
  it("renders Markdown, one heading level down", () => {
    expect(render("# Title\n\nSome *text* and `code`.\n\n- a\n- b")).toBe(
      "<h2>Title</h2>\n<p>Some <em>text</em> and <code>code</code>.</p>\n<ul>\n<li>a</li>\n<li>b</li>\n</ul>",
    );
    expect(render("###### Six")).toBe("<h6>Six</h6>");
    expect(render("| a | b |\n|:-|-:|\n| 1 | 2 |")).toContain('<th align="left">a</th>');
  });

  it("keeps task-list checkboxes, disabled and labelled, and drops every other control", () => {
    expect(render("- [x] done\n- [ ] open")).toBe(
      '<ul>\n<li><input type="checkbox" disabled checked aria-label="done" /> done</li>\n<li><input type="checkbox" disabled aria-label="to do" /> open</li>\n</ul>',
    );
    expect(render('<input type="text" name="x" value="y"><textarea>t</textarea><select><option>o</option></select>')).toBe("<p></p>");
  });

  it.each([
    ["a data: link", "[x](data:text/html,<script>alert(1)</script>)", '<p><a rel="noopener noreferrer nofollow">x</a></p>'],
    ["a vbscript: link", "[x](vbscript:msgbox)", '<p><a rel="noopener noreferrer nofollow">x</a></p>'],
    ["a javascript: link with spaces", '<a href="  javascript:alert(1)">x</a>', '<p><a rel="noopener noreferrer nofollow">x</a></p>'],
    ["an ontoggle handler", "<details open ontoggle=alert(1)><summary>s</summary>d</details>", "sd"],
    ["a style element", "<style>body{display:none}</style>text", "text"],
    ["an object", '<object data="x.swf"></object>ok', "<p>ok</p>"],
    ["a base element", '<base href="https://evil.example/">ok', "ok"],
    ["a meta refresh", '<meta http-equiv="refresh" content="0;url=https://evil.example/">ok', "ok"],
    ["an id that would clobber", '<p id="q" name="x">p</p>', "<p>p</p>"],
  ])("renders %s inert", (_name, markdown, expected) => {
    expect(render(markdown)).toBe(expected);
  });

  it("points relative links at the skill's files and never above the library", () => {
    expect(render("[a](refs/a.md) [b](../other/SKILL.md#top) [c](#here)")).toBe(
      '<p><a href="/files/lib/folder/skill/refs/a.md">a</a> <a href="/files/lib/folder/other/SKILL.md#top">b</a> <a href="#here">c</a></p>',
    );
    expect(render("[up](../../../secret) [enc](%2e%2e/%2e%2e/%2e%2e/x) [abs](/etc/passwd)")).toBe("<p><a>up</a> <a>enc</a> <a>abs</a></p>");
    expect(render("[web](https://example.org/) [mail](mailto:a@example.org) [proto](//evil.example/)")).toBe(
      '<p><a href="https://example.org/" rel="noopener noreferrer nofollow">web</a> <a href="mailto:a@example.org" rel="noopener noreferrer nofollow">mail</a> <a rel="noopener noreferrer nofollow">proto</a></p>',
    );
  });
});
