// Look-alike names: confusables by the Unicode skeleton, one edit across libraries, a name taken from another
// source; and the near-misses that must not fire.
import { describe, expect, test } from "vitest";
import { findLookAlikes, type NamedSkill, skeletonOf, withinOneEdit } from "../../src/guard/index.js";

const skill = (library: string, name: string, source = library): NamedSkill => ({
  uri: `skill://${library}/${name}/SKILL.md`,
  library,
  name,
  source,
});

describe("look-alike names", () => {
  test("a Cyrillic а in a Latin name has the Latin name's skeleton", () => {
    expect(skeletonOf("p\u0430yments")).toBe(skeletonOf("payments"));
    expect(skeletonOf("payments")).not.toBe(skeletonOf("payment"));
  });

  test.each([
    ["pdf-tools", "pdf-tool", true],
    ["pdf-tools", "pdf-toolz", true],
    ["pdf-tools", "pdf-tolos", true],
    ["pdf-tools", "pdf-tools", false],
    ["pdf-tools", "pdf-to", false],
    ["xlsx", "xlsm", true],
  ] as const)("%s and %s within one edit: %s", (a, b, within) => {
    expect(withinOneEdit(a, b)).toBe(within);
    expect(withinOneEdit(b, a)).toBe(within);
  });

  test("each kind names both addresses; one edit within a library, short names and the same source's copy do not fire", () => {
    const rows = findLookAlikes([
      skill("acme", "payments"),
      skill("public", "p\u0430yments"),
      skill("acme", "deploy-app"),
      skill("public", "deploy-apps"),
      skill("acme", "review"),
      skill("market", "review"),
      skill("acme", "xlsx"),
      skill("public", "xlsm"),
      skill("acme", "lint-js"),
      skill("acme", "lint-ts"),
      skill("team", "docs", "kit"),
      skill("all", "docs", "kit"),
    ]);
    expect(rows.map((row) => `${row.rule} ${row.skill} ${row.other}`)).toEqual([
      "name-one-edit skill://acme/deploy-app/SKILL.md skill://public/deploy-apps/SKILL.md",
      "name-confusable skill://acme/payments/SKILL.md skill://public/p\u0430yments/SKILL.md",
      "name-taken skill://acme/review/SKILL.md skill://market/review/SKILL.md",
    ]);
  });
});
