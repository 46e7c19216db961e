// findCitations lexes inline only the runs of text that may hold a link; here it must find exactly what marked's full
// lex finds, on bodies built to tell them apart: links whose source spans blocks, state carried from run to run,
// definitions used before they are made, and runs whose text differs from the body's (cells, task items, quotes).
import { Lexer } from "marked";
import { expect, test } from "vitest";
import { findCitations } from "../../src/harvest/citations.js";

/** Every link and image target marked's full lex finds, in document order, by a walk over every object of the token
 *  tree (not findCitations' own walk), first occurrence kept, empty targets dropped. */
function fullLexCitations(body: string): string[] {
  const found: string[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    if (typeof value !== "object" || value === null) return;
    const node = value as { type?: unknown; href?: unknown };
    if ((node.type === "link" || node.type === "image") && typeof node.href === "string") found.push(node.href);
    for (const child of Object.values(value)) visit(child);
  };
  visit(new Lexer({ gfm: true }).lex(body));
  return [...new Set(found)].filter((href) => href !== "");
}

const CASES: { name: string; body: string; expected: string[] }[] = [
  {
    name: "reference links used before their definitions, in a quote and a list; an undefined [text]; a definition in a paragraph",
    body: [
      "Use [the guide][g] and [G] and ![logo][img] and [missing] and [also][nowhere].",
      "",
      "> Quoted [q-ref] here.",
      "",
      "- item [list ref][deep]",
      "  - nested [g]",
      "",
      "A paragraph line",
      "[inpara]: not/a/definition.md",
      "then [inpara] is text.",
      "",
      "[g]: docs/guide.md",
      "[img]: img/logo.png 'Logo'",
      "> [q-ref]: quoted/def.md",
      "",
      "- [deep]: listed/def.md",
    ].join("\n"),
    expected: ["docs/guide.md", "img/logo.png", "quoted/def.md", "listed/def.md"],
  },
  {
    name: "autolinks, GFM bare URLs and e-mails, mailto: and xmpp:, www. and an upper-case scheme",
    body: [
      "Open <http://x> and <skill://lib/a.sh> and <ops@example.com>.",
      "",
      "Bare https://example.com/a, www.example.org/b. and HTTP://upper.example/c here.",
      "",
      "Write ops@example.com or mailto:me@example.com or xmpp:bot@example.com/home.",
      "",
      "Plain text with *emphasis* and _more_ and ~~struck~~ and no mark at all.",
    ].join("\n"),
    expected: [
      "http://x",
      "skill://lib/a.sh",
      "mailto:ops@example.com",
      "https://example.com/a",
      "http://www.example.org/b",
      "HTTP://upper.example/c",
      "mailto:me@example.com",
      "xmpp:bot@example.com/home",
    ],
  },
  {
    name: "links in tables (header, cells, escaped pipes), task lists, nested lists and emphasis",
    body: [
      "| [h](head.md) | plain header |",
      "|---|:-:|",
      "| a \\| b | [c](cell.md) |",
      "| plain | <https://cell.example> |",
      "",
      "- [ ] todo [t](task.md)",
      "- [x] done and plain",
      "- [ ] www.task.example",
      "",
      "1. one",
      "   - two",
      "     - three [deep](deep.md)",
      "",
      "- loose [x](loose.md)",
      "",
      "- [x] loose task, plain",
      "",
      "*[e](em.md)* and **[s](strong.md)** and ~~[d](del.md)~~ and _emphasis with https://em.example/url_.",
      "[![badge](badge.svg)](badge-link.md) and [`code` in text](code-text.md)",
    ].join("\n"),
    expected: [
      "head.md",
      "cell.md",
      "https://cell.example",
      "task.md",
      "http://www.task.example",
      "deep.md",
      "loose.md",
      "em.md",
      "strong.md",
      "del.md",
      "https://em.example/url",
      "badge-link.md",
      "badge.svg",
      "code-text.md",
    ],
  },
  {
    name: "code spans, fenced and indented code holding brackets; escapes and entities that are not links",
    body: [
      "`[span](span.md)` and ``[double `tick`](double.md)`` and \\[escaped](escaped.md) and &#91;entity](entity.md)",
      "",
      "```md",
      "[fenced](fenced.md) <http://fenced> https://fenced.example",
      "```",
      "",
      "~~~",
      "[tilde](tilde.md)",
      "~~~",
      "",
      "    [indented](indented.md) www.indented.example",
      "",
      "After code: [real](real.md)",
    ].join("\n"),
    expected: ["real.md"],
  },
  {
    name: "HTML blocks and inline tags: an open <a> stops bare URLs in later runs until it closes, <pre> is raw",
    body: [
      "<div>",
      "[not a link in html](html.md)",
      "</div>",
      "",
      "Inline <a href='x'>open tag, and then",
      "",
      "a later paragraph with https://after-open-a.example and [still](still.md)",
      "",
      "plain run in between, no marks",
      "",
      "closing </a> now, then https://after-close.example",
      "",
      "<pre>",
      "[pre](pre.md)",
      "</pre>",
      "",
      "Text <span>[in span](span-link.md)</span>.",
    ].join("\n"),
    expected: ["still.md", "https://after-close.example", "span-link.md"],
  },
  {
    name: "CRLF and CR line endings (one line break each, not two), setext and ATX headings",
    body:
      [
        "# Heading [h1](h1.md)",
        "",
        "Setext [h2](h2.md)",
        "---",
        "",
        "Para [ref] line",
        "",
        "[ref]: crlf/ref.md",
        "[next]:",
        "next/line.md",
        "",
        "[next] and [two",
        "lines](two-lines.md)",
      ].join("\r\n") + "\rlast line [cr](cr.md)\r\r[cr-def]:\rcr/def.md\r\ruses [cr-def]\r",
    expected: ["h1.md", "h2.md", "crlf/ref.md", "next/line.md", "two-lines.md", "cr.md", "cr/def.md"],
  },
  {
    name: "a mark only in code: the body passes the whole-body test, no run holds a link",
    body: ["Plain prose, *emphasis* and `a@b.c` in code.", "", "```", "[x](y.md) <http://z>", "```", "", "More plain prose."].join("\n"),
    expected: [],
  },
];

for (const { name, body, expected } of CASES) {
  test(`as marked's full lex: ${name}`, () => {
    expect(fullLexCitations(body)).toEqual(expected);
    expect(findCitations(body)).toEqual(expected);
  });
}
