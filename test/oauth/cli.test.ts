// The built CLI with an `oauth:` section, behind what would be a TLS proxy: its public resource URL differs from
// the loopback address it listens on. It reads the provider's keys at startup, sends a client without a token to
// the resource metadata, serves a signed-in user their groups' ceiling, logs refusals at debug with who the token
// claims to be and never the token, and refuses to start when the introspection or the page client secret's
// variable is unset.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { connectHttp, listSkillUris } from "../scopes/harness.js";
import { MCP_HEADERS, initializeBody, send } from "../support/http.js";
import { PUBLIC_CLIENT_ID, startProvider, type OpenIdProvider } from "../support/oidc.js";
import { killStragglers, REPO_ROOT, runCli, startHttpServer, type ServerProcess } from "../support/process.js";
import { tempDir } from "../support/temp.js";

afterAll(killStragglers);

const RESOURCE = "https://skills.example.com/mcp";
const METADATA = "https://skills.example.com/.well-known/oauth-protected-resource/mcp";

function writeConfig(dir: string, issuer: string, extra: string[] = []): string {
  const file = path.join(dir, "skillshelf.yaml");
  writeFileSync(
    file,
    [
      "plugins:",
      `  - {name: eng-kit, source: ${path.join(REPO_ROOT, "examples/engineering-kit")}, category: engineering, watch: false}`,
      `  - {name: writing-kit, source: ${path.join(REPO_ROOT, "examples/writing-kit")}, category: writing, watch: false}`,
      "libraries:",
      "  - {name: engineering, plugins: [eng-kit]}",
      "  - {name: writing, plugins: [writing-kit]}",
      "oauth:",
      `  issuer: ${issuer}`,
      `  resource: ${RESOURCE}`,
      "  rules:",
      "    - {claim: groups, includes: platform-eng, scope: {library: engineering}}",
      "    - {claim: groups, includes: sre, admin: true}",
      ...extra,
      "",
    ].join("\n"),
  );
  return file;
}

describe("serve with an issuer", () => {
  let provider: OpenIdProvider;
  let server: ServerProcess;
  beforeAll(async () => {
    provider = await startProvider({ users: { erin: { groups: ["platform-eng"] }, sam: { groups: ["sre"] } } });
    const dir = tempDir("skillshelf-oauth-cli-");
    const config = writeConfig(dir, provider.issuer);
    server = await startHttpServer(["--config", config, "--cache-dir", path.join(dir, "cache"), "--log-level", "debug"]);
    // The keys are read in the background from the start; wait for the line that says so.
    while (!server.stderr().includes("oauth: signing keys read")) await new Promise((resolve) => setImmediate(resolve));
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await provider?.stop();
  });

  test("no token: 401 pointing at the metadata under the public URL, which names the provider", async () => {
    const refused = await send(server.origin, { method: "POST", path: "/mcp", headers: MCP_HEADERS, body: initializeBody() });
    expect([refused.status, refused.headers["www-authenticate"]]).toEqual([401, `Bearer resource_metadata="${METADATA}"`]);
    const metadata = await send(server.origin, { path: "/.well-known/oauth-protected-resource/mcp" });
    expect(JSON.parse(metadata.text)).toMatchObject({ resource: RESOURCE, authorization_servers: [provider.issuer] });
  });

  test("a user signed in for the public resource sees their groups' library", async () => {
    const token = await provider.signIn("erin", RESOURCE);
    const conn = await connectHttp(server.url.href, { authorization: `Bearer ${token}` });
    try {
      expect(await listSkillUris(conn.client)).toEqual([
        "skill://engineering/code-review/SKILL.md",
        "skill://engineering/observability/logs/SKILL.md",
        "skill://engineering/observability/traces/SKILL.md",
      ]);
    } finally {
      await conn.close();
    }
    expect(server.stderr().includes(token)).toBe(false);
  });

  test("/health (for an admin) shows the issuer's state", async () => {
    const health = await send(server.origin, {
      path: "/health",
      headers: { authorization: `Bearer ${await provider.signIn("sam", RESOURCE)}` },
    });
    expect(health.status).toBe(200);
    const oauth = (JSON.parse(health.text) as { oauth: Record<string, unknown> }).oauth;
    expect([oauth["issuer"], oauth["keys"], oauth["lastError"], oauth["resource"]]).toEqual([provider.issuer, 1, null, RESOURCE]);
  });

  test("a refused token is logged at debug with its subject and client id, never the token", async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = await new SignJWT({ client_id: PUBLIC_CLIENT_ID, groups: ["platform-eng"] })
      .setProtectedHeader({ alg: "ES256", kid: provider.keys[0]?.kid as string })
      .setIssuer(provider.issuer)
      .setAudience(RESOURCE)
      .setSubject("erin")
      .setExpirationTime(now - 3600)
      .sign(provider.keys[0]?.privateKey as CryptoKey);
    const refused = await send(server.origin, {
      method: "POST",
      path: "/mcp",
      headers: { ...MCP_HEADERS, authorization: `Bearer ${token}` },
      body: initializeBody(),
    });
    expect(refused.status).toBe(401);
    while (!server.stderr().includes("token refused")) await new Promise((resolve) => setImmediate(resolve));
    const line = server
      .stderr()
      .split("\n")
      .find((l) => l.includes("token refused"));
    expect(line).toContain("token refused: the token has expired");
    expect(line).toContain("subject=erin");
    expect(line).toContain(`clientId=${PUBLIC_CLIENT_ID}`);
    expect(server.stderr().includes(token)).toBe(false);
  });
});

test("an unset introspection secret stops the start with exit 2, naming the variable", async () => {
  const dir = tempDir("skillshelf-oauth-cli-");
  const config = writeConfig(dir, "https://login.example.com", [
    "  introspection: {clientId: skillshelf, clientSecret: {env: SS_TEST_UNSET_INTROSPECTION_SECRET}}",
  ]);
  const result = await runCli(["serve", "--config", config, "--port", "0", "--cache-dir", path.join(dir, "cache")]);
  expect(result.code).toBe(2);
  expect(result.stderr).toContain(
    "oauth.introspection: the environment variable SS_TEST_UNSET_INTROSPECTION_SECRET that holds its client secret is not set",
  );
});

test("an unset page client secret stops the start with exit 2, naming the variable", async () => {
  const dir = tempDir("skillshelf-oauth-cli-");
  const config = writeConfig(dir, "https://login.example.com", [
    "  page: {clientId: skillshelf-page, clientSecret: {env: SS_TEST_UNSET_PAGE_SECRET}}",
  ]);
  const result = await runCli(["serve", "--config", config, "--port", "0", "--cache-dir", path.join(dir, "cache")]);
  expect(result.code).toBe(2);
  expect(result.stderr).toContain("oauth.page: the environment variable SS_TEST_UNSET_PAGE_SECRET that holds its client secret is not set");
});
