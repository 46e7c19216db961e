// Plugin manifests: which file is read, what it fills in, and how a broken one fails its plugin.
import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, describe, expect, test, vi } from "vitest";
import { applyManifestMeta, parsePluginManifest, readPluginManifest } from "../../src/harvest/manifest.js";
import { makeTree, removeTrees } from "./fixture.js";
import type { PluginMeta } from "../../src/harvest/index.js";

afterAll(removeTrees);

const FILE = ".claude-plugin/plugin.json";

describe("parsePluginManifest", () => {
  test("the fields skillshelf uses; the rest (agents, hooks, author…) are ignored", () => {
    expect(
      parsePluginManifest(
        {
          name: "p",
          description: "Described.",
          version: "1.0.0",
          keywords: ["a", "b,c", "a", 1],
          skills: "./skills/",
          commands: ["./commands/x.md"],
          agents: "./agents",
          author: {},
        },
        FILE,
      ),
    ).toEqual({
      ok: true,
      manifest: {
        file: FILE,
        description: "Described.",
        version: "1.0.0",
        keywords: ["a"],
        skills: ["./skills/"],
        commands: ["./commands/x.md"],
      },
    });
  });

  test("blank description and version count as absent", () => {
    expect(parsePluginManifest({ description: "  ", version: "" }, FILE)).toEqual({ ok: true, manifest: { file: FILE, keywords: [] } });
  });

  test.each([
    { value: [], error: `${FILE} is not a JSON object` },
    { value: { skills: 3 }, error: `${FILE}: skills must be a path or a list of paths` },
    { value: { commands: ["ok", ""] }, error: `${FILE}: commands must be a path or a list of paths` },
    { value: { skills: ["../x"] }, error: `${FILE}: skills path "../x": a glob must not contain a '..' segment` },
    { value: { skills: ["/etc"] }, error: `${FILE}: skills path "/etc": a glob is relative to the plugin root, never absolute` },
  ])("refused: $error", ({ value, error }) => {
    expect(parsePluginManifest(value, FILE)).toEqual({ ok: false, error });
  });
});

describe("readPluginManifest", () => {
  test(".claude-plugin/plugin.json comes before plugin.json", () => {
    const root = makeTree({ [FILE]: '{"description": "first"}', "plugin.json": '{"description": "second"}' });
    expect(readPluginManifest(root)).toEqual({ ok: true, manifest: { file: FILE, description: "first", keywords: [] } });
    fs.rmSync(path.join(root, FILE));
    expect(readPluginManifest(root)).toEqual({ ok: true, manifest: { file: "plugin.json", description: "second", keywords: [] } });
  });

  test("no manifest is null", () => {
    expect(readPluginManifest(makeTree({}))).toEqual({ ok: true, manifest: null });
  });

  test("a symlink out of the root is ignored; one inside is followed", () => {
    const outside = makeTree({ "plugin.json": '{"description": "from outside"}' });
    const root = makeTree({
      [FILE]: { symlink: path.join(outside, "plugin.json") },
      "meta/real.json": '{"description": "inside"}',
      "plugin.json": { symlink: "meta/real.json" },
    });
    expect(readPluginManifest(root)).toEqual({ ok: true, manifest: { file: "plugin.json", description: "inside", keywords: [] } });
  });

  test("unreadable JSON fails with the file named relative to the root, a BOM is fine", () => {
    const root = makeTree({ [FILE]: '{"description": oops}' });
    expect(readPluginManifest(root)).toEqual({ ok: false, error: `${FILE} is not valid JSON` });
    fs.writeFileSync(path.join(root, FILE), '\uFEFF{"version": "2"}');
    expect(readPluginManifest(root)).toEqual({ ok: true, manifest: { file: FILE, version: "2", keywords: [] } });
  });
});

