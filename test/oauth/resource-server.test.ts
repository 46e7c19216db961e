// skillshelf as a protected resource of a real OpenID provider on loopback: the discovery a client performs, tokens
// minted by the provider accepted with the ceiling their groups give, every bad token refused with its RFC 6750
// answer (and never echoed), key rotation, the provider going down, introspection of opaque tokens, static tokens
// beside it all, and what /health shows.
import { SignJWT, UnsecuredJWT, type JWTPayload } from "jose";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ShelfService } from "../../src/live/shelf-service.js";
import { HEALTH_SCHEMA } from "../../src/http/openapi.js";
import { buildAjv } from "../support/openapi.js";
import { loadConfig } from "../../src/config/index.js";
import { connectHttp, listSkillUris, notFound, readResource } from "../scopes/harness.js";
import { NEVER, NEVER_MESSAGE, asNever } from "../scopes/expected.js";
import { TOKENS, writeFixture, type Fixture } from "../scopes/fixture.js";
import { MCP_HEADERS, initializeBody, send, type RawResponse } from "../support/http.js";
import {
  INTROSPECTION_CLIENT,
  makeSigningKey,
  PUBLIC_CLIENT_ID,
  startProvider,
  type OpenIdProvider,
  type SigningKey,
} from "../support/oidc.js";
import { startSignedInServer, type OAuthYaml, type SignedInServer } from "./signed-in.js";

const USERS = {
  alice: { groups: ["platform-eng"] },
  bob: { groups: ["writers"] },
  carol: { groups: ["platform-eng", "writers", "sre"] },
  dave: { groups: ["visitors"] },
};

/** Engineering in library eng for platform-eng, the public corner of docs for writers, admin for sre. */
const RULES: OAuthYaml = (resource) => `  issuer: ${provider.issuer}
  resource: ${resource}
  audiences: [urn:example:skills-api]
  scopes: [skills]
  clockSkew: 5s
  rules:
    - {claim: groups, includes: platform-eng, scope: {libraries: [eng], categories: [engineering]}}
    - {claim: groups, includes: writers, scope: {library: docs, tags: [public]}}
    - {claim: groups, includes: sre, admin: true}
`;

const ENG_SKILLS = [
  "skill://eng/code-review/SKILL.md",
  "skill://eng/observability/logs/SKILL.md",
  "skill://eng/observability/logs/deep/SKILL.md",
  "skill://eng/observability/metrics/SKILL.md",
  "skill://eng/quality/lint/SKILL.md",
  "skill://eng/triage/SKILL.md",
];
const DOCS_PUBLIC_SKILLS = ["skill://docs/editing/proofread/SKILL.md", "skill://docs/release-notes/SKILL.md"];

/** Resources the provider mints opaque tokens for (added as servers start). */
const OPAQUE = new Set<string>();
let provider: OpenIdProvider;
let fixture: Fixture;
let service: ShelfService;
let shelf: SignedInServer;
beforeAll(async () => {
  provider = await startProvider({ users: USERS, opaqueFor: OPAQUE });
  fixture = writeFixture();
  service = await ShelfService.start(await loadConfig(fixture.configPath), () => new Date(0));
  shelf = await startSignedInServer(service, fixture, RULES, { cooldownMs: 0 });
}, 60_000);
afterAll(async () => {
  await shelf?.close();
  await provider?.stop();
  fixture?.remove();
});

const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

function postMcp(origin: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return send(origin, { method: "POST", path: "/mcp", headers: { ...MCP_HEADERS, ...headers }, body: initializeBody() });
}

async function skillsSeenBy(token: string, url = shelf.resource): Promise<string[]> {
  const conn = await connectHttp(url, bearer(token));
  try {
    return await listSkillUris(conn.client);
  } finally {
    await conn.close();
  }
}

