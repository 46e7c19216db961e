// The two real collections in ../shared/corpora, each copied into a temporary git repository and served through
// git+file via its marketplace file, then served again zero-config straight from the directory: the same counts.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { configFromDirectories } from "../../src/config/index.js";
import { ShelfService } from "../../src/live/shelf-service.js";
import { buildHealth, type HealthReport } from "../../src/health/index.js";
import { git, makeTemp, removeTemps } from "../sources/git-fixture.js";
import { configOf, readText } from "./helpers.js";

const CORPORA = path.resolve(import.meta.dirname, "../../../shared/corpora");
const NAMES = ["k-dense-scientific", "wshobson-agents"] as const;
const present = NAMES.every((name) => fs.existsSync(path.join(CORPORA, name, ".claude-plugin", "marketplace.json")));
if (!present) console.log(`corpora tests skipped: ${NAMES.join(" and ")} not found beside the project (../shared/corpora)`);

const services: ShelfService[] = [];
let git_: HealthReport;
let direct: HealthReport;
let service: ShelfService;

beforeAll(async () => {
  if (!present) return;
  const base = makeTemp();
  for (const name of NAMES) {
    const repo = path.join(base, name);
    fs.cpSync(path.join(CORPORA, name), repo, { recursive: true, verbatimSymlinks: true });
    git(repo, "init", "-q", "-b", "main");
    git(repo, "add", "-A");
    git(repo, "commit", "-q", "-m", "corpus");
  }
  const yaml = `sources:
  - {name: corpora, url: "git+file://${base}"}
libraries:
  - {name: scientific, source: "corpora://k-dense-scientific"}
  - {name: agents, source: "corpora://wshobson-agents"}
`;
  service = await ShelfService.start(configOf(yaml, base), () => new Date(), { cacheDir: makeTemp() });
  services.push(service);
  git_ = buildHealth(service.current);
  const zero = configFromDirectories(
    NAMES.map((name) => path.join(CORPORA, name)),
    CORPORA,
  );
  if (!zero.ok) throw new Error("zero-config failed");
  const zeroService = await ShelfService.start(zero.config, () => new Date());
  services.push(zeroService);
  direct = buildHealth(zeroService.current);
}, 120_000);

afterAll(async () => {
  for (const s of services.splice(0)) await s.close();
  removeTemps();
});

function pluginsOf(report: HealthReport, library: string) {
  return Object.entries(report.plugins).filter(([id]) => id.endsWith(`@${library}`));
}

function sum(report: HealthReport, library: string, field: "skills" | "prompts"): number {
  return pluginsOf(report, library).reduce((n, [, plugin]) => n + plugin[field], 0);
}

describe.skipIf(!present)("k-dense-scientific through git+file", () => {
  test("one strict:false entry at ./ listing every skill path: 127 skills served, two skipped", () => {
    expect(git_.libraries.scientific).toEqual({
      description: "",
      plugins: ["scientific-skills@scientific"],
      skills: 127,
      prompts: 0,
      files: 0,
    });
    expect(git_.plugins["scientific-skills@scientific"]).toMatchObject({
      status: "ok",
      fetch: "corpora://k-dense-scientific",
      root: "",
      skills: 127,
      prompts: 0,
      skipped: [
        { path: "scientific-skills/database-lookup", reason: "The description is 1929 characters long, over the limit of 1024." },
        {
          path: "scientific-skills/markdown-mermaid-writing",
          reason:
            "MCP hosts refuse this skill's frontmatter (frontmatter metadata must map strings to strings): fix it in SKILL.md, or serve the plugin with naming: lenient, which normalises it.",
        },
      ],
    });
    expect(git_.fetches["corpora://k-dense-scientific"]?.status).toBe("ok");
  });

  test("a skill reads back byte for byte from the export", async () => {
    const expected = fs.readFileSync(path.join(CORPORA, "k-dense-scientific/scientific-skills/astropy/SKILL.md"), "utf8");
    expect(await readText(service.current, "skill://scientific/scientific-skills/astropy/SKILL.md")).toBe(expected);
  });
});

