// naming: lenient, unit by unit: what the check bends, how SKILL.md is rewritten in place, and what a harvest serves.
import { afterAll, describe, expect, test } from "vitest";
import { parse as parseYaml } from "yaml";

import { REASONS, rewriteSkillMd } from "../../src/harvest/index.js";
import { checkSkillFrontmatterLenient } from "../../src/harvest/frontmatter.js";
import { harvest, makeTree, removeTrees, skillMd } from "./fixture.js";

afterAll(removeTrees);

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);
const text = (b: Uint8Array): string => new TextDecoder("utf-8", { ignoreBOM: true }).decode(b);
const WORDS = "Takes notes from meetings. ".repeat(40); // 1,080 characters
const CUT = checkCut(WORDS);

function checkCut(description: string): string {
  const check = checkSkillFrontmatterLenient({ name: "a", description }, "a");
  return check.ok ? check.description : "";
}

describe("checkSkillFrontmatterLenient", () => {
  const served = (over: Record<string, unknown>): unknown => ({
    ok: true,
    description: "d",
    byName: false,
    renamed: false,
    cut: false,
    warnings: [],
    ...over,
  });
  test.each([
    { fm: { name: "pdf", description: "d" }, dir: "pdf", out: served({ name: "pdf" }) },
    { fm: { name: "pdf", description: "d" }, dir: null, out: served({ name: "pdf" }) },
    {
      fm: { name: "odd-one", description: "d" },
      dir: "Odd_Folder",
      out: served({ name: "odd-one", byName: true, warnings: [REASONS.servedByName("odd-one", "Odd_Folder")] }),
    },
    {
      fm: { name: "My Skill", description: "d" },
      dir: "my-skill",
      out: served({ name: "my-skill", renamed: true, warnings: [REASONS.servedByFolder("My Skill", "my-skill")] }),
    },
    {
      fm: { name: "My Skill", description: WORDS },
      dir: "my-skill",
      out: served({
        name: "my-skill",
        description: CUT,
        renamed: true,
        cut: true,
        warnings: [REASONS.servedByFolder("My Skill", "my-skill"), REASONS.descriptionCut(1080)],
      }),
    },
    { fm: { name: "pdf", description: "x".repeat(1024) }, dir: "pdf", out: served({ name: "pdf", description: "x".repeat(1024) }) },
    {
      fm: { name: "pdf", description: "😀".repeat(1025) },
      dir: "pdf",
      out: served({ name: "pdf", description: `${"😀".repeat(1023)}…`, cut: true, warnings: [REASONS.descriptionCut(1025)] }),
    },
    // Skipped as under the strict rule.
    { fm: { description: "d" }, dir: "pdf", out: { ok: false, reason: REASONS.noName } },
    { fm: { name: null, description: "d" }, dir: "pdf", out: { ok: false, reason: REASONS.noName } },
    { fm: { name: "My Skill", description: "d" }, dir: null, out: { ok: false, reason: REASONS.badName("My Skill") } },
    { fm: { name: "My Skill", description: "d" }, dir: "Bad_Folder", out: { ok: false, reason: REASONS.badName("My Skill") } },
    { fm: { name: 12, description: "d" }, dir: "pdf", out: { ok: false, reason: REASONS.nameNotString("a number", "12") } },
    { fm: { name: { a: 1 }, description: "d" }, dir: "pdf", out: { ok: false, reason: REASONS.nameNotString("a mapping", null) } },
    { fm: { name: "pdf" }, dir: "pdf", out: { ok: false, reason: REASONS.noDescription } },
    { fm: { name: "pdf", description: null }, dir: "pdf", out: { ok: false, reason: REASONS.noDescription } },
    { fm: { name: "pdf", description: " \t" }, dir: "pdf", out: { ok: false, reason: REASONS.emptyDescription } },
    { fm: { name: "pdf", description: 5 }, dir: "pdf", out: { ok: false, reason: REASONS.emptyDescription } },
    { fm: { name: "My Skill" }, dir: "my-skill", out: { ok: false, reason: REASONS.noDescription } },
  ])("%#: $fm.name in $dir", ({ fm, dir, out }) => {
    expect(checkSkillFrontmatterLenient(fm, dir)).toEqual(out);
  });

  test("the cut description ends at a word, within the limit", () => {
    expect(CUT).toBe(`${"Takes notes from meetings. ".repeat(37)}Takes notes from…`);
    expect([...CUT].length).toBeLessThanOrEqual(1024);
  });
});

