import path from "node:path";

import { afterAll, describe, expect, test } from "vitest";

import { REASONS } from "../../src/harvest/index.js";
import { harvest, makeTree, removeTrees, skillMd } from "./fixture.js";
import { sha256 } from "../support/digest.js";

afterAll(removeTrees);

describe("library files", () => {
  test("files globs publish files outside every skill; each refusal has its row", async () => {
    const outside = makeTree({ "x.md": "outside" });
    const root = makeTree({
      "shared/api.md": "api",
      "shared/_index.md": "reserved",
      "shared/sub/_files.md": "reserved",
      "shared/.secret.md": "hidden: never a library file",
      "shared/big.bin": { sparse: 300 },
      "shared/out.md": { symlink: path.join(outside, "x.md") },
      "_index.md": "reserved",
      "notes/a.md": "a literal directory publishes what is beneath it",
      "skills/docs/SKILL.md": skillMd("docs"),
      "skills/docs/ref.md": "inside the skill directory",
      "docs/readme.md": "inside the skill's address (docs)",
      "documents/x.md": "not inside: docs is a segment, not a prefix",
      "other.md": "not matched",
    });
    const plugin = await harvest(root, {
      files: ["shared/**", "_index.md", "docs/**", "documents/**", "skills/**", "notes"],
      limits: { fileBytes: 200 },
    });
    expect(plugin.libraryFiles.map((f) => f.path)).toEqual(["documents/x.md", "notes/a.md", "shared/api.md"]);
    const inside = 'The library file\'s address lies inside the skill "docs" (directory "skills/docs").';
    expect(plugin.skipped).toEqual([
      { path: "_index.md", reason: "A library file named _index.md is shadowed by the library's generated _index.md and its pages." },
      { path: "docs/readme.md", reason: inside },
      { path: "shared/_index.md", reason: REASONS.libraryReservedName("_index.md") },
      { path: "shared/big.bin", reason: "The file is 300 bytes, over limits.fileBytes (200)." },
      { path: "shared/out.md", reason: "A symlink that leaves the root is never followed." },
      {
        path: "shared/sub/_files.md",
        reason: "A library file named _files.md is shadowed by the library's generated _files.md and its pages.",
      },
      { path: "skills/docs/SKILL.md", reason: inside },
      { path: "skills/docs/ref.md", reason: inside },
    ]);
    const api = plugin.libraryFiles[2];
    expect(api).toEqual({
      path: "shared/api.md",
      abs: path.join(root, "shared", "api.md"),
      size: 3,
      mtimeMs: expect.any(Number) as unknown,
      digest: sha256("api"),
      text: true,
    });
  });

  test("no files globs, no library files; a skipped whole-plugin skill still holds every file", async () => {
    const root = makeTree({ "SKILL.md": "no frontmatter", "a.md": "a" });
    expect((await harvest(root)).libraryFiles).toEqual([]);
    const plugin = await harvest(root, { skills: ["SKILL.md"], files: ["*.md"] });
    expect(plugin.libraryFiles).toEqual([]);
    expect(plugin.skipped).toEqual([
      { path: "", reason: REASONS.noFrontmatter },
      { path: "SKILL.md", reason: "The library file lies inside the whole-plugin skill." },
      { path: "a.md", reason: "The library file lies inside the whole-plugin skill." },
    ]);
  });
});

