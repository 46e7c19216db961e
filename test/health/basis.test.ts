// The fingerprint of a rebuild hashes the report's basis, without the parts derived from what it hashes anyway
// (the citation audit, the look-alike names): those are computed after the swap. A change that only they would
// show still changes the fingerprint, so the rebuild is published.
import path from "node:path";
import { afterAll, expect, test } from "vitest";
import { configFromDirectories } from "../../src/config/index.js";
import { buildHealth, fingerprintShelf, healthBasis } from "../../src/health/index.js";
import { ShelfService } from "../../src/live/index.js";
import { makeTemp, removeTemps, skillMd, writeFiles } from "../sources/git-fixture.js";

afterAll(removeTemps);

test("the basis leaves out dangling citations and look-alike names; the fingerprint still sees them change", async () => {
  const base = makeTemp();
  const one = path.join(base, "one");
  const two = path.join(base, "two");
  writeFiles(one, {
    "skills/report-writer/SKILL.md": skillMd("report-writer", "Use it.", "# r\n\nSee [the guide](references/guide.md).\n"),
  });
  writeFiles(two, { "skills/report-writes/SKILL.md": skillMd("report-writes", "Use it.") });
  const result = configFromDirectories([one, two], base);
  if (!result.ok) throw new Error("zero-config refused");
  const service = await ShelfService.start(result.config, () => new Date(0));
  try {
    const first = service.holder.current;
    const full = buildHealth(first);
    expect(full.plugins["one"]?.dangling).toEqual([{ skill: "skill://one/report-writer/SKILL.md", cites: "references/guide.md" }]);
    expect(full.guard?.lookAlikes?.map((row) => [row.rule, row.skill, row.other])).toEqual([
      ["name-one-edit", "skill://one/report-writer/SKILL.md", "skill://two/report-writes/SKILL.md"],
    ]);
    const basis = healthBasis(first);
    expect(basis.plugins["one"]?.dangling).toBeUndefined();
    expect(basis.guard).toBeUndefined();
    expect(basis.discovery).toBeUndefined();

    // The cited file appears: only the audit's verdict changes, and the fingerprint with it.
    writeFiles(one, { "skills/report-writer/references/guide.md": "# guide\n" });
    await service.rescan();
    const second = service.holder.current;
    expect(second.generation).toBe(first.generation + 1);
    expect(fingerprintShelf(second)).not.toBe(fingerprintShelf(first));
    expect(buildHealth(second).plugins["one"]?.dangling).toBeUndefined();
  } finally {
    await service.close();
  }
});