/** A token signed by `key` with the provider's issuer, for this resource, for alice, valid now; `claims` override. */
function forge(key: SigningKey, claims: JWTPayload = {}, alg = "ES256"): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ scope: "skills", client_id: PUBLIC_CLIENT_ID, groups: ["platform-eng"], ...claims })
    .setProtectedHeader({ alg, kid: key.kid, typ: "at+jwt" })
    .setIssuer((claims.iss as string | undefined) ?? provider.issuer)
    .setAudience((claims.aud as string | undefined) ?? shelf.resource)
    .setSubject("alice")
    .setIssuedAt(now)
    .setExpirationTime((claims.exp as number | undefined) ?? now + 300)
    .sign(key.privateKey);
}

function challenge(error?: string, description?: string): string {
  const parts = error === undefined ? [] : [`error="${error}"`, `error_description="${description ?? ""}"`];
  return [
    "Bearer " + [...parts, 'scope="skills"', `resource_metadata="${shelf.origin}/.well-known/oauth-protected-resource/mcp"`].join(", "),
  ][0] as string;
}

describe("discovery", () => {
  test("401 → protected resource metadata → the authorization server's metadata", async () => {
    const refused = await postMcp(shelf.origin);
    expect([refused.status, refused.headers["www-authenticate"]]).toEqual([401, challenge()]);
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(refused.headers["www-authenticate"] ?? "")?.[1] as string;
    const metadata = await (await fetch(metadataUrl)).json();
    expect(metadata).toEqual({
      resource: shelf.resource,
      authorization_servers: [provider.issuer],
      scopes_supported: ["skills"],
      bearer_methods_supported: ["header"],
      resource_signing_alg_values_supported: [
        "RS256",
        "RS384",
        "RS512",
        "PS256",
        "PS384",
        "PS512",
        "ES256",
        "ES384",
        "ES512",
        "EdDSA",
        "Ed25519",
      ],
      resource_name: "skillshelf",
    });
    // The bare well-known path answers the same document, without a token.
    expect(await (await fetch(`${shelf.origin}/.well-known/oauth-protected-resource`)).json()).toEqual(metadata);
    const as = (await (
      await fetch(`${(metadata as { authorization_servers: string[] }).authorization_servers[0]}/.well-known/openid-configuration`)
    ).json()) as Record<string, unknown>;
    expect(as["issuer"]).toBe(provider.issuer);
    expect(as["code_challenge_methods_supported"]).toEqual(["S256"]);
    expect(typeof as["authorization_endpoint"]).toBe("string");
    expect(typeof as["token_endpoint"]).toBe("string");
  });
});

