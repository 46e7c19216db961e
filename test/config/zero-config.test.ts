import path from "node:path";
import { expect, test } from "vitest";
import { tempDir } from "../support/temp.js";
import type { Config } from "../../src/config/types.js";
import { configFromDirectories, slugName } from "../../src/config/zero-config.js";

const CWD = tempDir("skillshelf-zero-");

test.each([
  { dir: "My Skills_v2", name: "my-skills-v2" },
  { dir: "skills", name: "skills" },
  { dir: "--Tools--", name: "tools" },
  { dir: "Café Notes", name: "cafe-notes" },
  { dir: "a..b", name: "a-b" },
  { dir: "x".repeat(70), name: "x".repeat(64) },
  { dir: "a".repeat(63) + "-b", name: "a".repeat(63) },
  { dir: "日本", name: "" },
])("slug $dir -> $name", ({ dir, name }) => {
  expect(slugName(dir)).toBe(name);
});

test("each directory is one library with one convention plugin of the same name", () => {
  const result = configFromDirectories(["My Skills_v2", "./team/kit/", "../Shared"], CWD);
  const plugin = (name: string, abs: string) => ({
    name,
    address: { kind: "local", abs, written: name },
    description: "",
    tags: [],
    keywords: [],
    skills: ["**/SKILL.md", "**/skills/.*/**/SKILL.md"],
    dialect: "auto",
    watch: true,
    naming: "lenient",
  });
  const expected: Config = {
    file: null,
    sources: [],
    plugins: [
      plugin("my-skills-v2", path.join(CWD, "My Skills_v2")),
      plugin("kit", path.join(CWD, "team", "kit")),
      plugin("shared", path.resolve(CWD, "..", "Shared")),
    ] as Config["plugins"],
    libraries: [
      { name: "my-skills-v2", description: "", plugins: ["my-skills-v2"] },
      { name: "kit", description: "", plugins: ["kit"] },
      { name: "shared", description: "", plugins: ["shared"] },
    ],
    clients: [],
    anonymous: true,
    ttlMs: 60_000,
    limits: { fileBytes: 8 * 1024 * 1024 },
  };
  expect(result).toStrictEqual({ ok: true, config: expected });
});

test.each([
  {
    dirs: ["a/My Skills", "b/my-skills"],
    errors: [
      { file: "b/my-skills", path: "/", rule: "names library 'my-skills', as 'a/My Skills' does already; rename one or use a config file" },
    ],
  },
  {
    dirs: ["kit", "kit"],
    errors: [{ file: "kit", path: "/", rule: "names library 'kit', as 'kit' does already; rename one or use a config file" }],
  },
  {
    dirs: ["日本"],
    errors: [{ file: "日本", path: "/", rule: "the directory's name has no letter or digit to name a library after; use a config file" }],
  },
  { dirs: [], errors: [{ file: "(command line)", path: "/", rule: "name at least one directory to serve, or a config file" }] },
])("refused: $dirs", ({ dirs, errors }) => {
  expect(configFromDirectories(dirs, CWD)).toStrictEqual({ ok: false, errors });
});

test("errors never carry the resolved absolute path", () => {
  const result = configFromDirectories(["x/Kit", "y/kit"], CWD);
  expect(JSON.stringify(result)).not.toContain(CWD);
});
