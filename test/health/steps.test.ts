// The report computed a part at a time (what the log does after each swap) is the report: the same dangling
// citations, look-alike names and discovery checks, with a pause before each library's audit and each other part.
import path from "node:path";
import { afterAll, expect, test } from "vitest";
import { configFromDirectories } from "../../src/config/index.js";
import { buildHealth, buildHealthInSteps } from "../../src/health/index.js";
import { ShelfService } from "../../src/live/index.js";
import { makeTemp, removeTemps, skillMd, writeFiles } from "../sources/git-fixture.js";

afterAll(removeTemps);

async function twoLibraries(): Promise<ShelfService> {
  const base = makeTemp();
  const one = path.join(base, "one");
  const two = path.join(base, "two");
  writeFiles(one, {
    "skills/report-writer/SKILL.md": skillMd("report-writer", "Use it.", "# r\n\nSee [the guide](references/guide.md).\n"),
    "skills/shared/SKILL.md": skillMd("shared", "Use it."),
  });
  writeFiles(two, {
    "skills/report-writes/SKILL.md": skillMd("report-writes", "Use it.", "# w\n\nSee [a](references/a.md) and [b](../b.md).\n"),
    "skills/shared/SKILL.md": skillMd("shared", "Use it too."),
  });
  const result = configFromDirectories([one, two], base);
  if (!result.ok) throw new Error("zero-config refused");
  return ShelfService.start(result.config, () => new Date(0));
}

test("in steps: a pause before each library's audit and each later part, and the same report as in one go", async () => {
  const [stepped, direct] = [await twoLibraries(), await twoLibraries()];
  try {
    const events: string[] = [];
    const shelf = stepped.holder.current;
    const report = await buildHealthInSteps(shelf, async () => void events.push("pause"));
    expect(events).toEqual(["pause", "pause", "pause", "pause", "pause"]);
    // Asked again, the memo answers: the very same report object.
    expect(buildHealth(shelf)).toBe(report);
    expect(report.plugins["one"]?.dangling).toEqual([{ skill: "skill://one/report-writer/SKILL.md", cites: "references/guide.md" }]);
    expect(report.plugins["two"]?.dangling).toEqual([
      { skill: "skill://two/report-writes/SKILL.md", cites: "references/a.md" },
      { skill: "skill://two/report-writes/SKILL.md", cites: "../b.md" },
    ]);
    expect(report.guard?.lookAlikes?.map((row) => [row.rule, row.skill, row.other])).toEqual([
      ["name-one-edit", "skill://one/report-writer/SKILL.md", "skill://two/report-writes/SKILL.md"],
      ["name-taken", "skill://one/shared/SKILL.md", "skill://two/shared/SKILL.md"],
    ]);
    expect(report.discovery?.shadowed?.map((row) => row.name)).toEqual(["shared"]);
    // A shelf built the same way, reported in one go: equal in every field but when it was built.
    expect({ ...buildHealth(direct.holder.current), built: "" }).toEqual({ ...report, built: "" });
  } finally {
    await stepped.close();
    await direct.close();
  }
});

test("a reader that asks in the middle gets the whole report; the steps then finish on what it computed", async () => {
  const service = await twoLibraries();
  try {
    const shelf = service.holder.current;
    let asked: ReturnType<typeof buildHealth> | undefined;
    let pauses = 0;
    const stepped = await buildHealthInSteps(shelf, async () => {
      if (++pauses === 2) asked = buildHealth(shelf);
    });
    expect(asked).toBe(stepped);
    expect(stepped.plugins["two"]?.dangling?.length).toBe(2);
  } finally {
    await service.close();
  }
});
