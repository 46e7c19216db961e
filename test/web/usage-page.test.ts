// The admins' usage view (/status/usage) and GET /usage through the real app, over the embedded usage database:
// each table paged, only what the viewer's scope sees, the search tables refused to an admin who does not see the
// whole shelf, and non-admins refused as on /status.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/index.js";
import type { Client } from "../../src/http/access.js";
import { UsageTap } from "../../src/http/usage.js";
import { ShelfService } from "../../src/live/index.js";
import { openEmbedded, UsageStore } from "../../src/store/index.js";
import { send } from "../support/http.js";
import { serveApp, type ServedApp } from "../support/http-app.js";
import { tempDir } from "../support/temp.js";
import { CLIENTS, TOKENS, writeWebShelf } from "./fixture.js";

const T0 = new Date("2026-03-10T12:00:00Z");
const PUB_ADMIN = "tok-pub-admin-5c8e21d0b4";
const clients: readonly Client[] = [...CLIENTS, { name: "pub-admin", token: PUB_ADMIN, scope: { library: "pub" }, admin: true }];
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const DRIFT = "skill://pub/guides/terraform-drift/SKILL.md";

let service: ShelfService;
let store: UsageStore;
let served: ServedApp;
beforeAll(async () => {
  service = await ShelfService.start(await loadConfig(writeWebShelf().configPath), () => T0);
  store = new UsageStore({
    backend: "embedded",
    open: () => openEmbedded(path.join(tempDir("skillshelf-usage-page-"), "pglite")),
    now: () => T0,
    flushMs: 60_000,
    buffer: 1000,
    retentionMs: 400 * 86_400_000,
  });
  const usage = new UsageTap({ store, shelf: () => service.holder.current, claim: "groups", now: () => T0 });
  // 55 clients read one skill of pub; ops reads the one of secret, searches twice (one followed) and renders a prompt.
  for (let i = 0; i < 55; i++) usage.count(`client-${String(i).padStart(2, "0")}`, { kind: "read", uri: DRIFT, surface: "tool" });
  usage.count("ops", { kind: "search", query: "zebrafish", found: [], surface: "page" });
  usage.count("ops", { kind: "search", query: "drift", found: [DRIFT], surface: "tool" });
  usage.count("ops", { kind: "search", query: "vault", found: ["skill://secret/vault-rotation/SKILL.md"], surface: "tool" });
  usage.count("ops", { kind: "read", uri: "skill://secret/vault-rotation/SKILL.md", surface: "resources/read" });
  usage.count("ops", { kind: "prompt", library: "pub", name: "pub_triage", surface: "prompts/get" });
  await store.flush();
  expect(store.status()).toMatchObject({ state: "up", pending: 0, written: 55 + 3 + 1 + 1 + 1 });
  served = await serveApp(service, { access: { clients, anonymous: false }, usage });
}, 120_000);
afterAll(async () => {
  await served?.close();
  await store?.close();
  await service?.close();
});

