// The page for people as a client of the same provider: it sends a browser through the authorization code flow
// with PKCE (S256), state and nonce, asking for an access token minted for this resource (RFC 8707), redeems the
// code with openid-client, and takes the identity from that access token exactly as /mcp does — through the same
// ResourceServer, so a page view and an MCP request of one user have the same ceiling.
import * as client from "openid-client";
import type { OAuthConfig } from "../config/index.js";
import type { Identity } from "./identity.js";
import { IssuerUnavailableError } from "./issuer.js";
import type { Authenticated, Refusal, ResourceServer } from "./resource-server.js";

/** What the page keeps between sending the browser to the provider and its return: never shown to anyone. */
export interface PendingSignIn {
  readonly state: string;
  readonly nonce: string;
  readonly verifier: string;
}

export type PageSignInResult =
  | {
      readonly ok: true;
      readonly identity: Identity;
      /** The access token, kept on the server to check again on each view (as /mcp checks each request). */
      readonly accessToken: string;
      /** A name for the page's header: the ID token's `preferred_username`, `name` or `email`, else the subject. */
      readonly displayName: string;
    }
  | {
      readonly ok: false;
      /** One sentence for the page and the log; never a token, a code or a claim value. */
      readonly reason: string;
      /** The resource server's refusal, when it refused the access token. */
      readonly refusal?: Refusal;
      /** The provider could not be reached (try again later), rather than refusing. */
      readonly unavailable?: boolean;
    };

export interface PageClientOptions {
  /** The page's client secret, read from the environment by the caller; absent: a public client. */
  readonly clientSecret?: string;
  readonly timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 5_000;

export class PageClient {
  private configuration: client.Configuration | undefined;
  private readonly page: NonNullable<OAuthConfig["page"]>;

  constructor(
    private readonly server: ResourceServer,
    private readonly options: PageClientOptions = {},
  ) {
    const page = server.config.page;
    if (page === undefined) throw new Error("the oauth section has no page client");
    this.page = page;
  }

  /** The provider's host, for "Sign in with …". */
  get providerName(): string {
    return new URL(this.server.config.issuer).host;
  }

  /** The callback the provider sends the browser back to. */
  get redirect(): string {
    return this.page.redirect;
  }

  /** A session's access token checked again, exactly as /mcp checks a bearer token (and remembered as long). */
  check(accessToken: string): Promise<Authenticated> {
    return this.server.authenticate(accessToken);
  }

  /** The provider's authorization URL for a new sign-in, and what to keep until the browser returns; or why there is
   *  none (the provider's metadata cannot be read). */
  async begin(): Promise<
    { readonly ok: true; readonly url: string; readonly pending: PendingSignIn } | { readonly ok: false; readonly reason: string }
  > {
    let configuration: client.Configuration;
    try {
      configuration = await this.configure();
    } catch (error) {
      if (error instanceof IssuerUnavailableError) return { ok: false, reason: UNREACHABLE };
      throw error;
    }
    const pending: PendingSignIn = {
      state: client.randomState(),
      nonce: client.randomNonce(),
      verifier: client.randomPKCECodeVerifier(),
    };
    const url = client.buildAuthorizationUrl(configuration, {
      redirect_uri: this.page.redirect,
      response_type: "code",
      scope: ["openid", ...this.server.config.scopes].join(" "),
      resource: this.server.config.resource,
      state: pending.state,
      nonce: pending.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(pending.verifier),
      code_challenge_method: "S256",
    });
    return { ok: true, url: url.href, pending };
  }

  /** The browser's return to the callback (`callbackUrl`, its whole query): the code redeemed, the ID token and
   *  state checked by openid-client, then the access token checked as on /mcp. */
  async complete(callbackUrl: URL, pending: PendingSignIn): Promise<PageSignInResult> {
    let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
    try {
      const configuration = await this.configure();
      // The callback as registered, with the query the browser brought (a proxy may have changed the origin).
      const current = new URL(this.page.redirect);
      current.search = callbackUrl.search;
      tokens = await client.authorizationCodeGrant(
        configuration,
        current,
        { pkceCodeVerifier: pending.verifier, expectedState: pending.state, expectedNonce: pending.nonce, idTokenExpected: true },
        { resource: this.server.config.resource },
      );
    } catch (error) {
      const reason = describeError(error);
      return { ok: false, reason, ...(reason === UNREACHABLE ? { unavailable: true } : {}) };
    }
    const checked = await this.server.authenticate(tokens.access_token);
    if (!checked.ok) return { ok: false, reason: `the access token was refused: ${checked.refusal.description}`, refusal: checked.refusal };
    const claims = tokens.claims();
    const named = [claims?.["preferred_username"], claims?.["name"], claims?.["email"]].find(
      (value): value is string => typeof value === "string" && value.trim() !== "",
    );
    return { ok: true, identity: checked.identity, accessToken: tokens.access_token, displayName: named ?? checked.identity.name };
  }

  /** openid-client's view of the provider, from the metadata the resource server already discovered (one
   *  discovery, one mix-up check). */
  private async configure(): Promise<client.Configuration> {
    if (this.configuration !== undefined) return this.configuration;
    const metadata = await this.server.issuer.metadata();
    const secret = this.options.clientSecret;
    const configuration = new client.Configuration(
      metadata as client.ServerMetadata,
      this.page.clientId,
      secret,
      secret === undefined ? client.None() : client.ClientSecretBasic(secret),
    );
    configuration.timeout = Math.round((this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS) / 1000);
    // The config accepts an http:// issuer on a loopback host only.
    if (new URL(this.server.config.issuer).protocol === "http:") client.allowInsecureRequests(configuration);
    this.configuration = configuration;
    return configuration;
  }
}

const UNREACHABLE = "the provider cannot be reached";

/** One sentence per failure, never quoting what the provider or the browser sent. */
function describeError(error: unknown): string {
  if (error instanceof IssuerUnavailableError) return UNREACHABLE;
  if (error instanceof client.AuthorizationResponseError) {
    return error.error === "access_denied"
      ? "the provider did not grant access"
      : `the provider answered the sign-in with ${safe(error.error)}`;
  }
  if (error instanceof client.ResponseBodyError) return `the provider refused to redeem the code (${safe(error.error)})`;
  if (error instanceof client.ClientError) {
    // openid-client wraps oauth4webapi's error, whose message names the check that failed.
    const message = `${error.message} ${error.cause instanceof Error ? error.cause.message : ""}`.toLowerCase();
    if (message.includes('"state"')) return "the sign-in's state does not match the one this browser started";
    if (message.includes("nonce")) return "the ID token's nonce does not match the one this browser started";
    if (message.includes("fetch") || error.code === "OAUTH_TIMEOUT") return UNREACHABLE;
    return "the provider's answer did not pass the checks of the OpenID flow";
  }
  if (error instanceof TypeError) return UNREACHABLE;
  return "the provider's answer did not pass the checks of the OpenID flow";
}

/** An OAuth error code (RFC 6749 limits it to these characters); anything else is not repeated. */
function safe(code: string): string {
  return /^[\x20-\x21\x23-\x5b\x5d-\x7e]{1,64}$/.test(code) ? code : "an error";
}
