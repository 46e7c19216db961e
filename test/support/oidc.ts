// A real OpenID provider (oidc-provider) on loopback for the sign-in tests: users with groups, a public client that
// signs in with the authorization code flow and PKCE, resource indicators minting JWT access tokens for whatever
// resource a client names (or opaque ones, for introspection), an introspection client, and signing keys that can
// be rotated by restarting the provider on the same port with a new key set.
import { createHash, randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import makeFetchCookie from "fetch-cookie";
import { exportJWK, generateKeyPair, type JWK } from "jose";
import Provider, { type ClientMetadata } from "oidc-provider";

export interface TestUser {
  readonly groups: readonly string[];
}

export const PUBLIC_CLIENT_ID = "skills-desktop";
export const INTROSPECTION_CLIENT = { id: "skillshelf-rs", secret: "introspection-secret-4b1d9e7a0c" } as const;
export const CALLBACK_URL = "http://127.0.0.1:53682/callback";
export const RESOURCE_SCOPE = "skills";

export interface SigningKey {
  readonly kid: string;
  /** The private JWK (with `kid`, `alg` and `use`). */
  readonly jwk: JWK;
  readonly privateKey: CryptoKey;
}

export async function makeSigningKey(kid: string): Promise<SigningKey> {
  const { privateKey } = await generateKeyPair("ES256", { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid, alg: "ES256", use: "sig" };
  return { kid, jwk, privateKey };
}

export interface OpenIdProvider {
  /** `http://127.0.0.1:PORT` */
  readonly issuer: string;
  /** The keys the provider signs with now; the first signs new tokens. */
  readonly keys: readonly SigningKey[];
  /** Requests the provider answered, by path (`/jwks`, `/.well-known/openid-configuration`…). */
  readonly hits: Map<string, number>;
  /** An access token for `user` minted for `resource` through the authorization code flow with PKCE. */
  signIn(user: string, resource: string): Promise<string>;
  /** Follow an authorization URL through the login and consent pages as `user`; answers the callback URL. A
   *  `browser` (a fetch with a cookie jar) and the `callback` it stops at may be given. */
  authorize(authorizationUrl: URL, user: string, options?: AuthorizeOptions): Promise<URL>;
  /** Restart with `keys` (the first signs) on the same port. */
  rotate(keys: readonly SigningKey[]): Promise<void>;
  /** Stop answering (the port closes). */
  stop(): Promise<void>;
  /** Start again on the same port with the current keys. */
  restart(): Promise<void>;
}

export interface AuthorizeOptions {
  readonly browser?: typeof fetch;
  /** Default: CALLBACK_URL. */
  readonly callback?: string;
}

/** A confidential web client, as the page for people registers with a provider. */
export const PAGE_CLIENT = { id: "skillshelf-page", secret: "page-secret-71c0a4d9e2" } as const;

export interface ProviderOptions {
  readonly users: Readonly<Record<string, TestUser>>;
  /** Clients registered besides the public and the introspection client. */
  readonly clients?: readonly ClientMetadata[];
  /** Resources for which access tokens are opaque (checked by introspection); read at each token. */
  readonly opaqueFor?: ReadonlySet<string>;
}

export async function startProvider(options: ProviderOptions): Promise<OpenIdProvider> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const issuer = `http://127.0.0.1:${port}`;
  const hits = new Map<string, number>();
  let keys: readonly SigningKey[] = [await makeSigningKey("key-1")];
  let listener: Server = server;

  const attach = (target: Server): void => {
    const provider = buildProvider(issuer, keys, options);
    const callback = provider.callback();
    target.removeAllListeners("request");
    target.on("request", (req, res) => {
      const path = new URL(req.url ?? "/", issuer).pathname;
      hits.set(path, (hits.get(path) ?? 0) + 1);
      // No keep-alive: a client never holds a socket a restart of the provider has closed under it.
      res.shouldKeepAlive = false;
      callback(req, res);
    });
  };
  attach(server);

  const close = (): Promise<void> =>
    new Promise((resolve) => {
      listener.close(() => resolve());
      listener.closeAllConnections();
    });
  const open = async (): Promise<void> => {
    listener = createServer();
    attach(listener);
    await new Promise<void>((resolve, reject) => {
      listener.once("error", reject);
      listener.listen(port, "127.0.0.1", resolve);
    });
  };

  const authorize = async (authorizationUrl: URL, user: string, options: AuthorizeOptions = {}): Promise<URL> => {
    const browser = options.browser ?? makeFetchCookie(fetch);
    const callback = options.callback ?? CALLBACK_URL;
    let url = authorizationUrl.href;
    let init: RequestInit = { redirect: "manual" };
    for (let hop = 0; hop < 20; hop++) {
      const response = await browser(url, init);
      const location = response.headers.get("location");
      if (location !== null) {
        await response.body?.cancel();
        const next = new URL(location, url);
        if (next.href.startsWith(callback)) return next;
        url = next.href;
        init = { redirect: "manual" };
        continue;
      }
      const page = await response.text();
      if (response.status !== 200)
        throw new Error(
          `the provider answered ${response.status} at ${url}: ${page
            .replace(/<style[^]*?<\/style>/, "")
            .replace(/<[^>]*>/g, " ")
            .replace(/\s+/g, " ")
            .slice(0, 400)}`,
        );
      // The development interaction pages: a login form, then a consent form, both posted back to the same URL.
      const form = page.includes('name="prompt" value="login"')
        ? { prompt: "login", login: user, password: "any" }
        : page.includes('name="prompt" value="consent"')
          ? { prompt: "consent" }
          : undefined;
      if (form === undefined) throw new Error(`unexpected provider page at ${url}`);
      init = {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(form).toString(),
      };
    }
    throw new Error("too many redirects while signing in");
  };

  return {
    issuer,
    get keys() {
      return keys;
    },
    hits,
    authorize,
    async signIn(user, resource) {
      const verifier = randomBytes(32).toString("base64url");
      const challenge = createHash("sha256").update(verifier).digest("base64url");
      const authorization = new URL(`${issuer}/auth`);
      authorization.search = new URLSearchParams({
        client_id: PUBLIC_CLIENT_ID,
        response_type: "code",
        redirect_uri: CALLBACK_URL,
        scope: `openid ${RESOURCE_SCOPE}`,
        resource,
        code_challenge: challenge,
        code_challenge_method: "S256",
        state: randomBytes(8).toString("hex"),
      }).toString();
      const callback = await authorize(authorization, user);
      const code = callback.searchParams.get("code");
      if (code === null) throw new Error(`no code in the callback: ${callback.search}`);
      const response = await fetch(`${issuer}/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "authorization_code",
          code,
          redirect_uri: CALLBACK_URL,
          client_id: PUBLIC_CLIENT_ID,
          code_verifier: verifier,
          resource,
        }).toString(),
      });
      const body = (await response.json()) as { access_token?: string };
      if (body.access_token === undefined) throw new Error(`no access token: ${JSON.stringify(body)}`);
      return body.access_token;
    },
    async rotate(next) {
      keys = next;
      await close();
      await open();
    },
    stop: close,
    restart: open,
  };
}

function buildProvider(issuer: string, keys: readonly SigningKey[], options: ProviderOptions): Provider {
  const opaque = options.opaqueFor ?? new Set<string>();
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: PUBLIC_CLIENT_ID,
        application_type: "native",
        token_endpoint_auth_method: "none",
        id_token_signed_response_alg: "ES256",
        redirect_uris: [CALLBACK_URL],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
      },
      {
        client_id: INTROSPECTION_CLIENT.id,
        client_secret: INTROSPECTION_CLIENT.secret,
        id_token_signed_response_alg: "ES256",
        redirect_uris: [],
        grant_types: [],
        response_types: [],
      },
      ...(options.clients ?? []),
    ],
    jwks: { keys: keys.map((key) => key.jwk) as never },
    cookies: { keys: ["oidc-test-cookie-key"] },
    pkce: { required: () => true },
    ttl: { AccessToken: 600, Grant: 600, IdToken: 600, Interaction: 600, Session: 600 },
    renderError: (ctx, out) => {
      ctx.type = "json";
      ctx.body = out;
    },
    scopes: ["openid", "offline_access", RESOURCE_SCOPE],
    findAccount: (_ctx, id) =>
      options.users[id] === undefined ? undefined : { accountId: id, claims: () => Promise.resolve({ sub: id }) },
    extraTokenClaims: (_ctx, token) => {
      const user = options.users[(token as { accountId?: string }).accountId ?? ""];
      return user === undefined ? undefined : { groups: [...user.groups] };
    },
    features: {
      devInteractions: { enabled: true },
      introspection: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: (_ctx, _client, oneOf) => oneOf ?? (undefined as unknown as string),
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resource) => ({
          scope: RESOURCE_SCOPE,
          audience: resource,
          accessTokenTTL: 600,
          accessTokenFormat: opaque.has(resource) ? "opaque" : "jwt",
          jwt: { sign: { alg: "ES256" } },
        }),
      },
    },
  });
  provider.proxy = false;
  return provider;
}
