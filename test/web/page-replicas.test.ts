// Two replicas of one page on one PostgreSQL, signing in with a real OpenID provider: a browser signed in on one is
// signed in on the other, a sign-in started on one finishes on the other (the provider's redirect back may reach
// any replica behind a balancer), and a sign-out on either ends the session on both. What makes it work: the
// sessions and the key that seals a sign-in under way live in the store the replicas share.
import makeFetchCookie from "fetch-cookie";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgres, UsageStore } from "../../src/store/index.js";
import { POSTGRES_MISSING, postgresBin, TestCluster } from "../support/postgres.js";
import { until } from "../support/wait.js";
import { TOKENS } from "./fixture.js";
import { startOidcPage, type OidcReplicas } from "./oidc-fixture.js";

const DAY = 86_400_000;
const bin = postgresBin();

async function pageOf(browser: typeof fetch, origin: string, path = "/"): Promise<{ status: number; text: string }> {
  const response = await browser(`${origin}${path}`, { redirect: "manual" });
  return { status: response.status, text: await response.text() };
}

if (bin === null) {
  describe("page sessions across replicas", () => {
    it.skip(POSTGRES_MISSING, () => undefined);
  });
} else {
  describe("page sessions across replicas on one PostgreSQL", () => {
    let cluster: TestCluster;
    let served: OidcReplicas;
    const stores: UsageStore[] = [];

    beforeAll(async () => {
      cluster = await TestCluster.create(bin);
      served = await startOidcPage("127.0.0.1", {
        replicas: 2,
        store: () => {
          const store = new UsageStore({
            backend: "postgresql",
            open: () => openPostgres(cluster.url, { connectTimeoutSeconds: 2 }),
            now: () => new Date(),
            flushMs: 60_000,
            buffer: 1_000,
            retentionMs: 400 * DAY,
          });
          stores.push(store);
          return store;
        },
      });
      await until("both replicas' stores are up", () => stores.every((store) => store.status().state === "up"));
    }, 180_000);

    afterAll(async () => {
      await served?.close();
      await cluster?.stop();
    });

    /** The whole flow in a browser: the link on replica `start`, the provider, the callback on replica `back`. */
    async function signIn(user: string, start: number, back: number): Promise<typeof fetch> {
      const browser = makeFetchCookie(fetch);
      const origins = served.origins;
      const begin = await browser(`${origins[start]}/signin/oidc`, { redirect: "manual" });
      await begin.body?.cancel();
      expect(begin.status).toBe(303);
      const callback = await served.provider.authorize(new URL(begin.headers.get("location") ?? ""), user, {
        browser,
        callback: `${served.origin}/signin/oidc/callback`,
      });
      const onReplica = new URL(callback.href);
      onReplica.port = new URL(origins[back] as string).port;
      const answer = await browser(onReplica.href, { redirect: "manual" });
      await answer.body?.cancel();
      expect([answer.status, answer.headers.get("location")]).toEqual([303, "/"]);
      return browser;
    }

    it("serves one session from either replica, and a sign-in started on one finishes on the other", async () => {
      const [first, second] = served.origins as [string, string];
      const browser = await signIn("alice", 0, 1);
      for (const origin of [first, second]) {
        const home = await pageOf(browser, origin);
        expect([home.status, home.text.includes("Signed in as <strong>alice</strong>")]).toEqual([200, true]);
        expect(home.text).toContain('<a href="/libraries/pub">pub</a>');
        expect(home.text).not.toContain('<a href="/libraries/secret">secret</a>');
      }
      const rows = await (await (stores[0] as UsageStore).reader()).query("SELECT count(*)::int AS n FROM page_sessions");
      expect(rows[0]?.["n"]).toBeGreaterThanOrEqual(1);
    });

    it("ends the session on both replicas when it is signed out on one", async () => {
      const [first, second] = served.origins as [string, string];
      const browser = await signIn("bob", 1, 0);
      const home = await pageOf(browser, second);
      expect(home.text).toContain("Signed in as <strong>bob</strong>");
      const csrf = /name="csrf" value="([^"]+)"/.exec(home.text)?.[1] ?? "";
      const out = await browser(`${second}/signout`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: second },
        body: new URLSearchParams({ csrf }).toString(),
      });
      await out.body?.cancel();
      expect(out.status).toBe(303);
      for (const origin of [first, second]) {
        const after = await pageOf(browser, origin);
        expect([after.status, after.text.includes("Signed in as")]).toEqual([401, false]);
      }
    });

    it("counts reads on both replicas into the same rows, and the sums are exact", async () => {
      const uri = "skill://pub/guides/terraform-drift/SKILL.md";
      const reads = [3, 5];
      for (const [index, origin] of served.origins.entries()) {
        for (let i = 0; i < (reads[index] as number); i++) {
          const response = await fetch(`${origin}/mcp`, {
            method: "POST",
            headers: {
              authorization: `Bearer ${TOKENS.reader}`,
              "content-type": "application/json",
              accept: "application/json, text/event-stream",
              "mcp-protocol-version": "2025-06-18",
            },
            body: JSON.stringify({ jsonrpc: "2.0", id: i, method: "resources/read", params: { uri } }),
          });
          expect(response.status).toBe(200);
          await response.text();
        }
      }
      for (const store of stores) await store.flush();
      const rows = await (
        await (stores[0] as UsageStore).reader()
      ).query("SELECT client, surface, sum(reads)::int AS reads FROM usage_reads WHERE skill = $1 GROUP BY client, surface", [
        "guides/terraform-drift",
      ]);
      expect(rows).toEqual([{ client: "reader", surface: "resources/read", reads: 8 }]);
    });

    it("keeps serving the session on the replica left when the other stops", async () => {
      const [, second] = served.origins as [string, string];
      const browser = await signIn("root", 0, 0);
      await served.stopReplica(0);
      const home = await pageOf(browser, second);
      expect([home.status, home.text.includes("Signed in as <strong>root</strong>")]).toEqual([200, true]);
    });
  });
}
