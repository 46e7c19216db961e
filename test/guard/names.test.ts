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

  test("finds every pair of names one edit apart across libraries, as comparing every pair does", () => {
    // Short names over a three-letter alphabet: many pairs one edit apart, and many deletion keys shared.
    let seed = 11;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const names = new Set<string>();
    while (names.size < 600) names.add(Array.from({ length: 5 + next(3) }, () => "abc"[next(3)]).join(""));
    const skills = [...names].map((name, i) => skill(`lib-${i % 3}`, name));
    const expected: string[] = [];
    for (const [i, a] of skills.entries()) {
      for (const b of skills.slice(i + 1)) {
        if (a.library === b.library || !withinOneEdit(a.name, b.name)) continue;
        const [x, y] = a.uri < b.uri ? [a, b] : [b, a];
        expected.push(`${x.uri} ${y.uri}`);
      }
    }
    expected.sort();
    const found = findLookAlikes(skills)
      .filter((row) => row.rule === "name-one-edit")
      .map((row) => `${row.skill} ${row.other}`);
    expect(expected.length).toBeGreaterThan(500);
    expect(found).toEqual(expected);
  });
});