describe("readPluginManifest: other hosts' manifests", () => {
  const json = (value: unknown): string => JSON.stringify(value);
  test.each([
    {
      title: "a Copilot manifest alone is the manifest; its skills paths that exist are taken, the absent ones recorded",
      files: {
        ".github/plugin/plugin.json": json({ description: "Copilot", skills: ["./skills/a/", "./skills/gone/"] }),
        "skills/a/SKILL.md": "x",
      },
      manifest: {
        file: ".github/plugin/plugin.json",
        description: "Copilot",
        keywords: [],
        skills: ["./skills/a/"],
        absentSkills: { file: ".github/plugin/plugin.json", paths: ["./skills/gone/"] },
      },
    },
    {
      title: "none of its paths exist: no skills (the convention), every path recorded",
      files: { ".github/plugin/plugin.json": json({ skills: ["./skills/x/", "./skills/y", "./skills/"] }) },
      manifest: {
        file: ".github/plugin/plugin.json",
        keywords: [],
        absentSkills: { file: ".github/plugin/plugin.json", paths: ["./skills/x/", "./skills/y"] },
      },
    },
    {
      title: "a Claude manifest without skills takes a Codex manifest's existing skills paths",
      files: {
        ".claude-plugin/plugin.json": json({ description: "Claude" }),
        ".codex-plugin/plugin.json": json({ description: "Codex", skills: "./tools/" }),
        "tools/t/SKILL.md": "x",
      },
      manifest: { file: ".claude-plugin/plugin.json", description: "Claude", keywords: [], skills: ["./tools/"] },
    },
    {
      title: "a Claude manifest's own skills win; other manifests are not read",
      files: {
        ".claude-plugin/plugin.json": json({ skills: ["./mine/"] }),
        ".codex-plugin/plugin.json": json({ skills: "./tools/" }),
        "tools/t/SKILL.md": "x",
      },
      manifest: { file: ".claude-plugin/plugin.json", keywords: [], skills: ["./mine/"] },
    },
    {
      title: "an absent ./skills/ (what the convention finds anyway) is no row",
      files: { ".codex-plugin/plugin.json": json({ skills: "./skills/" }) },
      manifest: { file: ".codex-plugin/plugin.json", keywords: [] },
    },
    {
      title: "a glob in a vendor manifest is kept for the harvest to match",
      files: { ".codex-plugin/plugin.json": json({ skills: ["skills/*"] }) },
      manifest: { file: ".codex-plugin/plugin.json", keywords: [], skills: ["skills/*"] },
    },
    {
      title: "a broken vendor manifest beside a Claude one supplies nothing and fails nothing",
      files: { "plugin.json": json({ description: "root" }), ".codex-plugin/plugin.json": "{" },
      manifest: { file: "plugin.json", description: "root", keywords: [] },
    },
  ])("$title", ({ files, manifest }) => {
    expect(readPluginManifest(makeTree(files))).toEqual({ ok: true, manifest });
  });
});

describe("applyManifestMeta", () => {
  const manifest = { file: FILE, description: "From the manifest.", version: "9.9.9", keywords: ["k2", "k1"] };
  const meta = (over: Partial<PluginMeta> = {}): PluginMeta => ({ description: "", tags: ["t"], keywords: ["k1"], ...over });

  test("fills an empty description and a missing version, adds keywords", () => {
    expect(applyManifestMeta(meta(), manifest)).toEqual({
      description: "From the manifest.",
      tags: ["t"],
      keywords: ["k1", "k2"],
      version: "9.9.9",
    });
  });

  test("never overrides what the config says", () => {
    expect(applyManifestMeta(meta({ description: "Mine.", version: "1" }), manifest)).toEqual({
      description: "Mine.",
      tags: ["t"],
      keywords: ["k1", "k2"],
      version: "1",
    });
  });
});

