// The citation audit of a rebuilt shelf reuses what a kept library's citations into itself were found to be, and
// resolves again those into other libraries: after each change it equals the audit of a server started afresh on
// the same files.
import { rmSync } from "node:fs";
import path from "node:path";
import { afterAll, expect, test } from "vitest";
import { configFromDirectories } from "../../src/config/index.js";
import { auditCitations } from "../../src/health/index.js";
import { ShelfService } from "../../src/live/index.js";
import type { Config } from "../../src/config/index.js";
import { makeTemp, removeTemps, skillMd, writeFiles } from "../sources/git-fixture.js";

afterAll(removeTemps);

async function freshAudit(config: Config): Promise<unknown> {
  const service = await ShelfService.start(config, () => new Date(0));
  try {
    return Object.fromEntries(auditCitations(service.holder.current));
  } finally {
    await service.close();
  }
}

test("a kept library's own citations are reused, its citations into a changed library are resolved again", async () => {
  const base = makeTemp();
  const one = path.join(base, "one");
  const two = path.join(base, "two");
  writeFiles(one, {
    "skills/alpha/SKILL.md": skillMd(
      "alpha",
      "Use alpha.",
      "# a\n\nSee [guide](references/guide.md) and [beta](skill://two/beta/SKILL.md).\n",
    ),
  });
  writeFiles(two, { "skills/beta/SKILL.md": skillMd("beta", "Use beta."), "skills/gamma/SKILL.md": skillMd("gamma", "Use gamma.") });
  const result = configFromDirectories([one, two], base);
  if (!result.ok) throw new Error("zero-config refused");
  const service = await ShelfService.start(result.config, () => new Date(0));
  try {
    const first = service.holder.current;
    const guide = { skill: "skill://one/alpha/SKILL.md", cites: "references/guide.md" };
    const beta = { skill: "skill://one/alpha/SKILL.md", cites: "skill://two/beta/SKILL.md" };
    expect(Object.fromEntries(auditCitations(first))).toEqual({ one: [guide] });

    // The cited skill of the other library goes: library one is kept as it was, and its citation into two dangles.
    rmSync(path.join(two, "skills/beta"), { recursive: true });
    await service.rescan();
    const second = service.holder.current;
    expect(second.libraries.get("one")).toBe(first.libraries.get("one"));
    expect(second.libraries.get("two")).not.toBe(first.libraries.get("two"));
    expect(Object.fromEntries(auditCitations(second))).toEqual({ one: [guide, beta] });
    expect(Object.fromEntries(auditCitations(second))).toEqual(await freshAudit(result.config));

    // The guide appears in library one: its own citation is found again, the one into two still dangles.
    writeFiles(one, { "skills/alpha/references/guide.md": "# guide\n" });
    await service.rescan();
    const third = service.holder.current;
    expect(third.libraries.get("one")).not.toBe(second.libraries.get("one"));
    expect(Object.fromEntries(auditCitations(third))).toEqual({ one: [beta] });
    expect(Object.fromEntries(auditCitations(third))).toEqual(await freshAudit(result.config));
  } finally {
    await service.close();
  }
});