describe("tokens minted by the provider for this resource", () => {
  test("alice (platform-eng) sees engineering in eng: a skill in scope reads, one out of scope is absent", async () => {
    const token = await provider.signIn("alice", shelf.resource);
    expect(await skillsSeenBy(token)).toEqual(ENG_SKILLS);
    const conn = await connectHttp(shelf.resource, bearer(token));
    try {
      const read = await readResource(conn.client, "skill://eng/triage/SKILL.md");
      expect(read.ok).toBe(true);
      const outside = "skill://docs/release-notes/SKILL.md";
      expect(await readResource(conn.client, outside)).toEqual(notFound(asNever(NEVER_MESSAGE, NEVER, outside), outside));
    } finally {
      await conn.close();
    }
  });

  test("a token for one of the further audiences the config names is accepted too", async () => {
    expect(await skillsSeenBy(await provider.signIn("alice", "urn:example:skills-api"))).toEqual(ENG_SKILLS);
  });

  test("bob (writers) sees the public corner of docs", async () => {
    expect(await skillsSeenBy(await provider.signIn("bob", shelf.resource))).toEqual(DOCS_PUBLIC_SKILLS);
  });

  test("carol's rules add up, library by library: review-kit in eng, not in docs", async () => {
    const token = await provider.signIn("carol", shelf.resource);
    expect(await skillsSeenBy(token)).toEqual([...DOCS_PUBLIC_SKILLS, ...ENG_SKILLS].sort());
    const conn = await connectHttp(shelf.resource, bearer(token));
    try {
      expect((await readResource(conn.client, "skill://eng/code-review/SKILL.md")).ok).toBe(true);
      const outside = "skill://docs/code-review/SKILL.md";
      expect(await readResource(conn.client, outside)).toEqual(notFound(asNever(NEVER_MESSAGE, NEVER, outside), outside));
    } finally {
      await conn.close();
    }
  });

  test("a request scope narrows inside the ceiling and cannot widen it", async () => {
    const token = await provider.signIn("alice", shelf.resource);
    expect(await skillsSeenBy(token, `${shelf.resource}?tags=sre`)).toEqual(ENG_SKILLS.filter((uri) => !/code-review|lint/.test(uri)));
    const widened = await send(shelf.origin, {
      method: "POST",
      path: "/mcp?library=docs",
      headers: { ...MCP_HEADERS, ...bearer(token) },
      body: initializeBody(),
    });
    expect(JSON.parse(widened.text)).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: { code: -32602, message: "Scope refused: library 'docs' does not exist; the libraries are: eng." },
    });
  });

  test("dave matches no rule and there is no default: 403 insufficient_scope", async () => {
    const response = await postMcp(shelf.origin, bearer(await provider.signIn("dave", shelf.resource)));
    const description = "signed in, but no rule of this server grants this user anything";
    expect([response.status, response.headers["www-authenticate"], JSON.parse(response.text)]).toEqual([
      403,
      challenge("insufficient_scope", description),
      { error: "insufficient_scope", error_description: description },
    ]);
  });

  test("an admin rule opens /health, which shows the issuer's state and no secret; others get 403", async () => {
    const admin = bearer(await provider.signIn("carol", shelf.resource));
    const health = await send(shelf.origin, { path: "/health", headers: admin });
    expect(health.status).toBe(200);
    const report = JSON.parse(health.text) as { oauth: Record<string, unknown> };
    const validate = buildAjv().compile(HEALTH_SCHEMA);
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
    const oauth = report.oauth;
    expect({ ...oauth, lastRefresh: typeof oauth["lastRefresh"], cachedTokens: typeof oauth["cachedTokens"] }).toEqual({
      issuer: provider.issuer,
      metadata: `${provider.issuer}/.well-known/openid-configuration`,
      keys: 1,
      lastRefresh: "string",
      lastError: null,
      resource: shelf.resource,
      introspection: "off",
      cachedTokens: "number",
    });
    const alice = await send(shelf.origin, { path: "/health", headers: bearer(await provider.signIn("alice", shelf.resource)) });
    expect(alice.status).toBe(403);
    const anonymous = await send(shelf.origin, { path: "/health" });
    expect([anonymous.status, anonymous.headers["www-authenticate"]]).toEqual([401, challenge()]);
  });

  test("static tokens keep working beside sign-in, each with its client's ceiling", async () => {
    expect(await skillsSeenBy(TOKENS.support)).toEqual(["skill://docs/editing/proofread/SKILL.md", "skill://docs/release-notes/SKILL.md"]);
    expect((await send(shelf.origin, { path: "/health", headers: bearer(TOKENS.admin) })).status).toBe(200);
  });
});

