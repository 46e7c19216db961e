// One caller floods what costs the server state — sign-in starts, spellings of scopes, sessions — all at once, while
// another caller reads. The other caller must get every answer, exactly, during the flood and after it, and can still
// open a session; so can an admin. The same run's latencies are printed; `npm run bench -- availability` reports them
// as figures (a test never asserts time).
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { initializeBody, MCP_HEADERS, send } from "../support/http.js";
import { TOKENS } from "../web/fixture.js";
import { startOidcPage, type OidcPage } from "../web/oidc-fixture.js";

const FLOOD = {
  signIns: Number(process.env["AVAILABILITY_SIGNINS"] ?? 600),
  spellings: Number(process.env["AVAILABILITY_SPELLINGS"] ?? 120),
  sessions: Number(process.env["AVAILABILITY_SESSIONS"] ?? 60),
};
const VICTIM_READS = Number(process.env["AVAILABILITY_READS"] ?? 100);
const VAULT = "skill://secret/vault-rotation/SKILL.md";

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "availability", version: "1" },
};
/** A 2026-07-28 request: no session, so every one goes through identification, scope and the shelf. */
function modern(token: string, method: string, name: string, params: object, extra: Record<string, string> = {}) {
  return {
    method: "POST",
    path: "/mcp",
    headers: {
      ...MCP_HEADERS,
      Authorization: `Bearer ${token}`,
      "Mcp-Protocol-Version": "2026-07-28",
      "Mcp-Method": method,
      "Mcp-Name": name,
      ...extra,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: META } }),
  };
}

const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

describe("availability under one caller's flood", () => {
  let page: OidcPage;
  let expected: string;

  beforeAll(async () => {
    page = await startOidcPage("127.0.0.1", {
      sessions: { max: 20, idleMs: 60_000 },
      config: (text) => text.replace("source: ./pub-kit,", "source: ./pub-kit, tags: [infra, drift],"),
    });
    const answer = await send(page.origin, modern(TOKENS.secretOnly, "resources/read", VAULT, { uri: VAULT }));
    expected = (JSON.parse(answer.text) as { result: { contents: { text: string }[] } }).result.contents[0]?.text ?? "";
    expect(expected).toContain("name: vault-rotation");
  }, 60_000);
  afterAll(async () => {
    await page?.close();
  });

  it("another caller's reads all succeed during sign-in starts, scope spellings and session opens from one caller", async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
    const counts = { signIns: 0, spellings: 0, sessionsOpened: 0, sessionsRefused: 0 };
    const floodSignIns = async (): Promise<void> => {
      await Promise.all(
        Array.from({ length: 8 }, async (_, worker) => {
          for (let i = worker; i < FLOOD.signIns; i += 8) {
            const status = await new Promise<number>((resolve, reject) => {
              http
                .get(`${page.origin}/signin/oidc`, { agent }, (res) => {
                  res.resume();
                  res.once("end", () => resolve(res.statusCode ?? 0));
                })
                .once("error", reject);
            });
            if (status === 303) counts.signIns++;
          }
        }),
      );
    };
    // Spellings of one narrowing of the reader's ceiling (`drift` repeated as all-of parts and as any-of items, with
    // and without `infra`): each request a new text, few scopes, and a search on each.
    const floodSpellings = async (): Promise<void> => {
      for (let i = 0; i < FLOOD.spellings; i++) {
        const items = Array.from({ length: 1 + (i % 9) }, (_, n) => (n % 3 === 2 ? "drift,infra" : "drift"));
        const tags = items.join(i % 2 === 0 ? "; " : ";");
        const answer = await send(
          page.origin,
          modern(
            TOKENS.reader,
            "tools/call",
            "search_skills",
            { name: "search_skills", arguments: { query: `terraform ${i}` } },
            {
              "X-Skill-Library": "pub",
              "X-Skill-Tags": tags,
            },
          ),
        );
        const result = (JSON.parse(answer.text) as { result?: { isError?: boolean; content?: unknown[] } }).result;
        if (answer.status === 200 && result !== undefined && result.isError !== true) counts.spellings++;
      }
    };
    const floodSessions = async (): Promise<void> => {
      for (let i = 0; i < FLOOD.sessions; i++) {
        const answer = await send(page.origin, {
          method: "POST",
          path: "/mcp",
          headers: { ...MCP_HEADERS, Authorization: `Bearer ${TOKENS.reader}` },
          body: initializeBody(),
        });
        if (answer.status === 200) counts.sessionsOpened++;
        else if (answer.status === 503) counts.sessionsRefused++;
      }
    };
    let failures = 0;
    const victim = async (latencies: number[]): Promise<void> => {
      for (let i = 0; i < VICTIM_READS; i++) {
        const started = performance.now();
        const answer = await send(page.origin, modern(TOKENS.secretOnly, "resources/read", VAULT, { uri: VAULT }));
        latencies.push(performance.now() - started);
        const text = (JSON.parse(answer.text) as { result?: { contents?: { text?: string }[] } }).result?.contents?.[0]?.text;
        if (answer.status !== 200 || text !== expected) failures++;
      }
      latencies.sort((a, b) => a - b);
    };
    const figures = (latencies: readonly number[]): string =>
      `p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms, max ${(latencies.at(-1) ?? 0).toFixed(1)} ms`;

    // The same reads alone first: what the flood's figures compare with.
    const quiet: number[] = [];
    await victim(quiet);
    const flooded: number[] = [];
    await Promise.all([floodSignIns(), floodSpellings(), floodSessions(), victim(flooded)]);
    agent.destroy();
    console.log(
      `availability: the other caller's ${VICTIM_READS} reads alone ${figures(quiet)}; during the flood ${JSON.stringify(FLOOD)} ` +
        `${figures(flooded)}; flood answered ${JSON.stringify(counts)}`,
    );

    expect(failures).toBe(0);
    expect([quiet.length, flooded.length]).toEqual([VICTIM_READS, VICTIM_READS]);
    // The flood was served as the server serves anyone: every sign-in start redirected, every spelling answered,
    // and the reader's sessions held to its share (it makes room among its own, so none is refused).
    expect(counts).toEqual({ signIns: FLOOD.signIns, spellings: FLOOD.spellings, sessionsOpened: FLOOD.sessions, sessionsRefused: 0 });
    // After it, the other caller and an admin still open sessions.
    for (const token of [TOKENS.secretOnly, TOKENS.ops]) {
      const opened = await send(page.origin, {
        method: "POST",
        path: "/mcp",
        headers: { ...MCP_HEADERS, Authorization: `Bearer ${token}` },
        body: initializeBody(),
      });
      expect(opened.status).toBe(200);
      expect(opened.headers["mcp-session-id"]).toEqual(expect.any(String));
    }
  }, 120_000);
});
