// GET /metrics against the built CLI, parsed by a Prometheus text-format parser: exact counts for the requests this
// test made, the rebuild it asked for, the example shelf's libraries, fetch and watch states, the read cache; the
// default process metrics; and admin-only access once clients are declared.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import parsePrometheusTextFormat, { type Family } from "parse-prometheus-text-format";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { send } from "../support/http.js";
import { EXAMPLE_CONFIG, REPO_ROOT, killStragglers, startHttpServer, type ServerProcess } from "../support/process.js";

const TOKENS = { METRICS_OPS_TOKEN: "ops-secret-0123456789", METRICS_READER_TOKEN: "reader-secret-0123456789" };

let dir: string;
let server: ServerProcess;
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "skillshelf-metrics-"));
  // The example shelf, unwatched (so no edit elsewhere can rebuild it), with an admin and a reader.
  const example = readFileSync(EXAMPLE_CONFIG, "utf8")
    .replaceAll("./examples/", `${path.join(REPO_ROOT, "examples")}/`)
    .replaceAll("    tags: [docs]\n", "    tags: [docs]\n    watch: false\n")
    .replaceAll('    files: ["shared/**"]\n', '    files: ["shared/**"]\n    watch: false\n');
  const config = path.join(dir, "config.yaml");
  writeFileSync(
    config,
    `${example}\nanonymous: true\nclients:\n  - name: ops\n    token: {env: METRICS_OPS_TOKEN}\n    admin: true\n` +
      `  - name: reader\n    token: {env: METRICS_READER_TOKEN}\n`,
  );
  server = await startHttpServer(["--config", config, "--cache-dir", path.join(dir, "cache")], { env: TOKENS });
});
afterAll(async () => {
  await server?.stop();
  killStragglers();
  rmSync(dir, { recursive: true, force: true });
});

const ADMIN = { Authorization: "Bearer ops-secret-0123456789" };

