// `skillshelf link`: an admin's install link for a configured client, verifiable by a server of the same config,
// and a usage error that names the fix for every mistake.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FeedTokens } from "../../src/http/feeds.js";
import { runCli } from "../support/process.js";
import { tempDir } from "../support/temp.js";

const SECRET = "s".repeat(40);

function configWith(feeds: string): string {
  const dir = tempDir("skillshelf-link-");
  const file = path.join(dir, "skillshelf.yaml");
  writeFileSync(
    file,
    [
      "plugins:",
      "  - {name: kit, source: ./kit}",
      "libraries:",
      "  - {name: ops, plugins: [kit]}",
      "clients:",
      "  - {name: deploy-bot, token: {env: BOT_TOKEN}, scope: {library: ops}}",
      feeds,
    ].join("\n"),
  );
  return file;
}

describe("skillshelf link", () => {
  it("prints a link, its id and its expiry; the link verifies for that client with the same secret", async () => {
    const file = configWith("feeds:\n  secret: {env: FEED_SECRET}\n  lifetime: 7d\n");
    const run = await runCli(["link", "--config", file, "--client", "deploy-bot", "--url", "https://skills.example/"], {
      env: { FEED_SECRET: SECRET },
    });
    expect([run.code, run.stderr]).toEqual([0, ""]);
    const [link, id, expires] = run.stdout.trimEnd().split("\n") as [string, string, string];
    const token = /^https:\/\/skills\.example\/feeds\/([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)$/.exec(link)?.[1];
    expect(token).toBeDefined();
    expect(id).toMatch(/^id: [A-Za-z0-9_-]{16}$/);
    const days = (Date.parse(expires.slice("expires: ".length)) - Date.now()) / 86_400_000;
    expect(Math.round(days)).toBe(7);
    const verifier = new FeedTokens({ secret: Buffer.from(SECRET), lifetimeSeconds: 1, revoked: new Set() }, [
      { name: "deploy-bot", scope: { library: "ops" } },
    ]);
    expect(await verifier.verify(token as string)).toEqual({ name: "deploy-bot", scope: { library: "ops" }, admin: false });
    const revoked = new FeedTokens({ secret: Buffer.from(SECRET), lifetimeSeconds: 1, revoked: new Set([id.slice(4)]) }, [
      { name: "deploy-bot", scope: { library: "ops" } },
    ]);
    expect(await revoked.verify(token as string)).toBeNull();
  });

  it.each([
    [
      "an unknown client",
      ["--client", "nobody", "--url", "https://x.example"],
      { FEED_SECRET: SECRET },
      "no client 'nobody' in the config (its clients: deploy-bot)",
    ],
    ["no --url", ["--client", "deploy-bot"], { FEED_SECRET: SECRET }, "give --client NAME and --url URL"],
    [
      "a relative --url",
      ["--client", "deploy-bot", "--url", "skills"],
      { FEED_SECRET: SECRET },
      "--url 'skills' is not an absolute URL (https://skills.example.com)",
    ],
    [
      "an unset secret",
      ["--client", "deploy-bot", "--url", "https://x.example"],
      {},
      "feeds: the environment variable FEED_SECRET that holds the secret that signs install links is not set",
    ],
    [
      "a short secret",
      ["--client", "deploy-bot", "--url", "https://x.example"],
      { FEED_SECRET: "short" },
      "feeds: the secret in FEED_SECRET is 5 bytes; it must be at least 32 (openssl rand -base64 48 makes one)",
    ],
  ])("refuses %s with a usage error", async (_why, args, env, message) => {
    const file = configWith("feeds:\n  secret: {env: FEED_SECRET}\n");
    const run = await runCli(["link", "--config", file, ...args], { env });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr.split("\n")[0]).toBe(`skillshelf link: ${message}`);
  });

  it("says the config has no feeds key", async () => {
    const run = await runCli(["link", "--config", configWith(""), "--client", "deploy-bot", "--url", "https://x.example"]);
    expect([run.code, run.stderr.split("\n")[0]]).toEqual([
      2,
      "skillshelf link: the config has no feeds key: add feeds.secret to issue install links",
    ]);
  });
});
