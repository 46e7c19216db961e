// `skillshelf check --json` on two real, public skill collections (../shared/corpora): exact counts, and every
// skip, conflict and dangling citation explained. Skipped, with a message, when the corpora are absent.
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { HealthReport } from "../../src/health/index.js";

const PROJECT = path.resolve(import.meta.dirname, "../..");
const CORPORA = path.resolve(PROJECT, "../shared/corpora");
const CLI = path.join(PROJECT, "dist/cli.js");
const present = existsSync(CORPORA) && existsSync(CLI);
if (!present) console.log(`corpus tests skipped: ${existsSync(CORPORA) ? "build first (npm run build)" : "../shared/corpora is absent"}`);

const run = promisify(execFile);
let dir = "";

async function check(config: string): Promise<{ code: number; report: HealthReport }> {
  const file = path.join(dir, `${config.slice(0, 12).replace(/\W/g, "")}-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(file, config);
  try {
    const { stdout } = await run(process.execPath, [CLI, "check", "--config", file, "--json", "--cache-dir", path.join(dir, "cache")], {
      maxBuffer: 64 << 20,
    });
    return { code: 0, report: JSON.parse(stdout) as HealthReport };
  } catch (error) {
    const failed = error as { code: number; stdout: string };
    return { code: failed.code, report: JSON.parse(failed.stdout) as HealthReport };
  }
}

describe.runIf(present)("real collections", () => {
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), "skillshelf-corpora-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("k-dense-scientific through skills: [scientific-skills/*]", async () => {
    const source = pathToFileURL(path.join(CORPORA, "k-dense-scientific")).href;
    const { code, report } = await check(
      `plugins:\n  - name: scientific\n    source: ${source}\n    skills: ["scientific-skills/*"]\nlibraries:\n  - name: science\n    plugins: [scientific]\n`,
    );
    expect(code).toBe(1);
    expect(report.skills).toBe(127);
    expect(report.prompts).toBe(0);
    const plugin = report.plugins["scientific"];
    expect(plugin?.status).toBe("ok");
    // Two skips: a description over the 1024-character limit, and a metadata list MCP hosts refuse.
    expect(plugin?.skipped).toEqual([
      { path: "scientific-skills/database-lookup", reason: "The description is 1929 characters long, over the limit of 1024." },
      {
        path: "scientific-skills/markdown-mermaid-writing",
        reason:
          "MCP hosts refuse this skill's frontmatter (frontmatter metadata must map strings to strings): fix it in SKILL.md, or serve the plugin with naming: lenient, which normalises it.",
      },
    ]);
    // Ten citations that lead nowhere, all in one skill that cites `reference/` while its folder is `references/`.
    expect(plugin?.dangling?.length).toBe(10);
    expect(new Set(plugin?.dangling?.map((row) => row.skill))).toEqual(
      new Set(["skill://science/scientific-skills/neuropixels-analysis/SKILL.md"]),
    );
    expect(plugin?.dangling?.every((row) => row.cites.startsWith("reference/"))).toBe(true);
    expect(report.libraries["science"]).toEqual({ description: "", plugins: ["scientific"], skills: 127, prompts: 0, files: 0 });
  });

  test("the plugins of wshobson-agents as one library", async () => {
    const names = readdirSync(path.join(CORPORA, "wshobson-agents/plugins")).sort();
    const plugins = names
      .map((name) => `  - name: ${name}\n    source: ${pathToFileURL(path.join(CORPORA, "wshobson-agents/plugins", name)).href}\n`)
      .join("");
    const { code, report } = await check(`plugins:\n${plugins}libraries:\n  - name: agents\n    plugins: [${names.join(", ")}]\n`);
    expect(code).toBe(1);
    expect(names.length).toBe(84);
    // keep-first: the seven plugins that collide on a command serve the rest; of their nine commands whose name an
    // earlier plugin holds, the five that are different commands are served under a name that says whose they are.
    expect(report.skills).toBe(174);
    expect(report.prompts).toBe(91);
    expect(Object.values(report.plugins).every((plugin) => plugin.status === "ok")).toBe(true);
    const rest = "serves the rest in library 'agents' without what collides: ";
    const renamed = (stem: string, holder: string, plugin: string): string =>
      `prompt agents_${stem} is already served by plugin '${holder}', so this plugin's different prompt is served as agents_${plugin}.${stem}`;
    expect(report.libraries["agents"]?.conflicts).toEqual({
      "context-management": `${rest}prompt agents_context-restore is already served by plugin 'code-refactoring' (the same command)`,
      "documentation-generation": `${rest}prompt agents_doc-generate is already served by plugin 'code-documentation' (the same command)`,
      // Every colliding address is named, not only the first.
      "error-diagnostics":
        rest +
        [
          renamed("error-analysis", "error-debugging", "error-diagnostics"),
          renamed("error-trace", "error-debugging", "error-diagnostics"),
          renamed("smart-debug", "debugging-toolkit", "error-diagnostics"),
        ].join("; "),
      "git-pr-workflows": `${rest}prompt agents_pr-enhance is already served by plugin 'comprehensive-review' (the same command)`,
      "performance-testing-review": `${rest}prompt agents_multi-agent-review is already served by plugin 'error-debugging' (the same command)`,
      "ship-mate": rest + renamed("setup", "conductor", "ship-mate"),
      "ui-design": rest + renamed("accessibility-audit", "accessibility-compliance", "ui-design"),
    });
    // The one skip: a skill whose name differs from its folder.
    const skipped = Object.entries(report.plugins).flatMap(([id, plugin]) => (plugin.skipped ?? []).map((row) => ({ id, ...row })));
    expect(skipped).toEqual([
      {
        id: "database-design",
        path: "skills/postgresql",
        reason: 'The name "postgresql-table-design" differs from its directory name "postgresql".',
      },
    ]);
    const dangling = Object.entries(report.plugins).flatMap(([id, plugin]) =>
      (plugin.dangling ?? []).map((row) => `${id} ${row.skill} ${row.cites}`),
    );
    expect(dangling).toEqual([
      "incident-response skill://agents/on-call-handoff-patterns/SKILL.md ../../skills/incident-classification/SKILL.md",
      "incident-response skill://agents/on-call-handoff-patterns/SKILL.md ../../skills/postmortem-facilitation/SKILL.md",
      "incident-response skill://agents/postmortem-writing/SKILL.md internal-wiki/connection-pools",
      "incident-response skill://agents/postmortem-writing/SKILL.md internal-wiki/deployment-runbook",
      // `references/filename.md` and `references/filename` are examples inside code: the Markdown parse drops them.
      "security-scanning skill://agents/sast-configuration/SKILL.md ../owasp-top10-checklist/SKILL.md",
      "security-scanning skill://agents/sast-configuration/SKILL.md ../container-security/SKILL.md",
      "security-scanning skill://agents/sast-configuration/SKILL.md ../dependency-scanning/SKILL.md",
    ]);
  });
});
