import { describe, expect, test } from "vitest";

import { checkSkillFrontmatter, isSkillName, parseSkillMd, REASONS } from "../../src/harvest/index.js";

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);
const BOM = "\uFEFF";

describe("parseSkillMd", () => {
  test.each([
    { title: "LF", md: "---\nname: a\ndescription: d\n---\nbody\n", offset: 31 },
    { title: "CRLF", md: "---\r\nname: a\r\ndescription: d\r\n---\r\nbody\r\n", offset: 35 },
    { title: "BOM (offset counts its 3 bytes)", md: `${BOM}---\nname: a\ndescription: d\n---\nbody\n`, offset: 34 },
    { title: "BOM and CRLF", md: `${BOM}---\r\nname: a\r\ndescription: d\r\n---\r\n`, offset: 38 },
    { title: "no body, no final newline", md: "---\nname: a\ndescription: d\n---", offset: 30 },
    { title: "fence with trailing spaces", md: "---  \nname: a\ndescription: d\n--- \nx", offset: 34 },
    { title: "fences with trailing tabs", md: "---\t\nname: a\ndescription: d\n---\t \t\nx", offset: 35 },
    { title: "a --- inside a value does not close", md: "---\nname: a\ndescription: 'x --- y'\n---\n", offset: 39 },
  ])("$title: bodyOffset $offset", ({ md, offset }) => {
    const parsed = parseSkillMd(bytes(md));
    expect(parsed).toEqual({ ok: true, frontmatter: expect.objectContaining({ name: "a" }) as unknown, bodyOffset: offset });
  });

  test("the mapping is kept verbatim as plain data (YAML 1.2: yes is a string, 0o10 is 8)", () => {
    const md = "---\nname: a\ndescription: d\nmetadata:\n  tags: [x, y]\n  flag: yes\n  on: true\n  octal: 0o10\n---\n";
    expect(parseSkillMd(bytes(md))).toEqual({
      ok: true,
      frontmatter: { name: "a", description: "d", metadata: { tags: ["x", "y"], flag: "yes", on: true, octal: 8 } },
      bodyOffset: md.length,
    });
  });

  test("tags beyond the core schema stay plain data, so the mapping survives JSON", () => {
    const md = "---\nname: a\ndescription: d\nbin: !!binary aGk=\nset: !!set {x}\nomap: !!omap [{k: 1}]\nwhen: 2024-01-01\n---\n";
    expect(parseSkillMd(bytes(md))).toEqual({
      ok: true,
      frontmatter: { name: "a", description: "d", bin: "aGk=", set: { x: null }, omap: [{ k: 1 }], when: "2024-01-01" },
      bodyOffset: md.length,
    });
  });

  test.each([
    { title: "no fence", md: "# title\nname: a\n", reason: REASONS.noFrontmatter },
    { title: "no closing fence", md: "---\nname: a\ndescription: d\n", reason: REASONS.noFrontmatter },
    { title: "only a fence", md: "---", reason: REASONS.noFrontmatter },
    { title: "fence not on the first line", md: "\n---\nname: a\n---\n", reason: REASONS.noFrontmatter },
    { title: "a list", md: "---\n- a\n- b\n---\n", reason: REASONS.notMapping },
    { title: "a scalar", md: "---\njust text\n---\n", reason: REASONS.notMapping },
    { title: "empty", md: "---\n---\n", reason: REASONS.notMapping },
    {
      title: "bad YAML",
      md: "---\nname: a: b\n---\n",
      reason: REASONS.unquotedColon(2, 7, 'name: "a: b"'),
    },
    {
      title: 'an unquoted ": " in a description: quote the value, on its line',
      md: "---\nname: pdf\ndescription: Use when: the user asks for a PDF\n---\n",
      reason:
        'The frontmatter is not valid YAML: the unquoted value at line 3, column 14 of SKILL.md holds ": ", which YAML reads as the start of another key: quote the value (description: "Use when: the user asks for a PDF").',
    },
    {
      title: "CRLF, and a quote inside the value",
      md: '---\r\nname: pdf\r\ndescription: Say "hi": then go\r\n---\r\n',
      reason:
        'The frontmatter is not valid YAML: the unquoted value at line 3, column 14 of SKILL.md holds ": ", which YAML reads as the start of another key: quote the value (description: "Say \\"hi\\": then go").',
    },
    {
      title: "the colon on a continuation line: quote the value, with no example",
      md: "---\nname: pdf\ndescription: Use it\n  when: asked\n---\n",
      reason: REASONS.unquotedColon(3, 14, null),
    },
    { title: "four dashes do not open", md: "----\nname: a\n----\n", reason: REASONS.noFrontmatter },
    { title: "x-- does not open", md: "x--\nname: a\n---\n", reason: REASONS.noFrontmatter },
    { title: "-x- does not open", md: "-x-\nname: a\n---\n", reason: REASONS.noFrontmatter },
    { title: "--x does not open", md: "--x\nname: a\n---\n", reason: REASONS.noFrontmatter },
    { title: "a space before the fence", md: " ---\nname: a\n---\n", reason: REASONS.noFrontmatter },
    { title: "----- does not close", md: "---\nname: a\n-----\n", reason: REASONS.noFrontmatter },
    {
      title: "line and column of two digits",
      md: `---\n${Array.from({ length: 9 }, (_, i) => `k${i}: 1\n`).join("")}name:           a: b\n---\n`,
      reason: REASONS.unquotedColon(11, 17, 'name: "a: b"'),
    },
    {
      title: "a BOM that starts the YAML text counts as a column",
      md: "---\n\uFEFFname: a: b\n---\n",
      reason: REASONS.unquotedColon(2, 8, 'name: "a: b"'),
    },
    {
      title: "an alias bomb",
      md: "---\na: &a [x,x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\n---\n",
      reason: "The frontmatter is not valid YAML: Excessive alias count indicates a resource exhaustion attack.",
    },
    {
      title: "an alias to no anchor, whose name ends the sentence once",
      md: "---\nname: *x.\n---\n",
      reason: "The frontmatter is not valid YAML: Unresolved alias (the anchor must be set before the alias): x.",
    },
    {
      title: "an alias inside its own anchor (JSON cannot carry it)",
      md: "---\nname: a\ndescription: d\nmetadata: &m {self: *m}\n---\n",
      reason: "The frontmatter is not valid YAML: an alias refers to a value that holds it.",
    },
    {
      title: "duplicate keys",
      md: "---\nname: a\nname: b\n---\n",
      reason: "The frontmatter is not valid YAML: Map keys must be unique at line 3, column 1 of SKILL.md.",
    },
  ])("$title -> $reason", ({ md, reason }) => {
    expect(parseSkillMd(bytes(md))).toEqual({ ok: false, reason });
  });

  // Only the three bytes EF BB BF are a BOM: any two of them, or other bytes, before the fence leave no fence.
  test.each([
    { title: "EF BB 80 (U+FEC0)", head: [0xef, 0xbb, 0x80] },
    { title: "EF 80 BF (U+F03F)", head: [0xef, 0x80, 0xbf] },
    { title: "78 BB BF", head: [0x78, 0xbb, 0xbf] },
    { title: "78 C2 BF (x¿)", head: [0x78, 0xc2, 0xbf] },
  ])("$title before the fence: no frontmatter", ({ head }) => {
    const md = new Uint8Array([...head, ...bytes("---\nname: a\ndescription: d\n---\n")]);
    expect(parseSkillMd(md)).toEqual({ ok: false, reason: REASONS.noFrontmatter });
  });

  test("frontmatter that is not UTF-8", () => {
    const md = new Uint8Array([...bytes("---\nname: "), 0xff, 0xfe, ...bytes("\n---\n")]);
    expect(parseSkillMd(md)).toEqual({ ok: false, reason: "SKILL.md is not valid UTF-8, so its frontmatter cannot be parsed." });
  });
});

