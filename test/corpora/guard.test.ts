// The guard on the two real collections (../shared/corpora): every finding, exactly, so a rule that starts firing
// on honest skills (or stops firing) shows here. docs/guard.md classes each one. Skipped when the corpora are absent.
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { expect, test } from "vitest";
import type { HealthReport } from "../../src/health/index.js";

const PROJECT = path.resolve(import.meta.dirname, "../..");
const CORPORA = path.resolve(PROJECT, "../shared/corpora");
const CLI = path.join(PROJECT, "dist/cli.js");

test.runIf(existsSync(CORPORA) && existsSync(CLI))("both collections: the findings, each classed in docs/guard.md", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "skillshelf-guard-corpora-"));
  try {
    const names = readdirSync(path.join(CORPORA, "wshobson-agents/plugins")).sort();
    const plugins = names.map(
      (name) => `  - name: ${name}\n    source: ${pathToFileURL(path.join(CORPORA, "wshobson-agents/plugins", name)).href}\n`,
    );
    const config = path.join(dir, "skillshelf.yaml");
    writeFileSync(
      config,
      `plugins:\n${plugins.join("")}  - name: scientific\n    source: ${pathToFileURL(path.join(CORPORA, "k-dense-scientific")).href}\n` +
        `    skills: ["scientific-skills/*"]\nlibraries:\n  - name: agents\n    plugins: [${names.join(", ")}]\n  - name: science\n    plugins: [scientific]\n`,
    );
    const stdout = await promisify(execFile)(
      process.execPath,
      [CLI, "check", "--config", config, "--json", "--cache-dir", path.join(dir, "cache")],
      {
        maxBuffer: 64 << 20,
      },
    ).then(
      (done) => done.stdout,
      (failed: { stdout: string }) => failed.stdout,
    );
    const report = JSON.parse(stdout) as HealthReport;
    expect(report.guard?.quarantined).toEqual([]);
    expect(report.guard?.lookAlikes).toBeUndefined();
    expect(report.guard?.findings.map((f) => `${f.action} ${f.severity} ${f.rule} ${f.file}:${f.line}`)).toEqual([
      "warn high secret-database-connection-string skill://agents/deployment-pipeline-design/references/advanced-strategies.md:95",
      "warn high exec-fetch-execute skill://agents/gitops-workflow/SKILL.md:120",
      "warn high exec-fetch-execute skill://agents/linkerd-patterns/SKILL.md:58",
      "warn medium exec-bit-outside-scripts skill://agents/spark-memory-thermal-ops/assets/thermal-sample.sh:1",
      "warn high exec-fetch-execute skill://agents/uv-package-manager/SKILL.md:58",
      "warn high exec-fetch-execute skill://agents/uv-package-manager/SKILL.md:61",
      "warn medium exec-persistence-shell-rc skill://agents/uv-package-manager/references/advanced-patterns.md:343",
      "warn medium exec-persistence-shell-rc skill://science/scientific-skills/perplexity-search/references/openrouter_setup.md:71",
      "warn medium exec-persistence-shell-rc skill://science/scientific-skills/perplexity-search/references/openrouter_setup.md:75",
      "warn medium exec-bit-outside-scripts skill://science/scientific-skills/research-lookup/lookup.py:1",
      "warn medium exec-persistence-shell-rc skill://science/scientific-skills/scientific-schematics/references/QUICK_REFERENCE.md:12",
      "warn medium exec-persistence-shell-rc skill://science/scientific-skills/scientific-schematics/references/README.md:250",
      "warn medium exec-bit-outside-scripts skill://science/scientific-skills/timesfm-forecasting/examples/global-temperature/run_example.sh:1",
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
