// Hostile URIs against the built server over HTTP, through every surface that takes an address (`resources/read`,
// the `read_resource` tool, `skills/get`, `resources/directory/read` and the page's file routes), for a caller
// whose ceiling is one library: 0 escapes, 0 internal errors. `npm test` runs a small sample; `npm run fuzz` runs
// FUZZ_URIS of them and prints the figures docs/reliability.md records.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killStragglers, startHttpServer, type ServerProcess } from "../support/process.js";
import { ALPHA_BODY, writeHostileFixture, type HostileFixture } from "./hostile-fixture.js";
import { sampleHostileUris } from "./hostile-uris.js";
import { PAGE_ROUTES, RPC_SURFACES, parseRpcAnswer, runFuzz } from "./fuzz-run.js";

const SURFACES = RPC_SURFACES.length + 1;

const URIS = Number(process.env["FUZZ_URIS"] ?? 600);
const SEED = Number(process.env["FUZZ_SEED"] ?? 20_261_201);
const LONG_RUN = URIS > 10_000;

afterAll(killStragglers);

describe("hostile URIs over HTTP", () => {
  let fixture: HostileFixture;
  let server: ServerProcess;

  beforeAll(async () => {
    fixture = writeHostileFixture();
    server = await startHttpServer(["--config", fixture.config, "--cache-dir", `${fixture.dir}/cache`]);
  });
  afterAll(async () => {
    await server?.stop();
    fixture?.remove();
  });

  it("serves the caller's own skill (the fixture is live)", async () => {
    const response = await fetch(server.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "resources/read", params: { uri: "skill://lib/alpha/SKILL.md" } }),
    });
    const answer = parseRpcAnswer(await response.text());
    expect(answer?.result?.contents?.[0]?.uri).toBe("skill://lib/alpha/SKILL.md");
    expect(String(answer?.result?.contents?.[0]?.text)).toContain(ALPHA_BODY);
  });

  it(
    `answers ${URIS} generated URIs through ${RPC_SURFACES.join(", ")} and the page (${PAGE_ROUTES.join(", ")}) with 0 escapes and 0 internal errors`,
    async () => {
      const uris = sampleHostileUris(URIS, SEED);
      const figures = await runFuzz({ endpoint: server.url.href, uris, concurrency: 8, fixtureDir: fixture.dir, library: "lib" });
      const { findings, ...counts } = figures;
      console.log(`fuzz figures (seed ${SEED}): ${JSON.stringify(counts)}`);
      expect(findings).toEqual([]);
      expect(counts.escapes).toBe(0);
      expect(counts.internalErrors).toBe(0);
      expect(counts.answers).toBe(SURFACES * URIS);
      // The sample reaches real files on every surface, so "0 escapes" is not the emptiness of a surface that serves
      // nothing.
      for (const [surface, served] of Object.entries(counts.servedBy)) expect(served, surface).toBeGreaterThan(0);
      expect(counts.served + counts.refused).toBe(SURFACES * URIS);
    },
    LONG_RUN ? 0 : 60_000,
  );
});