/** The cells of each body row of the page's table. */
function cells(page: string): string[][] {
  const body = /<tbody>([\s\S]*?)<\/tbody>/.exec(page)?.[1] ?? "";
  return [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((row) =>
    [...(row[1] ?? "").matchAll(/<td>([^<]*)<\/td>/g)].map((cell) => cell[1] ?? ""),
  );
}

describe("the admins' usage view", () => {
  it("shows the most read skills to an admin of the whole shelf, and only pub's to an admin of pub", async () => {
    const whole = await send(served.origin, { path: "/status/usage", headers: bearer(TOKENS.ops) });
    expect(whole.status).toBe(200);
    expect(cells(whole.text)).toEqual([
      ["pub", "guides/terraform-drift", "55", "55", "55"],
      ["secret", "vault-rotation", "1", "1", "1"],
    ]);
    const pub = await send(served.origin, { path: "/status/usage?table=mostRead30", headers: bearer(PUB_ADMIN) });
    expect(cells(pub.text)).toEqual([["pub", "guides/terraform-drift", "55", "55", "55"]]);
    const never = await send(served.origin, { path: "/status/usage?table=neverRead", headers: bearer(PUB_ADMIN) });
    expect(cells(never.text)).toEqual([
      ["pub", "guides/release-checklist"],
      ["pub", "hostile"],
    ]);
    const prompts = await send(served.origin, { path: "/status/usage?table=prompts", headers: bearer(TOKENS.ops) });
    expect(cells(prompts.text)).toEqual([["pub", "pub_triage", "1", "1"]]);
  });

  it("pages a table by previous and next links", async () => {
    const first = await send(served.origin, { path: "/status/usage?table=byClient", headers: bearer(TOKENS.ops) });
    const rows = cells(first.text);
    expect(rows.length).toBe(50);
    expect(rows[0]).toEqual(["client-00", "tool", "1", "1"]);
    expect(first.text).toContain('href="/status/usage?table=byClient&amp;page=2" rel="next"');
    const second = await send(served.origin, { path: "/status/usage?table=byClient&page=2", headers: bearer(TOKENS.ops) });
    expect(cells(second.text)).toEqual([
      ...[50, 51, 52, 53, 54].map((i) => [`client-${i}`, "tool", "1", "1"]),
      ["ops", "resources/read", "1", "1"],
    ]);
    expect(second.text).toContain('href="/status/usage?table=byClient" rel="prev"');
    expect(second.text).not.toContain('rel="next"');
    expect((await send(served.origin, { path: "/status/usage?table=byClient&page=3", headers: bearer(TOKENS.ops) })).status).toBe(400);
    expect((await send(served.origin, { path: "/status/usage?table=everything", headers: bearer(TOKENS.ops) })).status).toBe(400);
  });

  it("shows searches to an admin of the whole shelf only", async () => {
    const zero = await send(served.origin, { path: "/status/usage?table=zeroResultSearches", headers: bearer(TOKENS.ops) });
    expect(cells(zero.text)).toEqual([["zebrafish", "1", "1", "1"]]);
    const unfollowed = await send(served.origin, { path: "/status/usage?table=unfollowedSearches", headers: bearer(TOKENS.ops) });
    expect(cells(unfollowed.text)).toEqual([["drift", "1", "1", "1"]]);
    const refused = await send(served.origin, { path: "/status/usage?table=unfollowedSearches", headers: bearer(PUB_ADMIN) });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain("searches are shown only to an admin whose scope sees the whole shelf: a query names no skill");
  });

  it("refuses non-admins exactly as the health view does", async () => {
    for (const headers of [bearer(TOKENS.reader), {}]) {
      const health = await send(served.origin, { path: "/status", headers });
      const usage = await send(served.origin, { path: "/status/usage", headers });
      expect(usage.status).toBe(health.status);
      expect(usage.status).not.toBe(200);
    }
  });
});

describe("GET /usage, scoped", () => {
  it("answers an admin of pub pub's rows without the search tables, and refuses them a search table", async () => {
    const response = await send(served.origin, { path: "/usage?days=1", headers: bearer(PUB_ADMIN) });
    expect(JSON.parse(response.text)).toEqual({
      days: 1,
      limit: 50,
      offset: 0,
      scope: "partial",
      mostRead: [{ library: "pub", skill: "guides/terraform-drift", reads: 55, skillMdReads: 55, clients: 55 }],
      neverRead: [
        { library: "pub", skill: "guides/release-checklist", uri: "skill://pub/guides/release-checklist/SKILL.md" },
        { library: "pub", skill: "hostile", uri: "skill://pub/hostile/SKILL.md" },
      ],
      byClient: [
        ...Array.from({ length: 50 }, (_, i) => ({ client: `client-${String(i).padStart(2, "0")}`, surface: "tool", reads: 1, skills: 1 })),
      ],
      prompts: [{ library: "pub", prompt: "pub_triage", fetches: 1, clients: 1 }],
    });
    const csv = await send(served.origin, { path: "/usage?table=zeroResultSearches&format=csv", headers: bearer(PUB_ADMIN) });
    expect(csv.status).toBe(403);
    const whole = await send(served.origin, { path: "/usage?table=unfollowedSearches&format=csv", headers: bearer(TOKENS.ops) });
    expect(whole.text).toBe("query,searches,unfollowed,clients\r\ndrift,1,1,1\r\n");
  });
});
