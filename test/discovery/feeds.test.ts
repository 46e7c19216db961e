// Personal install links on the connect panel: a signed-in viewer's link installs exactly their scope, a link is
// never a metric label or a request record, the panel says why there is no link when there is none, and the
// config's `feeds` key is checked like every other.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { parseConfig } from "../../src/config/index.js";
import { FeedTokens } from "../../src/http/feeds.js";
import { ServerMetrics, type RequestRecord } from "../../src/http/metrics.js";
import { CLIENTS, serveWeb, TOKENS, writeWebShelf, type Served } from "../web/fixture.js";

const SECRET = new Uint8Array(48).fill(3);
const records: RequestRecord[] = [];
const metrics = new ServerMetrics((record) => records.push(record));
let served: Served;
let plain: Served;

beforeAll(async () => {
  const shelf = writeWebShelf();
  const feeds = new FeedTokens({ secret: SECRET, lifetimeSeconds: 3600, revoked: new Set() }, CLIENTS);
  served = await serveWeb(shelf.configPath, { anonymous: false, feeds, metrics });
  plain = await serveWeb(shelf.configPath, { anonymous: { library: "pub" } });
});
afterAll(async () => {
  await served.close();
  await plain.close();
});

const decode = (text: string): string => text.replace(/&#39;/g, "'").replace(/&amp;/g, "&");

/** The link in the panel's Claude Code install command. */
function linkIn(page: string): string {
  const found = /npx skills add '([^']+)' -a claude-code -g -y/.exec(decode(page));
  if (found === null) throw new Error("the panel shows no install command");
  return found[1] as string;
}

async function names(base: string): Promise<string[]> {
  const answer = await fetch(`${base}/.well-known/agent-skills/index.json`);
  expect(answer.status).toBe(200);
  const index = (await answer.json()) as { skills: { name: string }[] };
  return index.skills.map((skill) => skill.name).sort();
}

describe("personal install links", () => {
  test("a signed-in viewer's panel gives a link that installs their scope and nothing more", async () => {
    const page = await fetch(`${served.origin}/connect`, { headers: { Authorization: `Bearer ${TOKENS.reader}` } });
    expect(page.status).toBe(200);
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    expect(page.headers.get("cache-control")).toBe("no-store");
    const text = await page.text();
    const link = linkIn(text);
    expect(link).toMatch(new RegExp(`^${served.origin}/feeds/[A-Za-z0-9_.-]+$`));
    for (const agent of ["codex", "github-copilot", "cursor", "gemini-cli", "opencode", "goose"]) {
      expect(decode(text)).toContain(`npx skills add '${link}' -a ${agent} -g -y`);
    }
    expect(await names(link)).toEqual(["hostile", "release-checklist", "terraform-drift"]);
    // The admin's link sees the other library too; without a link the server refuses as /mcp does.
    const admin = linkIn(await (await fetch(`${served.origin}/connect`, { headers: { Authorization: `Bearer ${TOKENS.ops}` } })).text());
    expect(await names(admin)).toEqual(["hostile", "release-checklist", "terraform-drift", "vault-rotation"]);
    expect((await fetch(`${served.origin}/.well-known/agent-skills/index.json`)).status).toBe(401);
  });

  test("a library chosen on the panel narrows the link", async () => {
    const page = await fetch(`${served.origin}/connect?library=secret`, { headers: { Authorization: `Bearer ${TOKENS.ops}` } });
    const link = linkIn(await page.text());
    expect(link).toMatch(/\/libraries\/secret$/);
    expect(await names(link)).toEqual(["vault-rotation"]);
  });

  test("a link's token is never a metric label nor in a request record", async () => {
    const page = await fetch(`${served.origin}/connect`, { headers: { Authorization: `Bearer ${TOKENS.reader}` } });
    const link = linkIn(await page.text());
    const token = /\/feeds\/([^/]+)/.exec(link)?.[1] as string;
    const index = (await (await fetch(`${link}/.well-known/agent-skills/index.json`)).json()) as { skills: { url: string }[] };
    const artifact = new URL(index.skills[0]?.url as string, `${link}/.well-known/agent-skills/index.json`);
    expect((await fetch(artifact)).status).toBe(200);
    await fetch(`${served.origin}/feeds/${token}x/.well-known/agent-skills/index.json`);
    const exposition = await (await fetch(`${served.origin}/metrics`, { headers: { Authorization: `Bearer ${TOKENS.ops}` } })).text();
    expect(exposition).toContain('route="/.well-known/agent-skills/index.json"');
    expect(exposition).toContain('route="/artifacts"');
    expect(exposition).not.toContain(token);
    expect(JSON.stringify(records)).not.toContain(token);
    expect(records.filter((record) => record.route === "/artifacts").length).toBeGreaterThan(0);
  });

  test("the panel says why there is no link", async () => {
    const noFeeds = decode(
      await (await fetch(`${plain.origin}/connect`, { headers: { Authorization: `Bearer ${TOKENS.reader}` } })).text(),
    );
    expect(noFeeds).not.toContain("npx skills add");
    expect(noFeeds).not.toContain("/feeds/");
    expect(noFeeds).toContain("this server issues no personal install links");
    // An anonymous visitor of a server open to anonymous callers installs what they may read, from the server itself.
    const open = decode(await (await fetch(`${plain.origin}/connect`)).text());
    expect(linkIn(open)).toBe(plain.origin);
    expect(await names(linkIn(open))).toEqual(["hostile", "release-checklist", "terraform-drift"]);
  });
});

describe("the feeds key", () => {
  const parse = (feeds: string) =>
    parseConfig(`plugins:\n  - {name: kit, source: ./kit}\nlibraries:\n  - {name: pub, plugins: [kit]}\n${feeds}`, "skillshelf.yaml", "/");
  test("takes a secret from the environment, a lifetime (90 days when not given) and revoked ids", () => {
    const given = parse("feeds:\n  secret: {env: FEED_SECRET}\n  lifetime: 30d\n  revoked: [abc]\n");
    expect(given.ok && given.config.feeds).toEqual({ secret: { env: "FEED_SECRET" }, lifetimeMs: 30 * 86_400_000, revoked: ["abc"] });
    const defaults = parse("feeds:\n  secret: {env: FEED_SECRET}\n");
    expect(defaults.ok && defaults.config.feeds).toEqual({ secret: { env: "FEED_SECRET" }, lifetimeMs: 90 * 86_400_000, revoked: [] });
  });
  test("refuses a secret in the file, a lifetime under a second or over ten years, naming the line", () => {
    const written = parse("feeds:\n  secret: hunter2\n");
    expect(written.ok).toBe(false);
    expect(!written.ok && written.errors.map((e) => [e.path, e.line])).toEqual([["/feeds/secret", 6]]);
    const short = parse("feeds:\n  secret: {env: S}\n  lifetime: 500ms\n");
    expect(!short.ok && short.errors.map((e) => [e.path, e.rule])).toEqual([
      ["/feeds/lifetime", "must be at least 1s: a link must outlive the install it is made for"],
    ]);
    const long = parse("feeds:\n  secret: {env: S}\n  lifetime: 3651d\n");
    expect(!long.ok && long.errors.map((e) => e.path)).toEqual(["/feeds/lifetime"]);
  });
});