describe("checkSkillFrontmatter", () => {
  const long = "x".repeat(1025);
  test.each([
    { fm: { name: "pdf", description: "d" }, dir: "pdf", out: { ok: true, name: "pdf", description: "d" } },
    { fm: { name: "any-name", description: "d" }, dir: null, out: { ok: true, name: "any-name", description: "d" } },
    { fm: { description: "d" }, dir: "pdf", out: { ok: false, reason: "The frontmatter has no name." } },
    {
      fm: { name: "PDF", description: "d" },
      dir: "PDF",
      out: {
        ok: false,
        reason: `The name "PDF" breaks the naming rule (1-64 characters of a-z, 0-9 and '-', no hyphen first or last, no '--'): character 1 ("P") is an upper-case letter. The nearest valid name is "pdf".`,
      },
    },
    {
      fm: { name: 2048, description: "d" },
      dir: "2048",
      out: { ok: false, reason: 'The name 2048 is read by YAML as a number, not a string: quote it (name: "2048").' },
    },
    {
      fm: { name: true, description: "d" },
      dir: "true",
      out: { ok: false, reason: 'The name true is read by YAML as the boolean true, not a string: quote it (name: "true").' },
    },
    { fm: { name: "a--b", description: "d" }, dir: "a--b", out: { ok: false, reason: REASONS.badName("a--b") } },
    {
      fm: { name: "pdf", description: "d" },
      dir: "pdf-tools",
      out: { ok: false, reason: `The name "pdf" differs from its directory name "pdf-tools".` },
    },
    { fm: { name: "pdf" }, dir: "pdf", out: { ok: false, reason: "The frontmatter has no description." } },
    { fm: { name: "pdf", description: "  " }, dir: "pdf", out: { ok: false, reason: "The description must be a non-empty string." } },
    { fm: { name: "pdf", description: ["a"] }, dir: "pdf", out: { ok: false, reason: REASONS.emptyDescription } },
    {
      fm: { name: "pdf", description: long },
      dir: "pdf",
      out: { ok: false, reason: "The description is 1025 characters long, over the limit of 1024." },
    },
    // 1024 characters, counted as code points (each emoji is two UTF-16 units)
    { fm: { name: "pdf", description: "😀".repeat(1024) }, dir: "pdf", out: { ok: true, name: "pdf", description: "😀".repeat(1024) } },
    { fm: { name: null, description: "d" }, dir: "pdf", out: { ok: false, reason: "The frontmatter has no name." } },
    {
      fm: { name: { a: 1 }, description: "d" },
      dir: "pdf",
      out: {
        ok: false,
        reason: 'The name must be one string, but YAML read a mapping: write the skill\'s name, such as "name: my-skill".',
      },
    },
    { fm: { name: ["pdf"], description: "d" }, dir: "pdf", out: { ok: false, reason: REASONS.nameNotString("a list", null) } },
    { fm: { name: "pdf", description: null }, dir: "pdf", out: { ok: false, reason: "The frontmatter has no description." } },
    { fm: { name: "pdf", description: "" }, dir: "pdf", out: { ok: false, reason: REASONS.emptyDescription } },
    { fm: { name: "pdf", description: 7 }, dir: "pdf", out: { ok: false, reason: REASONS.emptyDescription } },
    { fm: { name: "pdf", description: "x".repeat(1024) }, dir: "pdf", out: { ok: true, name: "pdf", description: "x".repeat(1024) } },
  ])("%#: $fm.name in $dir", ({ fm, dir, out }) => {
    expect(checkSkillFrontmatter(fm, dir)).toEqual(out);
  });
});