describe.skipIf(!present)("wshobson-agents through git+file", () => {
  test("84 local entries become plugins; the git-subdir entry is skipped: no source declares its host", () => {
    const agents = git_.libraries.agents;
    expect(agents?.plugins).toHaveLength(84);
    expect(agents?.skipped).toEqual([
      { plugin: "pensyve@agents", reason: "Its repository is on https://github.com, which no declared git source serves." },
    ]);
    expect(pluginsOf(git_, "agents").every(([, plugin]) => plugin.status === "ok" && plugin.fetch === "corpora://wshobson-agents")).toBe(
      true,
    );
  });

  test("exact counts: 174 skills and 95 prompts harvested; 174 and 91 served, 7 plugins losing only their same-command prompts", () => {
    expect(sum(git_, "agents", "skills")).toBe(174);
    expect(sum(git_, "agents", "prompts")).toBe(95);
    // Of the nine clashing names, five are different commands served renamed (agents_ship-mate.setup…); four are the same.
    expect(git_.libraries.agents).toMatchObject({ skills: 174, prompts: 91, files: 0 });
    expect(Object.keys(git_.libraries.agents?.conflicts ?? {}).sort()).toEqual([
      "comprehensive-review@agents",
      "context-management@agents",
      "documentation-generation@agents",
      "error-diagnostics@agents",
      "performance-testing-review@agents",
      "ship-mate@agents",
      "ui-design@agents",
    ]);
    expect(pluginsOf(git_, "agents").flatMap(([id, plugin]) => (plugin.skipped ?? []).map((row) => [id, row.path]))).toEqual([
      ["database-design@agents", "skills/postgresql"],
    ]);
  });

  test("marketplace metadata and plugin.json: categories, versions, keywords, a manifest's skills list", () => {
    expect(git_.plugins["database-design@agents"]).toMatchObject({
      root: "plugins/database-design",
      category: "database",
      version: "1.2.1",
    });
    expect(pluginsOf(git_, "agents").filter(([, plugin]) => plugin.version !== undefined)).toHaveLength(84);
    expect(new Set(pluginsOf(git_, "agents").map(([, plugin]) => plugin.category)).size).toBe(24);
    expect(git_.plugins["pptx-deck-creation@agents"]).toMatchObject({
      skills: 5,
      keywords: ["powerpoint", "pptx", "presentations", "slide-decks", "deck-generation", "slide-design"],
    });
  });
});

describe.skipIf(!present)("the same corpora zero-config, straight from their directories", () => {
  test("served through their marketplace files: what the config serves, and what lenient naming adds", () => {
    // Zero-config names are lenient: the three skills strict naming skips are served with a warning each.
    expect([git_.skills, git_.prompts]).toEqual([301, 91]);
    expect([direct.skills, direct.prompts]).toEqual([304, 91]);
    const warned = Object.entries(direct.plugins).flatMap(([id, plugin]) => (plugin.warnings ?? []).map((row) => `${id} ${row.path}`));
    expect(warned).toEqual([
      "scientific-skills@k-dense-scientific scientific-skills/database-lookup/SKILL.md",
      "scientific-skills@k-dense-scientific scientific-skills/markdown-mermaid-writing/SKILL.md",
      "database-design@wshobson-agents skills/postgresql/SKILL.md",
    ]);
    // Each directory's discovery plugin follows the entries; every SKILL.md of both is an entry's, so it serves none.
    expect(direct.libraries["k-dense-scientific"]).toMatchObject({
      plugins: ["scientific-skills@k-dense-scientific", "k-dense-scientific"],
      skills: 129,
    });
    expect([direct.plugins["k-dense-scientific"]?.skills, direct.plugins["wshobson-agents"]?.skills]).toEqual([0, 0]);
    expect(direct.libraries["wshobson-agents"]).toMatchObject({
      skills: 175,
      prompts: 91,
      skipped: [
        { plugin: "pensyve@wshobson-agents", reason: "Its repository is on https://github.com, which no declared git source serves." },
      ],
    });
    expect(direct.libraries["wshobson-agents"]?.plugins).toHaveLength(85);
    expect(direct.libraries["wshobson-agents"]?.plugins.at(-1)).toBe("wshobson-agents");
    // A zero-config fetch key is the library name, never the path.
    expect(Object.keys(direct.fetches)).toEqual(["k-dense-scientific", "wshobson-agents"]);
  });
});
