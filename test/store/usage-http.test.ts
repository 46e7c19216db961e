// Usage counting through the built server, end to end: every surface counts what it serves, GET /usage sums it
// exactly, and /health tells the store's state. On PostgreSQL the server is taken down mid-run: reads go on
// succeeding, counts are held (and past the buffer dropped, counted), and are written once it is back.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { afterAll, describe, expect, it } from "vitest";
import { send } from "../support/http.js";
import { getSkill } from "../support/mcp.js";
import { EXAMPLE_CONFIG, killStragglers, REPO_ROOT, startHttpServer, type ServerProcess } from "../support/process.js";
import { POSTGRES_MISSING, postgresBin, TestCluster } from "../support/postgres.js";

const TOKENS = { USAGE_OPS_TOKEN: "ops-secret-0123456789", USAGE_CI_TOKEN: "ci-secret-0123456789" };
const ADMIN = { Authorization: "Bearer ops-secret-0123456789" };
const SKILL_MD = "skill://engineering/code-review/SKILL.md";
const dirs: string[] = [];
const servers: ServerProcess[] = [];

afterAll(async () => {
  for (const server of servers) await server.stop();
  killStragglers();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function startServer(usage: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  const dir = mkdtempSync(path.join(tmpdir(), "skillshelf-usage-"));
  dirs.push(dir);
  const example = readFileSync(EXAMPLE_CONFIG, "utf8")
    .replaceAll("./examples/", `${path.join(REPO_ROOT, "examples")}/`)
    .replaceAll("    tags: [docs]\n", "    tags: [docs]\n    watch: false\n")
    .replaceAll('    files: ["shared/**"]\n', '    files: ["shared/**"]\n    watch: false\n');
  const config = path.join(dir, "config.yaml");
  writeFileSync(
    config,
    `${example}\nanonymous: true\nclients:\n  - {name: ops, token: {env: USAGE_OPS_TOKEN}, admin: true}\n` +
      `  - {name: ci, token: {env: USAGE_CI_TOKEN}}\n${usage}`,
  );
  const server = await startHttpServer(["--config", config, "--cache-dir", path.join(dir, "cache")], { env: { ...TOKENS, ...env } });
  servers.push(server);
  return server;
}

async function connect(server: ServerProcess, token: string): Promise<Client> {
  const client = new Client({ name: "usage-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL("/mcp", server.origin), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
  );
  return client;
}

async function health(server: ServerProcess): Promise<Record<string, unknown>> {
  const response = await send(server.origin, { path: "/health", headers: ADMIN });
  return (JSON.parse(response.text) as { usage: Record<string, unknown> }).usage;
}

/** Waits until /health's usage report matches `wanted` (the flush runs on its own timer); fails after `ms`. */
async function healthUntil(
  server: ServerProcess,
  wanted: (usage: Record<string, unknown>) => boolean,
  ms = 120_000,
): Promise<Record<string, unknown>> {
  const deadline = Date.now() + ms;
  for (;;) {
    const usage = await health(server);
    if (wanted(usage)) return usage;
    if (Date.now() > deadline) throw new Error(`usage never reached the wanted state: ${JSON.stringify(usage)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function usageTables(server: ServerProcess, query = ""): Promise<Record<string, unknown>> {
  const response = await send(server.origin, { path: `/usage?days=1${query}`, headers: ADMIN });
  expect(response.status, response.text).toBe(200);
  return JSON.parse(response.text) as Record<string, unknown>;
}

describe("usage counting on the embedded database", () => {
  it("counts each surface's reads and searches by skill and client, exactly", async () => {
    const server = await startServer("usage: {flush: 100ms}\n");
    const ci = await connect(server, "ci-secret-0123456789");
    await ci.readResource({ uri: SKILL_MD });
    await ci.readResource({ uri: SKILL_MD });
    await ci.readResource({ uri: "skill://engineering/code-review/references/checklist.md" });
    await ci.readResource({ uri: "skill://engineering/_index.md" }); // a document, not a skill: not counted
    await getSkill(ci, "skill://writing/release-notes/SKILL.md");
    await ci.callTool({ name: "search_skills", arguments: { query: "  Quantum   Basket-Weaving " } });
    // A search followed by a read of one of its results by the same client, and one that nothing followed.
    const logs = await ci.callTool({ name: "search_skills", arguments: { query: "logs" } });
    expect(JSON.stringify(logs)).toContain("skill://oncall/observability/logs/SKILL.md");
    await ci.callTool({ name: "read_resource", arguments: { uri: "skill://oncall/observability/logs/SKILL.md" } });
    await ci.callTool({ name: "search_skills", arguments: { query: "traces" } });
    // Prompts rendered: over prompts/get and the get_prompt tool; one not found is not counted.
    await ci.getPrompt({ name: "writing_summarize", arguments: { audience: "support", document: "notes" } });
    await ci.callTool({ name: "get_prompt", arguments: { name: "writing_summarize", arguments: { audience: "sre", document: "notes" } } });
    await ci.callTool({ name: "get_prompt", arguments: { name: "writing_nothing" } });
    await ci.close();
    expect((await send(server.origin, { path: "/skills/engineering/code-review" })).status).toBe(200);
    expect((await send(server.origin, { path: "/search?q=quantum+basket-weaving" })).status).toBe(200);
    const artifact = await send(server.origin, { path: "/artifacts/writing/release-notes/changelog/SKILL.md", headers: ADMIN });
    expect(artifact.status).toBe(200);

    // 7 reads of skills (the index read is not one), 4 searches, 1 search followed, 2 prompts.
    await healthUntil(server, (usage) => usage["written"] === 14);
    expect(await health(server)).toMatchObject({
      backend: "embedded",
      state: "up",
      pending: 0,
      dropped: 0,
      written: 14,
      searchesUntracked: 0,
      schemaVersion: 3,
    });
    const tables = await usageTables(server);
    expect(tables["mostRead"]).toEqual([
      { library: "engineering", skill: "code-review", reads: 4, skillMdReads: 3, clients: 2 },
      { library: "oncall", skill: "observability/logs", reads: 1, skillMdReads: 1, clients: 1 },
      { library: "writing", skill: "release-notes", reads: 1, skillMdReads: 1, clients: 1 },
      { library: "writing", skill: "release-notes/changelog", reads: 1, skillMdReads: 1, clients: 1 },
    ]);
    expect(tables["byClient"]).toEqual([
      { client: "ci", surface: "resources/read", reads: 3, skills: 1 },
      { client: "ci", surface: "skills/get", reads: 1, skills: 1 },
      { client: "ci", surface: "tool", reads: 1, skills: 1 },
      { client: "ops", surface: "discovery", reads: 1, skills: 1 },
      { client: "page", surface: "page", reads: 1, skills: 1 },
    ]);
    expect(tables["zeroResultSearches"]).toEqual([{ query: "quantum basket-weaving", searches: 2, zeroResults: 2, clients: 2 }]);
    expect(tables["unfollowedSearches"]).toEqual([{ query: "traces", searches: 1, unfollowed: 1, clients: 1 }]);
    expect(tables["prompts"]).toEqual([{ library: "writing", prompt: "writing_summarize", fetches: 2, clients: 1 }]);
    expect(tables["neverRead"]).toEqual([
      { library: "engineering", skill: "observability/logs", uri: "skill://engineering/observability/logs/SKILL.md" },
      { library: "engineering", skill: "observability/traces", uri: "skill://engineering/observability/traces/SKILL.md" },
      { library: "oncall", skill: "code-review", uri: "skill://oncall/code-review/SKILL.md" },
      { library: "oncall", skill: "observability/traces", uri: "skill://oncall/observability/traces/SKILL.md" },
    ]);
    // The same uses on /metrics: totals by library and surface, never by skill, and the store's own counts.
    const scraped = await send(server.origin, { path: "/metrics", headers: ADMIN });
    const families = new Map(parsePrometheusTextFormat(scraped.text).map((family) => [family.name, family]));
    const series = (name: string): string[] =>
      (families.get(name)?.metrics ?? []).map((sample) => `${JSON.stringify(sample.labels ?? {})} ${sample.value}`).sort();
    expect(series("skillshelf_usage_reads_total")).toEqual([
      '{"library":"engineering","surface":"page"} 1',
      '{"library":"engineering","surface":"resources/read"} 3',
      '{"library":"oncall","surface":"tool"} 1',
      '{"library":"writing","surface":"discovery"} 1',
      '{"library":"writing","surface":"skills/get"} 1',
    ]);
    expect(series("skillshelf_usage_searches_total")).toEqual(['{"surface":"page"} 1', '{"surface":"tool"} 3']);
    expect(series("skillshelf_usage_prompts_total")).toEqual(['{"surface":"prompts/get"} 1', '{"surface":"tool"} 1']);
    expect(series("skillshelf_usage_pending")).toEqual(["{} 0"]);
    expect(series("skillshelf_usage_dropped_total")).toEqual(["{} 0"]);
    expect(series("skillshelf_usage_written_total")).toEqual(["{} 14"]);
    expect(series("skillshelf_usage_searches_untracked_total")).toEqual(["{} 0"]);
    const csv = await send(server.origin, { path: "/usage?days=1&table=zeroResultSearches&format=csv", headers: ADMIN });
    expect(csv.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(csv.text).toBe("query,searches,zeroResults,clients\r\nquantum basket-weaving,2,2,2\r\n");
    const refused = await send(server.origin, { path: "/usage", headers: { Authorization: "Bearer ci-secret-0123456789" } });
    expect(refused.status).toBe(403);
    const bad = await send(server.origin, { path: "/usage?days=0&table=x", headers: ADMIN });
    expect(JSON.parse(bad.text)).toEqual({
      error:
        "days must be an integer from 1 to 400; table must be one of mostRead, neverRead, byClient, zeroResultSearches, unfollowedSearches, prompts",
    });
  }, 180_000);
});

const bin = postgresBin();
describe.skipIf(bin === null)("usage counting on PostgreSQL, through an outage", () => {
  let cluster: TestCluster | undefined;
  afterAll(async () => {
    await cluster?.stop().catch(() => undefined);
  });

  it("keeps serving while the database is down, holds then drops past the buffer, and writes what it held once back", async () => {
    cluster = await TestCluster.create(bin as string);
    const server = await startServer("usage: {flush: 100ms, buffer: 2, database: {env: USAGE_DB}}\n", { USAGE_DB: cluster.url });
    const ci = await connect(server, "ci-secret-0123456789");
    await ci.readResource({ uri: SKILL_MD });
    await healthUntil(server, (usage) => usage["written"] === 1);
    await cluster.stop();
    // Reads succeed while the database is away: two rows fit the buffer, the third skill's reads are dropped.
    for (const uri of [SKILL_MD, SKILL_MD, "skill://writing/release-notes/SKILL.md", "skill://oncall/code-review/SKILL.md"]) {
      const result = await ci.readResource({ uri });
      expect(result.contents[0]?.uri).toBe(uri);
    }
    const down = await healthUntil(server, (usage) => usage["state"] === "down");
    expect(down).toMatchObject({ backend: "postgresql", state: "down", pending: 3, dropped: 1, written: 1 });
    expect(typeof down["lastError"]).toBe("string");
    await cluster.start();
    await healthUntil(server, (usage) => usage["state"] === "up" && usage["pending"] === 0);
    expect(await health(server)).toMatchObject({ state: "up", pending: 0, dropped: 1, written: 4 });
    const tables = await usageTables(server);
    expect(tables["mostRead"]).toEqual([
      { library: "engineering", skill: "code-review", reads: 3, skillMdReads: 3, clients: 1 },
      { library: "writing", skill: "release-notes", reads: 1, skillMdReads: 1, clients: 1 },
    ]);
    await ci.close();
  }, 180_000);
});

describe.skipIf(bin !== null)("usage counting on PostgreSQL", () => {
  it.skip(POSTGRES_MISSING, () => undefined);
});