describe("rewriteSkillMd", () => {
  test.each([
    {
      title: "a name becomes a plain valid name; the body's offset moves by the bytes saved",
      md: "---\nname: My Skill\ndescription: d\n---\nbody\n",
      values: { name: "my-skill" },
      out: "---\nname: my-skill\ndescription: d\n---\nbody\n",
    },
    {
      title: "a value that is not a valid name is written as a JSON string",
      md: "---\nname: x\ndescription: short\n---\nbody",
      values: { description: 'say "hi"\n' },
      out: '---\nname: x\ndescription: "say \\"hi\\"\\n"\n---\nbody',
    },
    {
      title: "two values, the later one in the file first in the list: each lands in place",
      md: "---\nname: A Long Bad Name\nx: 1\ndescription: 'quoted'  # note\n---\nbody",
      values: { name: "a", description: "B" },
      out: '---\nname: a\nx: 1\ndescription: "B"  # note\n---\nbody',
    },
    {
      title: "BOM, CRLF and multi-byte characters before the value are kept",
      md: "\uFEFF---\r\ntitle: é😀\r\nname: Bad Name\r\n---\r\nbödy\r\n",
      values: { name: "bad-name" },
      out: "\uFEFF---\r\ntitle: é😀\r\nname: bad-name\r\n---\r\nbödy\r\n",
    },
    {
      title: "a tag the frontmatter keeps as plain data does not stop the rewrite",
      md: "---\nname: Bad Name\nx: !!omap [{a: 1}, {a: 2}]\n---\n",
      values: { name: "bad-name" },
      out: "---\nname: bad-name\nx: !!omap [{a: 1}, {a: 2}]\n---\n",
    },
    { title: "nothing to replace", md: "---\nname: x\n---\nb", values: {}, out: "---\nname: x\n---\nb" },
  ])("$title", ({ md, values, out }) => {
    const before = bytes(md);
    const offset = before.byteLength - bytes(md.slice(md.lastIndexOf("---") + 3).replace(/^\r?\n/, "")).byteLength;
    const rewritten = rewriteSkillMd(before, offset, values);
    expect(rewritten === undefined ? undefined : [text(rewritten.bytes), rewritten.bodyOffset]).toEqual([
      out,
      bytes(out).byteLength - bytes(out.slice(out.lastIndexOf("---") + 3).replace(/^\r?\n/, "")).byteLength,
    ]);
  });

  test.each([
    { title: "no frontmatter", md: "name: x\n" },
    { title: "no closing fence", md: "---\nname: x\n" },
    { title: "YAML that does not parse", md: "---\nname: a: b\n---\n" },
    { title: "YAML with a repeated key", md: "---\nname: a\nname: b\n---\n" },
    { title: "not a mapping", md: "---\n- name\n---\n" },
    { title: "the key is missing", md: "---\ndescription: d\n---\n" },
    { title: "the value is a list", md: "---\nname: [a, b]\n---\n" },
    { title: "the value is an alias", md: "---\nx: &n Bad Name\nname: *n\n---\n" },
  ])("$title: cannot be rewritten in place", ({ md }) => {
    expect(rewriteSkillMd(bytes(md), md.length, { name: "x" })).toBeUndefined();
  });
});

