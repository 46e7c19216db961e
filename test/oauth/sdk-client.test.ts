// End to end, the way an MCP client signs in: the SDK's OAuth support meets skillshelf's 401, reads the resource
// metadata, discovers the provider, sends the user through the authorization code flow with PKCE and the
// resource indicator, redeems the code, and reconnects with the token — then reads a skill its groups grant.
import {
  Client,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type StoredOAuthTokens,
} from "@modelcontextprotocol/client";
import { afterAll, beforeAll, expect, test } from "vitest";
import { loadConfig } from "../../src/config/index.js";
import { ShelfService } from "../../src/live/shelf-service.js";
import { writeFixture, type Fixture } from "../scopes/fixture.js";
import { listSkillUris, readResource } from "../scopes/harness.js";
import { CALLBACK_URL, PUBLIC_CLIENT_ID, startProvider, type OpenIdProvider } from "../support/oidc.js";
import { startSignedInServer, type SignedInServer } from "./signed-in.js";

/** What a desktop client keeps between the redirect and the callback: a pre-registered public client. */
class DesktopClient implements OAuthClientProvider {
  authorizationUrl: URL | undefined;
  private saved: StoredOAuthTokens | undefined;
  private verifier = "";
  private discovered: OAuthDiscoveryState | undefined;

  get redirectUrl(): string {
    return CALLBACK_URL;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "skills desktop",
      redirect_uris: [CALLBACK_URL],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  clientInformation(): { client_id: string } {
    return { client_id: PUBLIC_CLIENT_ID };
  }
  tokens(): StoredOAuthTokens | undefined {
    return this.saved;
  }
  saveTokens(tokens: StoredOAuthTokens): void {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL): void {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }
  codeVerifier(): string {
    return this.verifier;
  }
  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovered = state;
  }
  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovered;
  }
}

let provider: OpenIdProvider;
let fixture: Fixture;
let service: ShelfService;
let shelf: SignedInServer;
beforeAll(async () => {
  provider = await startProvider({ users: { carol: { groups: ["writers"] } } });
  fixture = writeFixture();
  service = await ShelfService.start(await loadConfig(fixture.configPath), () => new Date(0));
  shelf = await startSignedInServer(
    service,
    fixture,
    (resource) => `  issuer: ${provider.issuer}
  resource: ${resource}
  scopes: [skills]
  rules:
    - {claim: groups, includes: writers, scope: {library: docs, tags: [public]}}
`,
  );
}, 60_000);
afterAll(async () => {
  await shelf?.close();
  await provider?.stop();
  fixture?.remove();
});

test("the SDK client signs carol in with the authorization code flow and PKCE, then reads a skill", async () => {
  const desktop = new DesktopClient();
  const first = new StreamableHTTPClientTransport(new URL(shelf.resource), { authProvider: desktop });
  await expect(new Client({ name: "desktop", version: "1.0.0" }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);

  // The client found the provider through the resource metadata and asks for this resource and its scope (plus
  // offline_access, which the provider offers), with PKCE.
  const asked = desktop.authorizationUrl as URL;
  expect(`${asked.origin}${asked.pathname}`).toBe(`${provider.issuer}/auth`);
  expect({
    resource: asked.searchParams.get("resource"),
    scope: asked.searchParams.get("scope"),
    method: asked.searchParams.get("code_challenge_method"),
    client: asked.searchParams.get("client_id"),
  }).toEqual({ resource: shelf.resource, scope: "skills offline_access", method: "S256", client: PUBLIC_CLIENT_ID });

  const callback = await provider.authorize(asked, "carol");
  await first.finishAuth(callback.searchParams);
  expect(desktop.tokens()?.token_type.toLowerCase()).toBe("bearer");

  const client = new Client({ name: "desktop", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(shelf.resource), { authProvider: desktop }));
  try {
    expect(await listSkillUris(client)).toEqual(["skill://docs/editing/proofread/SKILL.md", "skill://docs/release-notes/SKILL.md"]);
    const read = await readResource(client, "skill://docs/release-notes/SKILL.md");
    expect(read.ok && (read.value as { contents: { text: string }[] }).contents[0]?.text).toContain("# release-notes");
  } finally {
    await client.close();
  }
});