describe("refusals: RFC 6750 answers, never the token", () => {
  const refusalRows: [string, () => Promise<string>, string][] = [
    ["expired", () => forge(provider.keys[0] as SigningKey, { exp: Math.floor(Date.now() / 1000) - 60 }), "the token has expired"],
    [
      "not yet valid",
      () => forge(provider.keys[0] as SigningKey, { nbf: Math.floor(Date.now() / 1000) + 120 }),
      "the token is not valid yet",
    ],
    [
      "wrong audience",
      () => forge(provider.keys[0] as SigningKey, { aud: "https://elsewhere.example/mcp" }),
      "the token was not issued for this resource",
    ],
    [
      "wrong issuer",
      () => forge(provider.keys[0] as SigningKey, { iss: "https://impostor.example" }),
      "the token was issued by another issuer",
    ],
    [
      "alg none",
      () =>
        Promise.resolve(
          new UnsecuredJWT({ sub: "alice", groups: ["platform-eng"], scope: "skills" })
            .setIssuer(provider.issuer)
            .setAudience(shelf.resource)
            .setExpirationTime("5m")
            .encode(),
        ),
      "the token is signed with an algorithm this server does not accept",
    ],
    [
      "HMAC keyed with the provider's public key",
      async () => {
        const { d: _d, ...publicJwk } = provider.keys[0]?.jwk ?? {};
        const secret = new TextEncoder().encode(JSON.stringify(publicJwk));
        const now = Math.floor(Date.now() / 1000);
        return new SignJWT({ scope: "skills", groups: ["platform-eng"] })
          .setProtectedHeader({ alg: "HS256", kid: provider.keys[0]?.kid as string })
          .setIssuer(provider.issuer)
          .setAudience(shelf.resource)
          .setSubject("alice")
          .setExpirationTime(now + 300)
          .sign(secret);
      },
      "the token is signed with an algorithm this server does not accept",
    ],
    [
      "an unknown key id",
      async () => forge(await makeSigningKey("stranger")),
      "the token is signed with a key the issuer does not publish",
    ],
    [
      "a key the provider's kid names, but not its key",
      async () => forge({ ...(await makeSigningKey("key-1")) }),
      "the token's signature does not verify",
    ],
    ["a token for another resource", () => provider.signIn("alice", `${shelf.origin}/other`), "the token was not issued for this resource"],
    ["garbage", () => Promise.resolve("not-a-token-9f2c"), "the token is not a JWT access token"],
  ];

  test.each(refusalRows)("%s: 401 invalid_token", async (_name, mint, description) => {
    const token = await mint();
    for (const path of ["/mcp", "/health"]) {
      const response = await send(shelf.origin, {
        method: path === "/mcp" ? "POST" : "GET",
        path,
        headers: { ...MCP_HEADERS, ...bearer(token) },
        ...(path === "/mcp" ? { body: initializeBody() } : {}),
      });
      expect([response.status, response.headers["www-authenticate"], JSON.parse(response.text)]).toEqual([
        401,
        challenge("invalid_token", description),
        { error: "invalid_token", error_description: description },
      ]);
      expect(response.text.includes(token) || JSON.stringify(response.headers).includes(token)).toBe(false);
    }
  });

  test("a token without the resource's scope: 403 insufficient_scope naming it", async () => {
    const response = await postMcp(shelf.origin, bearer(await forge(provider.keys[0] as SigningKey, { scope: "openid" })));
    expect([response.status, response.headers["www-authenticate"]]).toEqual([
      403,
      challenge("insufficient_scope", "the token lacks the scope skills"),
    ]);
  });

  test("a header that is not Bearer <token>: 400 invalid_request", async () => {
    const response = await postMcp(shelf.origin, { authorization: "Basic YWxpY2U6cHc=" });
    expect([response.status, response.headers["www-authenticate"]]).toEqual([
      400,
      challenge("invalid_request", "the Authorization header is not Bearer <token>"),
    ]);
  });

  test("the log hears who a refused token claims to be (subject, client id), never the token", async () => {
    const token = await forge(provider.keys[0] as SigningKey, { exp: Math.floor(Date.now() / 1000) - 600 });
    shelf.refusals.length = 0;
    await postMcp(shelf.origin, bearer(token));
    expect(shelf.refusals).toEqual([
      { status: 401, error: "invalid_token", description: "the token has expired", subject: "alice", clientId: PUBLIC_CLIENT_ID },
    ]);
    expect(JSON.stringify(shelf.refusals).includes(token)).toBe(false);
  });
});