async function scrape(): Promise<Map<string, Family>> {
  const response = await send(server.origin, { path: "/metrics", headers: ADMIN });
  expect(response.status).toBe(200);
  expect(response.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
  return new Map(parsePrometheusTextFormat(response.text).map((family) => [family.name, family]));
}

/** `{labels} value` rows of one family, sorted, for exact comparison. */
function rows(families: Map<string, Family>, name: string): string[] {
  const family = families.get(name);
  if (family === undefined) throw new Error(`no metric ${name}`);
  return family.metrics.map((sample) => `${JSON.stringify(sample.labels ?? {})} ${sample.value ?? sample.count}`).sort();
}

describe("GET /metrics", () => {
  it("is for admin clients once clients are declared", async () => {
    expect((await send(server.origin, { path: "/metrics" })).status).toBe(401);
    expect((await send(server.origin, { path: "/metrics", headers: { Authorization: "Bearer reader-secret-0123456789" } })).status).toBe(
      403,
    );
  });

  it("counts requests, rebuilds and reads, and describes the shelf", async () => {
    const client = new Client({ name: "metrics-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(server.url));
    for (let i = 0; i < 2; i++) await client.readResource({ uri: "skill://engineering/shared/style-guide.md" });
    await client.close();
    expect((await send(server.origin, { path: "/health", headers: { Host: "evil.example" } })).status).toBe(403);
    expect((await send(server.origin, { method: "POST", path: "/reindex", headers: ADMIN })).status).toBe(200);

    const families = await scrape();
    expect(families.get("skillshelf_http_requests_total")?.type).toBe("COUNTER");
    expect(rows(families, "skillshelf_http_requests_total")).toEqual([
      '{"route":"/health","method":"GET","outcome":"refused"} 1',
      // The GET stream of the client's session, open until the client closed its connection.
      '{"route":"/mcp","method":"GET","outcome":"aborted"} 1',
      '{"route":"/mcp","method":"initialize","outcome":"ok"} 1',
      '{"route":"/mcp","method":"notification","outcome":"ok"} 1',
      '{"route":"/mcp","method":"resources/read","outcome":"ok"} 2',
      '{"route":"/metrics","method":"GET","outcome":"refused"} 2',
      '{"route":"/reindex","method":"POST","outcome":"ok"} 1',
    ]);
    // The parser folds a labelled histogram's series together; its type is what it reads faithfully.
    expect(families.get("skillshelf_http_request_duration_seconds")?.type).toBe("HISTOGRAM");

    // Two rebuilds, neither changing anything: the start-up rescan once the watches are set up (queued before the
    // server listens), then the reindex this test asked for (queued behind it, done when POST /reindex answered).
    expect(rows(families, "skillshelf_rebuilds_total")).toEqual(['{"result":"unchanged"} 2']);
    const rebuilt = families.get("skillshelf_rebuild_duration_seconds");
    expect([rebuilt?.type, rebuilt?.metrics[0]?.count, rebuilt?.metrics[0]?.buckets?.["+Inf"]]).toEqual(["HISTOGRAM", "2", "2"]);
    expect(rows(families, "skillshelf_generation")).toEqual(["{} 1"]);
    // The client closed without ending its session: it stays open until it has been idle for --session-idle-seconds.
    expect(rows(families, "skillshelf_mcp_sessions")).toEqual(["{} 1"]);
    expect(rows(families, "skillshelf_mcp_sessions_opened_total")).toEqual(["{} 1"]);
    expect(rows(families, "skillshelf_skills")).toEqual([
      '{"library":"engineering"} 3',
      '{"library":"oncall"} 3',
      '{"library":"writing"} 2',
    ]);
    expect(rows(families, "skillshelf_prompts")).toEqual([
      '{"library":"engineering"} 1',
      '{"library":"oncall"} 1',
      '{"library":"writing"} 2',
    ]);
    expect(rows(families, "skillshelf_skipped")).toEqual([
      '{"library":"engineering"} 0',
      '{"library":"oncall"} 0',
      '{"library":"writing"} 1',
    ]);
    expect(rows(families, "skillshelf_dangling")).toEqual([
      '{"library":"engineering"} 0',
      '{"library":"oncall"} 0',
      '{"library":"writing"} 0',
    ]);
    expect(rows(families, "skillshelf_conflicts")).toEqual([
      '{"library":"engineering"} 0',
      '{"library":"oncall"} 0',
      '{"library":"writing"} 0',
    ]);
    const fetches = ["./examples/engineering-kit", "./examples/writing-kit"].map((f) => path.join(REPO_ROOT, f.slice(2)) + "");
    expect(rows(families, "skillshelf_fetch_status").filter((row) => row.endsWith(" 1"))).toEqual(
      fetches.map((fetch) => `{"fetch":"${fetch}","status":"ok"} 1`),
    );
    expect(rows(families, "skillshelf_fetch_watch").filter((row) => row.endsWith(" 1"))).toEqual(
      fetches.map((fetch) => `{"fetch":"${fetch}","state":"off"} 1`),
    );
    expect(rows(families, "skillshelf_fetch_cooling")).toEqual(fetches.map((fetch) => `{"fetch":"${fetch}"} 0`));
    expect([rows(families, "skillshelf_read_cache_misses_total"), rows(families, "skillshelf_read_cache_hits_total")]).toEqual([
      ["{} 1"],
      ["{} 1"],
    ]);
    // prom-client's default process metrics.
    for (const name of ["process_cpu_user_seconds_total", "process_resident_memory_bytes", "nodejs_heap_size_used_bytes"]) {
      expect(families.has(name)).toBe(true);
    }
  });

  it("counts the listen streams open and the scopes they are grouped in", async () => {
    const pinned = { versionNegotiation: { mode: { pin: "2026-07-28" as const } } };
    const urls = [new URL(`${server.url}?library=writing`), new URL(`${server.url}?library=writing`), server.url];
    const open = await Promise.all(
      urls.map(async (url) => {
        const client = new Client({ name: "listener", version: "1.0.0" }, pinned);
        await client.connect(new StreamableHTTPClientTransport(url));
        return { client, listen: await client.listen({ resourcesListChanged: true }) };
      }),
    );
    const families = await scrape();
    expect(rows(families, "skillshelf_mcp_listen_streams")).toEqual(["{} 3"]);
    expect(rows(families, "skillshelf_mcp_listen_scopes")).toEqual(["{} 2"]);
    for (const { client, listen } of open) await (listen.close(), client.close());
    let after = await scrape();
    for (let tries = 0; tries < 100 && rows(after, "skillshelf_mcp_listen_streams")[0] !== "{} 0"; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      after = await scrape();
    }
    expect(rows(after, "skillshelf_mcp_listen_streams")).toEqual(["{} 0"]);
    expect(rows(after, "skillshelf_mcp_listen_scopes")).toEqual(["{} 0"]);
  });
});
