// Zero-config discovery: each common layout of a skill repository serves every valid skill with nothing else
// given, and a marketplace whose entries cannot be served leaves the local skills served and names each entry.
import path from "node:path";
import { afterAll, expect, test } from "vitest";
import { configFromDirectories, loadConfig } from "../../src/config/index.js";
import { ShelfService } from "../../src/live/shelf-service.js";
import { buildHealth } from "../../src/health/index.js";
import { compileScope, FULL_SCOPE, NOT_FOUND_ADVICE, resolve } from "../../src/resolve/index.js";
import { makeTemp, removeTemps, skillMd, writeFiles } from "../sources/git-fixture.js";

const services: ShelfService[] = [];
afterAll(async () => {
  for (const service of services.splice(0)) await service.close();
  removeTemps();
});

async function serve(files: Record<string, string>): Promise<ShelfService> {
  const base = makeTemp();
  writeFiles(path.join(base, "lib"), files);
  const config = configFromDirectories(["lib"], base);
  if (!config.ok) throw new Error("zero-config refused");
  const service = await ShelfService.start(config.config, () => new Date());
  services.push(service);
  return service;
}

const addresses = (service: ShelfService): string[] => [...(service.current.libraries.get("lib")?.skills.keys() ?? [])].sort();

test.each([
  { layout: "a folder that is itself one skill", files: { "SKILL.md": skillMd("solo"), "notes.md": "n" }, expected: ["solo"] },
  { layout: "flat", files: { "a/SKILL.md": skillMd("a"), "b/SKILL.md": skillMd("b"), "README.md": "r" }, expected: ["a", "b"] },
  {
    layout: "grouped at any depth",
    files: { "g1/a/SKILL.md": skillMd("a"), "g2/deep/b/SKILL.md": skillMd("b"), "c/SKILL.md": skillMd("c") },
    expected: ["c", "g1/a", "g2/deep/b"],
  },
  {
    layout: "the conventions",
    files: {
      "skills/x/y/SKILL.md": skillMd("y"),
      ".github/skills/gh/SKILL.md": skillMd("gh"),
      ".claude/skills/cl/SKILL.md": skillMd("cl"),
      ".agents/skills/ag/SKILL.md": skillMd("ag"),
    },
    expected: ["ag", "cl", "gh", "x/y"],
  },
  {
    layout: "hidden folders directly inside a skills folder, never VCS folders or node_modules",
    files: {
      "skills/.curated/c1/SKILL.md": skillMd("c1"),
      "skills/.system/s1/SKILL.md": skillMd("s1"),
      "skills/plain/SKILL.md": skillMd("plain"),
      "skills/.git/v/SKILL.md": skillMd("v"),
      ".git/w/SKILL.md": skillMd("w"),
      ".hg/h/SKILL.md": skillMd("h"),
      "node_modules/p/SKILL.md": skillMd("p"),
      "skills/.curated/c1/.private/SKILL.md": skillMd("private"),
    },
    expected: [".curated/c1", ".system/s1", "plain"],
    // Never silent: the one SKILL.md in a hidden folder the discovery does not enter is named, with the fix.
    skipped: [
      {
        path: "skills/.curated/c1/.private",
        reason:
          'The skill is in a hidden folder, which is never served unless a skills glob spells it out: add "skills/.curated/c1/.private" to the plugin\'s skills (in a config file) to serve it.',
      },
    ],
  },
])("$layout", async ({ files, expected, skipped }: { files: Record<string, string>; expected: string[]; skipped?: unknown[] }) => {
  const service = await serve(files);
  expect(addresses(service)).toEqual(expected);
  const health = buildHealth(service.current);
  expect(health.plugins.lib).toMatchObject({ status: "ok", skills: expected.length });
  expect(health.plugins.lib?.skipped).toEqual(skipped);
});

test("a marketplace none of whose entries can be served: the local skills are served, each entry named once", async () => {
  const service = await serve({
    ".github/plugin/marketplace.json": JSON.stringify({
      plugins: [
        { name: "remote", source: { source: "github", repo: "o/r" } },
        { name: "pkg", source: { source: "npm", package: "p" } },
      ],
    }),
    "skills/local-one/SKILL.md": skillMd("local-one"),
    "skills/local-two/SKILL.md": skillMd("local-two"),
  });
  expect(addresses(service)).toEqual(["local-one", "local-two"]);
  const health = buildHealth(service.current);
  expect(health.libraries.lib).toEqual({
    description: "",
    plugins: ["lib"],
    skills: 2,
    prompts: 0,
    files: 0,
    skipped: [
      { plugin: "remote@lib", reason: "Its repository is on https://github.com, which no declared git source serves." },
      { plugin: "pkg@lib", reason: "Its source is an npm package: skillshelf never installs packages." },
    ],
  });
  expect(Object.keys(health.plugins)).toEqual(["lib"]);
});

