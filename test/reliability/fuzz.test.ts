// Hostile URIs against the built server over HTTP, through `resources/read` and the `read_resource` tool, for a
// caller whose ceiling is one library: 0 escapes, 0 internal errors. `npm test` runs a small sample;
// `npm run fuzz` runs FUZZ_URIS of them (100,000) and prints the figures docs/reliability.md records.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killStragglers, startHttpServer, type ServerProcess } from "../support/process.js";
import { ALPHA_BODY, writeHostileFixture, type HostileFixture } from "./hostile-fixture.js";
import { sampleHostileUris } from "./hostile-uris.js";
import { parseRpcAnswer, runFuzz } from "./fuzz-run.js";

const URIS = Number(process.env["FUZZ_URIS"] ?? 1_000);
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
    `answers ${URIS} generated URIs through both surfaces with 0 escapes and 0 internal errors`,
    async () => {
      const uris = sampleHostileUris(URIS, SEED);
      const figures = await runFuzz({ endpoint: server.url.href, uris, concurrency: 8, fixtureDir: fixture.dir, library: "lib" });
      const { findings, ...counts } = figures;
      console.log(`fuzz figures (seed ${SEED}): ${JSON.stringify(counts)}`);
      expect(findings).toEqual([]);
      expect(counts.escapes).toBe(0);
      expect(counts.internalErrors).toBe(0);
      expect(counts.answers).toBe(2 * URIS);
      // The sample reaches real files too, so "0 escapes" is not the emptiness of a server that serves nothing.
      expect(counts.served).toBeGreaterThan(0);
      expect(counts.served + counts.refused).toBe(2 * URIS);
    },
    LONG_RUN ? 0 : 60_000,
  );
});
