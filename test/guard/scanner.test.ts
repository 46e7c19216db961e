// The external scanner: run on each new or changed skill folder, its SARIF results joining the built-in findings
// under the same policy, its failures (a timeout, output that is not SARIF) a `scanner-failed` finding that
// `onFailure` judges, and an unchanged skill never scanned again.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { assemble } from "../../src/assemble/index.js";
import { buildHealth } from "../../src/health/index.js";
import { configOf } from "../live/helpers.js";
import { tempDir } from "../support/temp.js";

const SCANNERS = path.join(path.dirname(fileURLToPath(import.meta.url)), "scanner");
const BUILT = "2026-01-01T00:00:00.000Z";
const skillMd = (name: string, body: string): string => `---\nname: ${name}\ndescription: The ${name} skill.\n---\n${body}`;

function plant(): { base: string; write: (rel: string, text: string) => void } {
  const base = tempDir("skillshelf-scanner-");
  const write = (rel: string, text: string): void => {
    mkdirSync(path.dirname(path.join(base, rel)), { recursive: true });
    writeFileSync(path.join(base, rel), text);
  };
  write("kit/skills/clean/SKILL.md", skillMd("clean", "# Clean\n"));
  write("kit/skills/marked/SKILL.md", skillMd("marked", "# Marked\n\nSee scripts/run.sh.\n"));
  write("kit/skills/marked/scripts/run.sh", "#!/bin/sh\necho one\necho EVIL-CRITICAL\n");
  write("kit/skills/noted/SKILL.md", skillMd("noted", "# Noted\n\nEVIL-NOTE here.\n"));
  write("kit/skills/far/SKILL.md", skillMd("far", "# Far\n\nEVIL-OUTSIDE\n"));
  return { base, write };
}

const config = (scanner: string): string =>
  "plugins:\n  - name: kit\n    source: ./kit\nlibraries:\n  - name: kit\n    plugins: [kit]\n" + `guard:\n  scanner:\n${scanner}`;
const command = (script: string, ...args: string[]): string =>
  `    command: [${JSON.stringify(process.execPath)}, ${JSON.stringify(path.join(SCANNERS, script))}${args.map((a) => `, ${JSON.stringify(a)}`).join("")}]\n`;
const served = (shelf: Awaited<ReturnType<typeof assemble>>["shelf"]): string[] =>
  [...(shelf.libraries.get("kit")?.skills.keys() ?? [])].sort();