describe("a harvest with naming: lenient", () => {
  const tree = {
    "skills/plain/SKILL.md": skillMd("plain"),
    "skills/group/Odd_Folder/SKILL.md": skillMd("odd-one"),
    "skills/group/Odd_Folder/notes.md": "n",
    "skills/cloudinary/SKILL.md": "---\nname: Cloudinary Tools\ndescription: d\n---\nbody\n",
    "skills/long-notes/SKILL.md": `---\nname: long-notes\ndescription: ${WORDS.trim()}\n---\nbody\n`,
    "skills/aliased/SKILL.md": "---\nx: &n Bad Name\nname: *n\ndescription: d\n---\n",
    "skills/Bad_Folder/SKILL.md": "---\nname: Bad_Name\ndescription: d\n---\n",
  };

  test("serves what it bends, keeps the bytes it must rewrite, and says so in warnings", async () => {
    const plugin = await harvest(makeTree(tree), { naming: "lenient" });
    const rows = plugin.skills.map((s) => ({
      dir: s.dir,
      address: s.address.join("/"),
      name: s.name,
      files: s.files.map((f) => f.path),
      servedName: s.servedName,
      servedDescription: s.servedDescription === undefined ? undefined : [...s.servedDescription].length,
      bytes: s.skillMd.bytes === undefined ? undefined : text(s.skillMd.bytes),
    }));
    expect(rows).toEqual([
      {
        dir: "skills/cloudinary",
        address: "cloudinary",
        name: "cloudinary",
        files: [],
        servedName: "cloudinary",
        servedDescription: undefined,
        bytes: tree["skills/cloudinary/SKILL.md"],
      },
      {
        dir: "skills/group/Odd_Folder",
        address: "group/odd-one",
        name: "odd-one",
        files: ["notes.md"],
        servedName: undefined,
        servedDescription: undefined,
        bytes: undefined,
      },
      {
        dir: "skills/long-notes",
        address: "long-notes",
        name: "long-notes",
        files: [],
        servedName: undefined,
        servedDescription: [...WORDS.trim()].length > 1024 ? [...checkCut(WORDS.trim())].length : 0,
        bytes: tree["skills/long-notes/SKILL.md"],
      },
      {
        dir: "skills/plain",
        address: "plain",
        name: "plain",
        files: [],
        servedName: undefined,
        servedDescription: undefined,
        bytes: undefined,
      },
    ]);
    expect(plugin.skills.find((s) => s.dir === "skills/long-notes")?.servedDescription).toBe(checkCut(WORDS.trim()));
    expect(plugin.skipped).toEqual([
      { path: "skills/Bad_Folder", reason: REASONS.badName("Bad_Name") },
      // The alias cannot be replaced in place: skipped for the rule the strict check names.
      { path: "skills/aliased", reason: REASONS.badName("Bad Name") },
    ]);
    expect(plugin.warnings).toEqual([
      { path: "skills/cloudinary/SKILL.md", reason: REASONS.servedByFolder("Cloudinary Tools", "cloudinary") },
      { path: "skills/group/Odd_Folder/SKILL.md", reason: REASONS.servedByName("odd-one", "Odd_Folder") },
      { path: "skills/long-notes/SKILL.md", reason: REASONS.descriptionCut(1079) },
    ]);
  });

  test("strict serves only what keeps every rule, with no warnings", async () => {
    const plugin = await harvest(makeTree(tree));
    expect(plugin.skills.map((s) => s.dir)).toEqual(["skills/plain"]);
    expect(plugin.warnings).toBeUndefined();
    expect(plugin.skipped.map((row) => row.path)).toEqual([
      "skills/Bad_Folder",
      "skills/aliased",
      "skills/cloudinary",
      "skills/group/Odd_Folder",
      "skills/long-notes",
    ]);
  });
});

describe("rewriteSkillMd over every scalar style of a long description", () => {
  // A 1,080-character description written in each YAML scalar style, with and without a key after it, with LF and
  // CRLF line ends: the served frontmatter parses, holds the cut description, and keeps every other byte.
  const long = WORDS.trim();
  const styles: Record<string, (eol: string) => string> = {
    plain: () => long,
    single: () => `'${long}'`,
    double: () => `"${long}"`,
    "|": (eol) => `|${eol}  ${long}${eol}`,
    "|-": (eol) => `|-${eol}  ${long}${eol}`,
    "|+": (eol) => `|+${eol}  ${long}${eol}${eol}`,
    ">": (eol) => `>${eol}  ${long}${eol}`,
    ">-": (eol) => `>-${eol}  ${long}${eol}`,
    ">+": (eol) => `>+${eol}  ${long}${eol}${eol}`,
  };
  const cases = Object.entries(styles).flatMap(([style, value]) =>
    ["\n", "\r\n"].flatMap((eol) =>
      [true, false].map((following) => ({ style, eol: eol === "\n" ? "LF" : "CRLF", following, written: value(eol), newline: eol })),
    ),
  );
  test.each(cases)("$style, $eol, a key after it: $following", ({ written, newline, following }) => {
    const block = written.endsWith(newline);
    const head = `---${newline}name: notes${newline}description: `;
    const tail = `${block ? "" : newline}${following ? `license: MIT${newline}metadata:${newline}  team: ops${newline}` : ""}---${newline}`;
    const md = `${head}${written}${tail}# Notes${newline}`;
    const rewritten = rewriteSkillMd(bytes(md), bytes(md).byteLength - bytes(`# Notes${newline}`).byteLength, { description: CUT });
    expect(rewritten).toBeDefined();
    const out = text(rewritten?.bytes ?? new Uint8Array());
    // Every byte before the value and after its line break is the file's.
    expect(out.startsWith(head)).toBe(true);
    const trailing = /(?:\r?\n)*$/.exec(written)?.[0] ?? "";
    expect(out.endsWith(`${trailing}${tail}# Notes${newline}`)).toBe(true);
    const yamlText = out.slice(4 + (newline.length - 1), out.indexOf(`---${newline}`, 4));
    const parsed = parseYaml(yamlText) as Record<string, unknown>;
    expect(parsed).toEqual({ name: "notes", description: CUT, ...(following ? { license: "MIT", metadata: { team: "ops" } } : {}) });
    expect(rewritten?.bodyOffset).toBe(bytes(out).byteLength - bytes(`# Notes${newline}`).byteLength);
  });
});