describe("keys", () => {
  test("a key id the cache does not hold is read again, so a rotation is picked up", async () => {
    const before = await provider.signIn("alice", shelf.resource);
    expect(await skillsSeenBy(before)).toEqual(ENG_SKILLS);
    // A token signed with a key the provider does not publish yet is refused…
    const next = await makeSigningKey("key-2");
    const early = await forge(next);
    const refused = await postMcp(shelf.origin, bearer(early));
    expect([refused.status, JSON.parse(refused.text)]).toEqual([
      401,
      { error: "invalid_token", error_description: "the token is signed with a key the issuer does not publish" },
    ]);
    // …and accepted once the provider rotates to it, as are the tokens the provider now mints with it.
    const reads = provider.hits.get("/jwks") ?? 0;
    await provider.rotate([next, provider.keys[0] as SigningKey]);
    expect(await skillsSeenBy(early)).toEqual(ENG_SKILLS);
    expect(provider.hits.get("/jwks")).toBe(reads + 1);
    const after = await provider.signIn("alice", shelf.resource);
    expect(after.split(".")[0]).not.toBe(before.split(".")[0]); // another kid in the header
    expect(await skillsSeenBy(after)).toEqual(ENG_SKILLS);
    expect(provider.hits.get("/jwks")).toBe(reads + 1);
    expect(shelf.oauth.state().keys).toBe(2);
  });

  test("unknown key ids do not make the server hammer the provider: one read per cooldown", async () => {
    const limited = await startSignedInServer(service, fixture, RULES, { cooldownMs: 60_000 });
    try {
      await limited.oauth.start();
      const reads = provider.hits.get("/jwks") ?? 0;
      for (let i = 0; i < 5; i++) {
        const response = await postMcp(
          limited.origin,
          bearer(await forge(await makeSigningKey(`stranger-${i}`), { aud: limited.resource })),
        );
        expect(response.status).toBe(401);
      }
      expect(provider.hits.get("/jwks")).toBe(reads);
    } finally {
      await limited.close();
    }
  });

  test("the provider down: cached keys still accept tokens not seen before; with no keys at all, 503", async () => {
    const stale = await startSignedInServer(service, fixture, RULES, { cooldownMs: 0, maxAgeMs: 0 });
    const fresh = await startSignedInServer(service, fixture, RULES, { cooldownMs: 0 });
    try {
      const seen = await provider.signIn("alice", stale.resource);
      const unseen = await provider.signIn("bob", stale.resource);
      const forFresh = await provider.signIn("alice", fresh.resource);
      expect(await skillsSeenBy(seen, stale.resource)).toEqual(ENG_SKILLS);
      await provider.stop();
      // Keys older than their max age are read again on use; the read fails and the cached keys serve.
      expect(await skillsSeenBy(unseen, stale.resource)).toEqual(DOCS_PUBLIC_SKILLS);
      const state = stale.oauth.state();
      expect([state.keys, state.lastError]).toEqual([2, `cannot reach ${provider.issuer}/jwks (ECONNREFUSED)`]);
      const unavailable = await postMcp(fresh.origin, bearer(forFresh));
      expect([unavailable.status, unavailable.headers["retry-after"], JSON.parse(unavailable.text)]).toEqual([
        503,
        "30",
        { error: "temporarily_unavailable", error_description: "the authorization server cannot be reached to check the token" },
      ]);
    } finally {
      await provider.restart();
      await stale.close();
      await fresh.close();
    }
  });
});

describe("opaque tokens through introspection (RFC 7662)", () => {
  test("an active token is accepted with its groups' ceiling; one the provider does not know is not active", async () => {
    const introspecting = await startSignedInServer(
      service,
      fixture,
      (resource) =>
        `${RULES(resource)}  introspection:\n    clientId: ${INTROSPECTION_CLIENT.id}\n    clientSecret: {env: SS_TEST_INTROSPECTION_SECRET}\n`,
      { cooldownMs: 0, introspectionSecret: INTROSPECTION_CLIENT.secret },
    );
    try {
      OPAQUE.add(introspecting.resource);
      const token = await provider.signIn("bob", introspecting.resource);
      expect(token.split(".")).toHaveLength(1);
      expect(await skillsSeenBy(token, introspecting.resource)).toEqual(DOCS_PUBLIC_SKILLS);
      const unknown = await postMcp(introspecting.origin, bearer("opaque-token-the-provider-never-issued"));
      expect([unknown.status, unknown.headers["www-authenticate"]?.replace(introspecting.origin, shelf.origin)]).toEqual([
        401,
        challenge("invalid_token", "the token is not active"),
      ]);
      expect(introspecting.oauth.state().introspection).toBe("on");
    } finally {
      await introspecting.close();
    }
  });
});