describe("parsePluginManifest, adversarial shapes", () => {
  test.each([
    { title: "null", value: null, out: { ok: false, error: `${FILE} is not a JSON object` } },
    { title: "a string", value: "./skills", out: { ok: false, error: `${FILE} is not a JSON object` } },
    { title: "an empty object", value: {}, out: { ok: true, manifest: { file: FILE, keywords: [] } } },
    {
      title: "fields of the wrong type count as absent",
      value: { description: 3, version: 1, keywords: "a,b" },
      out: { ok: true, manifest: { file: FILE, keywords: [] } },
    },
    {
      title: "paths are trimmed; a single path is a list of one",
      value: { skills: "  ./skills/ ", commands: [" a.md", "b.md "] },
      out: { ok: true, manifest: { file: FILE, keywords: [], skills: ["./skills/"], commands: ["a.md", "b.md"] } },
    },
    {
      title: "a path is checked trimmed",
      value: { skills: [" /etc"] },
      out: { ok: false, error: `${FILE}: skills path " /etc": a glob is relative to the plugin root, never absolute` },
    },
    { title: "a blank path", value: { skills: ["  "] }, out: { ok: false, error: `${FILE}: skills must be a path or a list of paths` } },
    { title: "an empty path", value: { skills: "" }, out: { ok: false, error: `${FILE}: skills must be a path or a list of paths` } },
    {
      title: "an object",
      value: { commands: { a: "x" } },
      out: { ok: false, error: `${FILE}: commands must be a path or a list of paths` },
    },
    {
      title: "a bad commands path",
      value: { commands: ["../x"] },
      out: { ok: false, error: `${FILE}: commands path "../x": a glob must not contain a '..' segment` },
    },
    {
      title: "keywords: strings only, trimmed, no blanks, no commas, no repeats, first order kept",
      value: { keywords: [" b ", "a", "b", "", "  ", "x,y", null, 7, "a"] },
      out: { ok: true, manifest: { file: FILE, keywords: ["b", "a"] } },
    },
    {
      title: "a description and a version with spaces around are kept as written",
      value: { description: " D ", version: " 1 " },
      out: { ok: true, manifest: { file: FILE, description: " D ", version: " 1 ", keywords: [] } },
    },
  ])("$title", ({ value, out }) => {
    expect(parsePluginManifest(value, FILE)).toEqual(out);
  });
});

describe("readPluginManifest, adversarial trees", () => {
  test("a missing root has no manifest", () => {
    expect(readPluginManifest(path.join(makeTree({}), "absent"))).toEqual({ ok: true, manifest: null });
  });

  test("a directory named like a manifest is passed over for the next candidate", () => {
    const root = makeTree({ [`${FILE}/x`]: "{}", "plugin.json": '{"version": "3"}' });
    expect(readPluginManifest(root)).toEqual({ ok: true, manifest: { file: "plugin.json", version: "3", keywords: [] } });
  });

  test("a dangling link is passed over like a missing file", () => {
    const root = makeTree({ [FILE]: { symlink: "nowhere.json" }, "plugin.json": '{"version": "4"}' });
    expect(readPluginManifest(root)).toEqual({ ok: true, manifest: { file: "plugin.json", version: "4", keywords: [] } });
  });

  test("4 MiB is the limit: one byte more is refused unread, exactly 4 MiB is parsed", () => {
    const over = makeTree({ [FILE]: { sparse: 4 * 1024 * 1024 + 1 } });
    expect(readPluginManifest(over)).toEqual({ ok: false, error: `${FILE} is 4194305 bytes, over the 4194304-byte limit for a manifest` });
    const at = makeTree({ "plugin.json": `{"version": "5"}${" ".repeat(4 * 1024 * 1024 - 16)}` });
    expect(readPluginManifest(at)).toEqual({ ok: true, manifest: { file: "plugin.json", version: "5", keywords: [] } });
  });

  test("a manifest that is not an object fails its plugin", () => {
    expect(readPluginManifest(makeTree({ "plugin.json": "[1]" }))).toEqual({ ok: false, error: "plugin.json is not a JSON object" });
  });

  test("a root that is itself a link is read through its real path", () => {
    const real = makeTree({ "plugin.json": '{"version": "6"}' });
    const link = path.join(makeTree({}), "link");
    fs.symlinkSync(real, link);
    expect(readPluginManifest(link)).toEqual({ ok: true, manifest: { file: "plugin.json", version: "6", keywords: [] } });
  });
});