describe("the name rule's message names what breaks it and the nearest valid name", () => {
  const RULE = "(1-64 characters of a-z, 0-9 and '-', no hyphen first or last, no '--')";
  test.each([
    ["My Skill", `character 1 ("M") is an upper-case letter. The nearest valid name is "my-skill".`],
    ["my skill", `character 3 (" ") is a space. The nearest valid name is "my-skill".`],
    ["my_skill", `character 3 ("_") is not a-z, 0-9 or '-'. The nearest valid name is "my-skill".`],
    ["Crème Brûlée", `character 1 ("C") is an upper-case letter. The nearest valid name is "creme-brulee".`],
    ["-pdf", `it starts with '-'. The nearest valid name is "pdf".`],
    ["pdf-", `it ends with '-'. The nearest valid name is "pdf".`],
    ["pdf--tools", `characters 4-5 are '--'. The nearest valid name is "pdf-tools".`],
    ["a".repeat(65), `it is 65 characters long, over 64. The nearest valid name is "${"a".repeat(64)}".`],
    ["", "it is empty."],
    ["日本", `character 1 ("日") is not a-z, 0-9 or '-'.`],
  ])("%j", (name, tail) => {
    expect(REASONS.badName(name)).toBe(`The name ${JSON.stringify(name)} breaks the naming rule ${RULE}: ${tail}`);
  });
});

describe("isSkillName", () => {
  test.each([
    ["a", true],
    ["pdf-tools", true],
    ["0-9", true],
    ["x".repeat(64), true],
    ["x".repeat(65), false],
    ["", false],
    ["-a", false],
    ["a-", false],
    ["a--b", false],
    ["A", false],
    ["a_b", false],
    ["a.b", false],
    ["ü", false],
  ])("%s -> %s", (name, ok) => {
    expect(isSkillName(name)).toBe(ok);
  });
});