describe("prompt files", () => {
  const tree = {
    "prompts/a.md": "---\ndescription: a\n---\nA",
    "prompts/sub/b.md": "B",
    ".github/prompts/c.prompt.md": "C",
    ".github/prompts/d.md": "not a .prompt.md",
    "commands/e.md": "E $ARGUMENTS",
    "commands/sub/f.md": "F",
    ".claude-plugin/commands/g.md": "never",
    "extra/h.md": "\uFEFFH",
    "prompts/bad.md": new Uint8Array([0x41, 0xff]),
  };

  test("conventions: prompts/**, .github/prompts/*.prompt.md, commands/*.md (Claude commands)", async () => {
    const plugin = await harvest(makeTree(tree));
    expect(plugin.prompts).toEqual([
      { path: ".github/prompts/c.prompt.md", text: "C", command: false },
      { path: "commands/e.md", text: "E $ARGUMENTS", command: true },
      { path: "prompts/a.md", text: "---\ndescription: a\n---\nA", command: false },
      { path: "prompts/sub/b.md", text: "B", command: false },
    ]);
    expect(plugin.skipped).toEqual([{ path: "prompts/bad.md", reason: "The prompt file is not valid UTF-8." }]);
  });

  test("declared commands (a literal directory names the .md files beneath it) are all commands", async () => {
    const plugin = await harvest(makeTree(tree), { commands: ["./commands/"] });
    expect(plugin.prompts.map((p) => [p.path, p.command])).toEqual([
      ["commands/e.md", true],
      ["commands/sub/f.md", true],
    ]);
  });

  test("prompts globs replace the convention and win over commands; a BOM is dropped from the text", async () => {
    const root = makeTree(tree);
    const plugin = await harvest(root, { prompts: ["extra/*.md", ".claude-plugin/**"], commands: ["commands"] });
    expect(plugin.prompts).toEqual([{ path: "extra/h.md", text: "H", command: false }]);
    expect((await harvest(root, { prompts: [] })).prompts).toEqual([]);
  });
});

describe("library and prompt files, adversarial edges", () => {
  test("a file at a skill's own address, a hidden escaping link, and a file exactly at the limit", async () => {
    const outside = makeTree({ "x.md": "outside" });
    const root = makeTree({
      "skills/docs/SKILL.md": skillMd("docs"),
      docs: "a file named like the skill's address",
      "lib/.h.md": { symlink: path.join(outside, "x.md") },
      "lib/at.md": "12345",
      "lib/over.md": "123456",
    });
    const plugin = await harvest(root, { files: ["docs", "lib/*", "lib/.h.md"], limits: { fileBytes: 5 } });
    expect(plugin.libraryFiles.map((f) => f.path)).toEqual(["lib/at.md"]);
    expect(plugin.skipped).toEqual([
      { path: "docs", reason: REASONS.libraryInsideSkill("docs", "skills/docs") },
      { path: "lib/over.md", reason: REASONS.overFileBytes(6, 5) },
      // A skill skipped (here for its size) still claims its address.
      { path: "skills/docs", reason: REASONS.skillMdOverLimit(skillMd("docs").length, 5) },
    ]);
  });

  test("a skill served by its name (lenient) claims that address for library files, not its folder's", async () => {
    const root = makeTree({ "skills/Odd/SKILL.md": skillMd("named"), "named/x.md": "x", "odd/y.md": "y" });
    const plugin = await harvest(root, { files: ["named/*", "odd/*"], naming: "lenient" });
    expect(plugin.libraryFiles.map((f) => f.path)).toEqual(["odd/y.md"]);
    expect(plugin.skipped).toEqual([{ path: "named/x.md", reason: REASONS.libraryInsideSkill("named", "skills/Odd") }]);
  });

  test("prompts: never under a .claude-plugin folder at any depth; commands/ only at the root is a command; the size limit holds", async () => {
    const root = makeTree({
      "a/.claude-plugin/x.md": "never",
      "p/commands/y.md": "Y",
      "commandsx/z.md": "Z",
      "p/at.md": "1234",
      "p/over.md": "12345",
    });
    const plugin = await harvest(root, { prompts: ["a/.claude-plugin/*.md", "p/**/*.md", "commandsx/*.md"], limits: { fileBytes: 4 } });
    expect(plugin.prompts).toEqual([
      { path: "commandsx/z.md", text: "Z", command: false },
      { path: "p/at.md", text: "1234", command: false },
      { path: "p/commands/y.md", text: "Y", command: false },
    ]);
    expect(plugin.skipped).toEqual([{ path: "p/over.md", reason: REASONS.overFileBytes(5, 4) }]);
  });

  test("a prompts glob that is a literal directory names the .md files beneath it", async () => {
    const root = makeTree({ "mine/a.md": "A", "mine/deep/b.md": "B", "mine/c.txt": "C" });
    const plugin = await harvest(root, { prompts: ["mine"] });
    expect(plugin.prompts.map((p) => p.path)).toEqual(["mine/a.md", "mine/deep/b.md"]);
  });
});