describe("the external scanner", () => {
  test("its results are findings under the policy, and only a new or changed skill folder is scanned", async () => {
    const { base, write } = plant();
    const log = path.join(base, "runs.log");
    const yaml = config(command("sarif-scanner.mjs", log));
    const first = await assemble(configOf(yaml, base), { generation: 1, built: BUILT });
    expect(served(first.shelf)).toEqual(["clean", "far", "noted"]);
    const rows = buildHealth(first.shelf).guard?.findings.map(
      (r) => `${r.action} ${r.rule} ${r.severity} ${r.file}:${r.line} ${r.reason} | ${r.fix}`,
    );
    expect(rows).toEqual([
      "warn scanner:evil-marker high skill://kit/far/SKILL.md:1 Somewhere else (reported outside the skill's folder) | Remove the marker.",
      "quarantine scanner:evil-marker critical skill://kit/marked/scripts/run.sh:3 A critical marker | Remove the marker.",
      "warn scanner:evil-marker low skill://kit/noted/SKILL.md:7 A note | Remove the marker.",
    ]);
    expect(readFileSync(log, "utf8").split("\n").filter(Boolean).sort()).toEqual(["clean", "far", "marked", "noted"]);

    // Unchanged: the harvest is reused, and so is the scanned plugin (the library is kept as it was).
    const second = await assemble(configOf(yaml, base), { generation: 2, built: BUILT, previous: first.memo, previousShelf: first.shelf });
    expect(second.shelf.plugins.get("kit")).toBe(first.shelf.plugins.get("kit"));
    expect(second.shelf.libraries.get("kit")).toBe(first.shelf.libraries.get("kit"));
    // Changed: the plugin is harvested again, and only the changed folder is scanned.
    write("kit/skills/marked/scripts/run.sh", "#!/bin/sh\necho fixed\n");
    const third = await assemble(configOf(yaml, base), { generation: 3, built: BUILT, previous: second.memo, previousShelf: second.shelf });
    expect(served(third.shelf)).toEqual(["clean", "far", "marked", "noted"]);
    expect(readFileSync(log, "utf8").split("\n").filter(Boolean).sort()).toEqual(["clean", "far", "marked", "marked", "noted"]);
  });

  test("a library's stricter policy judges the scanner's findings too; the same content in two folders is scanned once", async () => {
    const { base, write } = plant();
    for (const rel of ["clean/SKILL.md", "marked/SKILL.md", "marked/scripts/run.sh", "noted/SKILL.md", "far/SKILL.md"])
      write(`copy/skills/${rel}`, readFileSync(path.join(base, "kit/skills", rel), "utf8"));
    const log = path.join(base, "runs.log");
    const yaml =
      "plugins:\n  - {name: kit, source: ./kit}\n  - {name: copy, source: ./copy}\nlibraries:\n" +
      "  - name: strict\n    plugins: [kit]\n    guard: {quarantine: [critical, high]}\n  - name: loose\n    plugins: [copy]\n" +
      `guard:\n  scanner:\n${command("sarif-scanner.mjs", log)}`;
    const { shelf } = await assemble(configOf(yaml, base), { generation: 1, built: BUILT });
    expect([...(shelf.libraries.get("strict")?.skills.keys() ?? [])].sort()).toEqual(["clean", "noted"]);
    expect([...(shelf.libraries.get("loose")?.skills.keys() ?? [])].sort()).toEqual(["clean", "far", "noted"]);
    expect(readFileSync(log, "utf8").split("\n").filter(Boolean)).toHaveLength(4);
    // Each copy's results are placed at its own files.
    const rows = buildHealth(shelf).guard?.findings.map((r) => `${r.action} ${r.severity} ${r.file}:${r.line} ${r.reason}`);
    expect(rows).toEqual([
      "quarantine high skill://strict/far/SKILL.md:1 Somewhere else (reported outside the skill's folder)",
      "quarantine critical skill://strict/marked/scripts/run.sh:3 A critical marker",
      "warn low skill://strict/noted/SKILL.md:7 A note",
      "warn high skill://loose/far/SKILL.md:1 Somewhere else (reported outside the skill's folder)",
      "quarantine critical skill://loose/marked/scripts/run.sh:3 A critical marker",
      "warn low skill://loose/noted/SKILL.md:7 A note",
    ]);
  });

  test("a scanner that hangs is stopped at its timeout, and onFailure decides whether that quarantines", async () => {
    const { base } = plant();
    const hang = command("hang-scanner.mjs") + "    timeout: 300ms\n    concurrency: 4\n";
    const strict = await assemble(configOf(config(hang), base), { generation: 1, built: BUILT });
    expect(served(strict.shelf)).toEqual([]);
    const rows = buildHealth(strict.shelf).guard?.findings.map(
      (r) => `${r.action} ${r.rule} ${r.severity} ${r.file}:${r.line} ${r.reason}`,
    );
    expect(rows).toEqual(
      ["clean", "far", "marked", "noted"].map(
        (name) =>
          `quarantine scanner-failed high skill://kit/${name}/SKILL.md:1 the external scanner failed on this skill: it did not finish within 300 ms and was stopped`,
      ),
    );
    const lenient = await assemble(configOf(config(`${hang}    onFailure: warn\n`), base), { generation: 2, built: BUILT });
    expect(served(lenient.shelf)).toEqual(["clean", "far", "marked", "noted"]);
    expect(buildHealth(lenient.shelf).guard?.findings.every((r) => r.action === "warn" && r.rule === "scanner-failed")).toBe(true);
  });

  test("a scanner that prints something other than SARIF, or cannot start, fails each scan with the reason", async () => {
    const { base } = plant();
    const garbage = await assemble(configOf(config(command("garbage-scanner.mjs")), base), { generation: 1, built: BUILT });
    expect(new Set(buildHealth(garbage.shelf).guard?.findings.map((r) => `${r.action} ${r.reason}`))).toEqual(
      new Set(["quarantine the external scanner failed on this skill: its output is not JSON (SARIF 2.1.0 expected on stdout)"]),
    );
    const missing = await assemble(configOf(config("    command: [./no-such-scanner]\n    onFailure: warn\n"), base), {
      generation: 2,
      built: BUILT,
    });
    expect(served(missing.shelf)).toEqual(["clean", "far", "marked", "noted"]);
    expect(new Set(buildHealth(missing.shelf).guard?.findings.map((r) => `${r.action} ${r.reason}`))).toEqual(
      new Set(["warn the external scanner failed on this skill: it could not be started (ENOENT)"]),
    );
  });

  test("a failed scan is kept only as long as its plugin's harvest: /reindex (a forced harvest) scans again", async () => {
    const { base } = plant();
    const script = path.join(base, "later-scan.mjs");
    const log = path.join(base, "runs.log");
    const yaml = config(`    command: [${JSON.stringify(process.execPath)}, ${JSON.stringify(script)}, ${JSON.stringify(log)}]\n`);
    const first = await assemble(configOf(yaml, base), { generation: 1, built: BUILT });
    expect(new Set(buildHealth(first.shelf).guard?.findings.map((r) => r.reason))).toEqual(
      new Set(["the external scanner failed on this skill: its output is not JSON (SARIF 2.1.0 expected on stdout); it exited with 1"]),
    );
    writeFileSync(script, readFileSync(path.join(SCANNERS, "sarif-scanner.mjs")));
    const kept = await assemble(configOf(yaml, base), { generation: 2, built: BUILT, previous: first.memo });
    expect(kept.shelf.plugins.get("kit")).toBe(first.shelf.plugins.get("kit"));
    const again = await assemble(configOf(yaml, base), { generation: 3, built: BUILT, previous: kept.memo, force: true });
    expect(served(again.shelf)).toEqual(["clean", "far", "noted"]);
    expect(readFileSync(log, "utf8").split("\n").filter(Boolean).sort()).toEqual(["clean", "far", "marked", "noted"]);
  });
});