describe("applyManifestMeta, edge rows", () => {
  const meta: PluginMeta = { description: "", tags: [], keywords: ["k1"] };

  test("no manifest leaves the metadata itself", () => {
    expect(applyManifestMeta(meta, null)).toBe(meta);
  });

  test("a manifest without description or version fills nothing; repeated keywords appear once", () => {
    expect(applyManifestMeta(meta, { file: FILE, keywords: ["k1", "k3"] })).toEqual({ description: "", tags: [], keywords: ["k1", "k3"] });
  });
});

describe("manifest fields that are absent stay absent", () => {
  test("no skills, commands or version key appears unless given; a blank version is absent", () => {
    const read = parsePluginManifest({ version: "   " }, FILE);
    expect(read.ok && Object.keys(read.manifest ?? {})).toEqual(["file", "keywords"]);
    const meta: PluginMeta = { description: "d", tags: [], keywords: [] };
    expect(Object.keys(applyManifestMeta(meta, { file: FILE, keywords: [] }))).toEqual(["description", "tags", "keywords"]);
  });

  test("a path list holding a non-string is refused", () => {
    expect(parsePluginManifest({ skills: ["ok", 3] }, FILE)).toEqual({
      ok: false,
      error: `${FILE}: skills must be a path or a list of paths`,
    });
  });

  test("a link to a sibling folder whose name starts with the root's is outside the root", () => {
    const root = makeTree({ "plugin.json": '{"version": "inside"}' });
    const sibling = `${root}-sibling`;
    fs.mkdirSync(sibling);
    try {
      fs.writeFileSync(path.join(sibling, "plugin.json"), '{"version": "sibling"}');
      fs.mkdirSync(path.join(root, ".claude-plugin"));
      fs.symlinkSync(path.join(sibling, "plugin.json"), path.join(root, FILE));
      expect(readPluginManifest(root)).toEqual({ ok: true, manifest: { file: "plugin.json", version: "inside", keywords: [] } });
    } finally {
      fs.rmSync(sibling, { recursive: true, force: true });
    }
  });
});

describe("a manifest that cannot be read", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  test("a stat that fails passes the candidate over; a read that fails names the code, or 'unknown error'", () => {
    const root = makeTree({ [FILE]: "{}", "plugin.json": '{"version": "2"}' });
    const stat = fs.statSync.bind(fs) as (...args: unknown[]) => unknown;
    vi.spyOn(fs, "statSync").mockImplementation(((...args: unknown[]) => {
      if (String(args[0]).endsWith(path.join(".claude-plugin", "plugin.json"))) throw Object.assign(new Error("x"), { code: "EIO" });
      return stat(...args);
    }) as never);
    expect(readPluginManifest(root)).toEqual({ ok: true, manifest: { file: "plugin.json", version: "2", keywords: [] } });
    vi.restoreAllMocks();
    const read = fs.readFileSync.bind(fs) as (...args: unknown[]) => unknown;
    let error: Error = Object.assign(new Error("/secret"), { code: "EACCES" });
    vi.spyOn(fs, "readFileSync").mockImplementation(((...args: unknown[]) => {
      if (String(args[0]).endsWith("plugin.json")) throw error;
      return read(...args);
    }) as never);
    expect(readPluginManifest(root)).toEqual({ ok: false, error: `${FILE} could not be read (EACCES)` });
    error = new Error("/secret");
    expect(readPluginManifest(root)).toEqual({ ok: false, error: `${FILE} could not be read (unknown error)` });
  });
});
