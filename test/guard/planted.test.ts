// The planted set (test/guard/planted/skills.ts): the detection rate, the exact findings, and every planted skill
// with a critical finding quarantined and unreachable on every surface: resources/read, skills/list, skills/get,
// the read_resource and search_skills tools, the page's /raw, and the discovery index.
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { buildHealth, type HealthReport } from "../../src/health/index.js";
import { serveWeb, type Served } from "../web/fixture.js";
import { send } from "../support/http.js";
import { getSkill, listAllSkills } from "../support/mcp.js";
import { tempDir } from "../support/temp.js";
import { ERA_2026, inMemory } from "../support/transports.js";
import { HONEST, LOOK_ALIKES, PLANTED } from "./planted/skills.js";

const skillMd = (name: string, body: string): string => `---\nname: ${name}\ndescription: The ${name} skill, planted.\n---\n${body}`;

function plant(): string {
  const base = tempDir("skillshelf-planted-");
  const write = (rel: string, content: string | Uint8Array): void => {
    mkdirSync(path.dirname(path.join(base, rel)), { recursive: true });
    writeFileSync(path.join(base, rel), content);
  };
  for (const skill of PLANTED) {
    write(`kit/skills/${skill.name}/SKILL.md`, skillMd(skill.name, skill.body ?? `# ${skill.name}\n\nRun the scripts.\n`));
    for (const [rel, content] of Object.entries(skill.files ?? {})) write(`kit/skills/${skill.name}/${rel}`, content);
    for (const rel of skill.executable ?? []) chmodSync(path.join(base, `kit/skills/${skill.name}/${rel}`), 0o755);
  }
  for (const name of HONEST) write(`kit/skills/${name}/SKILL.md`, skillMd(name, `# ${name}\n\nAn honest skill.\n`));
  for (const { name } of LOOK_ALIKES) write(`other/skills/${name}/SKILL.md`, skillMd(name, `# ${name}\n\nA copy.\n`));
  write(
    "skillshelf.yaml",
    "plugins:\n  - name: kit\n    source: ./kit\n  - name: other\n    source: ./other\n" +
      "libraries:\n  - name: planted\n    plugins: [kit]\n  - name: copies\n    plugins: [other]\n",
  );
  return path.join(base, "skillshelf.yaml");
}

const config = plant();
const transport = inMemory(config);
let client: Client;
let report: HealthReport;
let served: Served;

beforeAll(async () => {
  await transport.start();
  client = await transport.connect(ERA_2026);
  report = buildHealth(transport.service().current);
  served = await serveWeb(config, { clients: [], anonymous: true });
});
afterAll(async () => {
  await transport.stop();
  await served?.close();
});

const skillOf = (uri: string): string => uri.replace(/^skill:\/\/planted\//, "").split("/")[0] as string;
const critical = PLANTED.filter((skill) => skill.expect?.severity === "critical").map((skill) => skill.name);

describe("the planted set", () => {
  test("the findings: exactly the expected rule on each planted skill, and the known misses found nothing", () => {
    const found = new Map<string, Set<string>>();
    for (const row of report.guard?.findings ?? []) {
      const name = skillOf(row.file);
      found.set(name, (found.get(name) ?? new Set()).add(`${row.rule} ${row.severity}`));
    }
    const actual = Object.fromEntries(PLANTED.map((skill) => [skill.name, [...(found.get(skill.name) ?? [])].sort()]));
    const expected = Object.fromEntries(
      PLANTED.map((skill) => [skill.name, skill.expect === null ? [] : [`${skill.expect.rule} ${skill.expect.severity}`]]),
    );

    expect(actual).toEqual(expected);
    expect(report.guard?.lookAlikes?.map((row) => `${row.rule} ${row.skill} ${row.other}`).sort()).toEqual([
      "name-one-edit skill://copies/deploy-apps/SKILL.md skill://planted/deploy-app/SKILL.md",
      "name-taken skill://copies/release-notes/SKILL.md skill://planted/release-notes/SKILL.md",
    ]);
  });

  test("the detection rate", () => {
    const planted = PLANTED.length + LOOK_ALIKES.length;
    const detected = PLANTED.filter((skill) => skill.expect !== null).length + (report.guard?.lookAlikes?.length ?? 0);
    expect(planted).toBeGreaterThanOrEqual(30);
    expect(new Set(PLANTED.map((skill) => skill.family)).size).toBe(10);
    expect(`${detected}/${planted}`).toBe("33/36");
    expect(PLANTED.filter((skill) => skill.expect === null).map((skill) => skill.name)).toEqual([
      "ship-env-split",
      "two-step-download",
      "systemd-unit",
    ]);
  });

  test("every skill with a critical finding is quarantined, and no other", () => {
    expect(critical).toHaveLength(21);
    expect((report.guard?.quarantined ?? []).map((row) => skillOf(row.skill ?? "")).sort()).toEqual([...critical].sort());
  });

  test("a quarantined skill is on no MCP surface: skills/list, skills/get, resources/read, read_resource, search_skills", async () => {
    const listed = new Set((await listAllSkills(client)).map((entry) => entry.uri));

    for (const name of critical) {
      const uri = `skill://planted/${name}/SKILL.md`;
      expect(listed.has(uri)).toBe(false);
      await expect(getSkill(client, uri)).rejects.toThrow(/Not a skill/);
      await expect(client.readResource({ uri })).rejects.toThrow(/quarantined/);
      const tool = await client.callTool({ name: "read_resource", arguments: { uri } });
      expect(tool.isError).toBe(true);
      const search = await client.callTool({ name: "search_skills", arguments: { query: name } });
      expect(JSON.stringify(search.content)).not.toContain(`skill://planted/${name}/`);
    }
    // The honest skills of the same plugin are served.
    expect(listed.has("skill://planted/deploy-app/SKILL.md")).toBe(true);
  });

  test("a quarantined skill is on no HTTP surface: the page's /raw and the discovery index", async () => {
    const index = await send(served.origin, { path: "/.well-known/agent-skills/index.json" });
    expect(index.status).toBe(200);
    expect(index.text).toContain("deploy-app");
    for (const name of critical) {
      const raw = await send(served.origin, { path: `/raw/planted/${name}/SKILL.md` });
      expect({ name, status: raw.status }).toEqual({ name, status: 404 });
      expect(index.text).not.toContain(`"${name}"`);
    }
    expect((await send(served.origin, { path: "/raw/planted/deploy-app/SKILL.md" })).status).toBe(200);
  });
});
