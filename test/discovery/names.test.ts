// The flat namespace of a discovery index: which names installers accept, and which skill keeps a shared name.
import { describe, expect, test } from "vitest";
import { fitsUstar, flatNames, isInstallableName } from "../../src/discovery/index.js";
import type { Skill } from "../../src/shelf/index.js";

const skill = (library: string, address: string[], name: string, plugin = library, dir = address.join("/")): Skill => ({
  uri: `skill://${library}/${address.join("/")}`,
  library,
  plugin,
  address,
  name,
  description: "d",
  frontmatter: { name, description: "d" },
  dir,
  files: new Map(),
  paths: ["SKILL.md"],
});

describe("installable names", () => {
  test.each([
    ["pdf", true],
    ["a", true],
    ["pdf-forms-2", true],
    ["a".repeat(64), true],
    ["a".repeat(65), false],
    ["", false],
    ["-pdf", false],
    ["pdf-", false],
    ["pdf--forms", false],
    ["PDF", false],
    ["pdf_forms", false],
    ["données", false],
    ["pdf forms", false],
  ])("%j → %s", (name, accepted) => {
    expect(isInstallableName(name)).toBe(accepted);
  });
});

describe("one name, one skill", () => {
  test("the first SKILL.md URI in code-unit order keeps a shared name; the same skill in two libraries is no shadowing", () => {
    const names = flatNames([
      skill("ops", ["solo"], "solo"),
      skill("kit", ["z", "solo"], "solo"),
      skill("kit", ["a", "solo"], "solo"),
      skill("eng", ["review"], "review", "kit", "skills/review"),
      skill("oncall", ["review"], "review", "kit", "skills/review"),
      skill("kit", ["Bad"], "Bad_Name"),
    ]);
    expect(names.listed.map((listed) => listed.uri)).toEqual(["skill://eng/review", "skill://kit/a/solo"]);
    expect(names.shadowed).toEqual([
      { name: "solo", kept: "skill://kit/a/solo/SKILL.md", hidden: ["skill://kit/z/solo/SKILL.md", "skill://ops/solo/SKILL.md"] },
    ]);
    expect(names.unnamable.map((left) => left.name)).toEqual(["Bad_Name"]);
  });
});

describe("portable tar paths", () => {
  test.each([
    ["SKILL.md", true],
    ["a".repeat(100), true],
    ["a".repeat(101), false],
    [`${"d".repeat(155)}/${"f".repeat(100)}`, true],
    [`${"d".repeat(156)}/${"f".repeat(100)}`, false],
    [`${"d".repeat(10)}/${"f".repeat(101)}`, false],
    [`${"é".repeat(50)}`, true],
    [`${"é".repeat(51)}`, false],
  ])("%j → %s", (path, fits) => {
    expect(fitsUstar(path)).toBe(fits);
  });
});
