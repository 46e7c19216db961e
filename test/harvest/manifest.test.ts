// Plugin manifests: which file is read, what it fills in, and how a broken one fails its plugin.
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
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