test("the citation audit: a directory holding served files is no dangling citation, code never cites", async () => {
  const service = await serve({
    "kit/SKILL.md": skillMd(
      "kit",
      "Use it.",
      "Copy [templates/](templates/) or [the templates](templates). Write `[name](relative-url)`.\n\n" +
        "Missing: [gone/](gone/) and [ref][r].\n\n[r]: refs/none.md\n\n```\n[x](in-code.md)\n```\n",
    ),
    "kit/templates/a.md": "# A\n",
  });
  expect(buildHealth(service.current).plugins.lib?.dangling).toEqual([
    { skill: "skill://lib/kit/SKILL.md", cites: "gone/" },
    { skill: "skill://lib/kit/SKILL.md", cites: "refs/none.md" },
  ]);
});

test("reading a skipped skill's address names the reason in scope; out of scope it is like any missing address", async () => {
  const base = makeTemp();
  writeFiles(path.join(base, "one"), { "good/SKILL.md": skillMd("good"), "broken/SKILL.md": "# no frontmatter\n" });
  writeFiles(path.join(base, "two"), { "other/SKILL.md": skillMd("other") });
  const config = configFromDirectories(["one", "two"], base);
  if (!config.ok) throw new Error("zero-config refused");
  const service = await ShelfService.start(config.config, () => new Date());
  services.push(service);
  const shelf = service.current;
  const reason = "SKILL.md has no frontmatter: it must start with a '---' line and close it with another '---' line.";
  for (const uri of ["skill://one/broken/SKILL.md", "skill://one/broken", "skill://one/broken/_manifest"]) {
    expect(resolve(shelf, FULL_SCOPE, uri)).toEqual({
      kind: "notFound",
      uri,
      message: `Not found: ${uri}. A skill at this address was skipped: ${reason}`,
    });
  }
  const scoped = compileScope(shelf, null, { library: "two" });
  if (!scoped.ok) throw new Error("scope refused");
  const uri = "skill://one/broken/SKILL.md";
  expect(resolve(shelf, scoped.scope, uri)).toEqual({ kind: "notFound", uri, message: `Not found: ${uri}. ${NOT_FOUND_ADVICE}` });
  expect(resolve(shelf, scoped.scope, "skill://one/never/SKILL.md")).toEqual({
    kind: "notFound",
    uri: "skill://one/never/SKILL.md",
    message: `Not found: skill://one/never/SKILL.md. ${NOT_FOUND_ADVICE}`,
  });
});

test("a glob or path in the config that matches nothing is a warning row naming the plugin and the key", async () => {
  const base = makeTemp();
  writeFiles(base, {
    "kit/skills/docx/SKILL.md": skillMd("docx"),
    "kit/shared/a.md": "# A\n",
    "kit/commands/ship.md": "Ship it.\n",
    "skillshelf.yaml":
      "plugins:\n  - name: kit\n    source: ./kit\n    skills: [skills/docx, skills/xlsx, '!skills/old']\n    files: ['shared/**', 'missing/*.md']\n" +
      "    prompts: [commands, prompts/*.prompt.md]\n" +
      "libraries:\n  - name: kit\n    plugins: [kit]\n",
  });
  const service = await ShelfService.start(await loadConfig(path.join(base, "skillshelf.yaml")), () => new Date());
  services.push(service);
  const health = buildHealth(service.current);
  expect(health.plugins.kit).toMatchObject({ skills: 1, files: 1, prompts: 1 });
  expect(health.plugins.kit?.warnings).toEqual([
    {
      path: "missing/*.md",
      reason: 'The files glob "missing/*.md" of plugin "kit" matches nothing under the plugin root: check the path, or remove it.',
    },
    {
      path: "prompts/*.prompt.md",
      reason: 'The prompts glob "prompts/*.prompt.md" of plugin "kit" matches nothing under the plugin root: check the path, or remove it.',
    },
    {
      path: "skills/xlsx",
      reason: 'The skills glob "skills/xlsx" of plugin "kit" matches nothing under the plugin root: check the path, or remove it.',
    },
  ]);
});
