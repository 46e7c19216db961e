// This server as an OAuth 2.1 protected resource: a bearer token is checked (a JWT against the issuer's keys, or an
// opaque token at its introspection endpoint), its claims become an identity once, and that identity is kept until
// the token expires. Refusals follow RFC 6750 and never carry the token.
import { createHash } from "node:crypto";
import { decodeJwt, errors, jwtVerify, type JWTPayload } from "jose";
import type { OAuthConfig } from "../config/index.js";
import { ExpiringMap } from "../memo/index.js";
import { grantOf, type Claims, type Identity, type SignedIn } from "./identity.js";
import { Issuer, IssuerUnavailableError, type IssuerOptions, type IssuerState } from "./issuer.js";

/** A refused token, as RFC 6750 names it. */
export interface Refusal {
  readonly status: 400 | 401 | 403 | 503;
  readonly error: "invalid_request" | "invalid_token" | "insufficient_scope" | "temporarily_unavailable";
  readonly description: string;
  /** For the debug log: what the token claims to be (unverified when the token is refused). */
  readonly subject?: string;
  readonly clientId?: string;
}

export type Authenticated = { readonly ok: true; readonly identity: Identity } | { readonly ok: false; readonly refusal: Refusal };

export interface ResourceServerOptions extends IssuerOptions {
  /** The introspection client's secret, read from the environment by the caller. */
  readonly introspectionSecret?: string;
  /** How many checked tokens are remembered (the oldest go first). */
  readonly cacheSize?: number;
  /** An introspected token is asked about again after this long, even if it lives longer (a revocation shows). */
  readonly introspectionTtlMs?: number;
}

/** /health's view of signing in. */
export interface OAuthState extends IssuerState {
  readonly resource: string;
  readonly introspection: "off" | "on";
  /** Tokens whose identity is remembered now. */
  readonly cachedTokens: number;
}

const DEFAULT_CACHE_SIZE = 10_000;
const DEFAULT_INTROSPECTION_TTL_MS = 60_000;
const WELL_KNOWN = "/.well-known/oauth-protected-resource";

export class ResourceServer {
  readonly issuer: Issuer;
  /** Identities of tokens checked, by the token's sha256, until the token expires (or the introspection TTL ends);
   *  bounded: the expired go first, then the oldest. */
  private readonly cache: ExpiringMap<string, Identity>;
  private readonly now: () => number;

  constructor(
    readonly config: OAuthConfig,
    private readonly options: ResourceServerOptions = {},
  ) {
    this.issuer = new Issuer(config.issuer, options);
    this.now = options.now ?? Date.now;
    this.cache = new ExpiringMap(options.cacheSize ?? DEFAULT_CACHE_SIZE, this.now);
  }

  /** Read the provider's metadata and keys now, so the first user does not wait for them and /health has news. */
  start(): Promise<void> {
    return this.issuer.refresh();
  }

  /** The paths the resource metadata is served at: RFC 9728's form for a resource with a path (`…/mcp`), and the
   *  bare one that older clients ask for. */
  get metadataPaths(): readonly string[] {
    const path = new URL(this.config.resource).pathname.replace(/\/$/, "");
    return path === "" ? [WELL_KNOWN] : [`${WELL_KNOWN}${path}`, WELL_KNOWN];
  }

  /** The URL a 401 points clients to (`resource_metadata`). */
  get metadataUrl(): string {
    return new URL(this.metadataPaths[0] as string, this.config.resource).href;
  }

  /** RFC 9728 protected resource metadata. */
  metadata(): Record<string, unknown> {
    return {
      resource: this.config.resource,
      authorization_servers: [this.config.issuer],
      ...(this.config.scopes.length === 0 ? {} : { scopes_supported: this.config.scopes }),
      bearer_methods_supported: ["header"],
      resource_signing_alg_values_supported: this.config.algorithms,
      resource_name: "skillshelf",
    };
  }

  state(): OAuthState {
    return {
      ...this.issuer.state(),
      resource: this.config.resource,
      introspection: this.config.introspection === undefined ? "off" : "on",
      cachedTokens: this.cache.size,
    };
  }

  /** The `WWW-Authenticate` value of a refusal, or of a request without a token when no refusal is given. */
  challenge(refusal?: Refusal): string {
    const params: [string, string][] = [];
    if (refusal !== undefined && refusal.error !== "temporarily_unavailable") {
      params.push(["error", refusal.error], ["error_description", refusal.description]);
    }
    if (this.config.scopes.length > 0) params.push(["scope", this.config.scopes.join(" ")]);
    params.push(["resource_metadata", this.metadataUrl]);
    return `Bearer ${params.map(([name, value]) => `${name}="${quoted(value)}"`).join(", ")}`;
  }

  async authenticate(token: string): Promise<Authenticated> {
    const key = createHash("sha256").update(token, "utf8").digest("base64url");
    const remembered = this.cache.get(key);
    if (remembered !== undefined) return { ok: true, identity: remembered };
    const checked = isJwt(token) ? await this.checkJwt(token) : await this.introspect(token);
    if (!checked.ok) return checked;
    const { claims, signedIn, until } = checked;
    const missing = this.config.scopes.filter((scope) => !scopesOf(claims).includes(scope));
    if (missing.length > 0) return refuse(403, "insufficient_scope", `the token lacks the scope ${missing.join(" ")}`, signedIn);
    const grant = grantOf(this.config, claims);
    if (!grant.granted && !grant.admin) {
      return refuse(403, "insufficient_scope", "signed in, but no rule of this server grants this user anything", signedIn);
    }
    const identity: Identity = { name: signedIn.subject, scope: grant.scope, admin: grant.admin, signedIn, claims };
    this.cache.set(key, identity, until);
    return { ok: true, identity };
  }

  private async checkJwt(token: string): Promise<Checked> {
    const claimed = unverified(token);
    try {
      const { payload } = await jwtVerify(token, this.issuer.key, {
        issuer: this.config.issuer,
        audience: [this.config.resource, ...this.config.audiences],
        algorithms: [...this.config.algorithms],
        clockTolerance: Math.round(this.config.clockSkewMs / 1000),
        requiredClaims: ["exp", "sub"],
        currentDate: new Date(this.now()),
      });
      const signedIn = signedInOf(payload);
      return { ok: true, claims: payload, signedIn, until: (signedIn.expiresAt + this.config.clockSkewMs / 1000) * 1000 };
    } catch (error) {
      if (error instanceof IssuerUnavailableError) {
        return refuse(503, "temporarily_unavailable", "the authorization server cannot be reached to check the token", claimed);
      }
      return refuse(401, "invalid_token", describeJoseError(error), claimed);
    }
  }

  private async introspect(token: string): Promise<Checked> {
    const introspection = this.config.introspection;
    if (introspection === undefined || this.options.introspectionSecret === undefined) {
      return refuse(401, "invalid_token", "the token is not a JWT access token");
    }
    let endpoint = introspection.endpoint;
    let answer: Claims;
    try {
      endpoint ??= (await this.issuer.metadata()).introspection_endpoint;
      if (typeof endpoint !== "string") throw new IssuerUnavailableError("the issuer's metadata names no introspection_endpoint");
      const basic = Buffer.from(
        `${encodeURIComponent(introspection.clientId)}:${encodeURIComponent(this.options.introspectionSecret)}`,
      ).toString("base64");
      const response = await (this.options.fetch ?? fetch)(endpoint, {
        method: "POST",
        headers: { authorization: `Basic ${basic}`, "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
        body: new URLSearchParams({ token, token_type_hint: "access_token" }).toString(),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 5_000),
      });
      if (!response.ok) throw new IssuerUnavailableError(`the introspection endpoint answered HTTP ${response.status}`);
      const body: unknown = await response.json();
      if (typeof body !== "object" || body === null || Array.isArray(body))
        throw new IssuerUnavailableError("the introspection answer is not an object");
      answer = body as Claims;
    } catch {
      return refuse(503, "temporarily_unavailable", "the authorization server cannot be reached to check the token");
    }
    if (answer["active"] !== true) return refuse(401, "invalid_token", "the token is not active");
    const signedIn = signedInOf(answer);
    const nowSeconds = this.now() / 1000;
    const skew = this.config.clockSkewMs / 1000;
    if (answer["iss"] !== undefined && answer["iss"] !== this.config.issuer) {
      return refuse(401, "invalid_token", "the token was issued by another issuer", signedIn);
    }
    const audience = answer["aud"];
    const accepted = [this.config.resource, ...this.config.audiences];
    if (audience !== undefined && !(Array.isArray(audience) ? audience : [audience]).some((aud) => accepted.includes(aud as string))) {
      return refuse(401, "invalid_token", "the token was not issued for this resource", signedIn);
    }
    if (typeof answer["exp"] === "number" && answer["exp"] + skew <= nowSeconds)
      return refuse(401, "invalid_token", "the token has expired", signedIn);
    const ttl = this.options.introspectionTtlMs ?? DEFAULT_INTROSPECTION_TTL_MS;
    const until = Math.min(this.now() + ttl, typeof answer["exp"] === "number" ? answer["exp"] * 1000 : Infinity);
    return { ok: true, claims: answer, signedIn, until };
  }
}

type Checked =
  | { readonly ok: true; readonly claims: Claims; readonly signedIn: SignedIn; readonly until: number }
  | { readonly ok: false; readonly refusal: Refusal };

function refuse(
  status: Refusal["status"],
  error: Refusal["error"],
  description: string,
  who?: Partial<SignedIn>,
): { ok: false; refusal: Refusal } {
  return {
    ok: false,
    refusal: {
      status,
      error,
      description,
      ...(who?.subject === undefined ? {} : { subject: who.subject }),
      ...(who?.clientId === undefined ? {} : { clientId: who.clientId }),
    },
  };
}

function signedInOf(claims: Claims | JWTPayload): SignedIn {
  const clientId =
    typeof claims["client_id"] === "string" ? claims["client_id"] : typeof claims["azp"] === "string" ? claims["azp"] : undefined;
  return {
    subject:
      typeof claims["sub"] === "string" ? claims["sub"] : typeof claims["username"] === "string" ? claims["username"] : "(no subject)",
    ...(clientId === undefined ? {} : { clientId }),
    expiresAt: typeof claims["exp"] === "number" ? claims["exp"] : 0,
  };
}

/** What a refused JWT says it is, for the log only. */
function unverified(token: string): Partial<SignedIn> {
  try {
    const claims = decodeJwt(token);
    const signedIn = signedInOf(claims);
    return {
      ...(typeof claims.sub === "string" ? { subject: signedIn.subject } : {}),
      ...(signedIn.clientId === undefined ? {} : { clientId: signedIn.clientId }),
    };
  } catch {
    return {};
  }
}

/** `scope` (space-separated, RFC 9068 and most providers) or `scp` (Entra ID: a string or a list). */
function scopesOf(claims: Claims): string[] {
  const scope = claims["scope"] ?? claims["scp"];
  if (typeof scope === "string") return scope.split(" ").filter((s) => s !== "");
  return Array.isArray(scope) ? scope.filter((s): s is string => typeof s === "string") : [];
}

/** Three base64url segments: a JWS compact serialisation. */
function isJwt(token: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(token);
}

/** One sentence per failure, never quoting the token or a claim value. */
function describeJoseError(error: unknown): string {
  if (error instanceof errors.JWTExpired) return "the token has expired";
  if (error instanceof errors.JWTClaimValidationFailed) {
    switch (error.claim) {
      case "nbf":
        return "the token is not valid yet";
      case "iss":
        return "the token was issued by another issuer";
      case "aud":
        return "the token was not issued for this resource";
      case "iat":
        return "the token's issue time is not valid";
      default:
        return `the token's ${error.claim} claim is missing or not valid`;
    }
  }
  if (error instanceof errors.JOSEAlgNotAllowed) return "the token is signed with an algorithm this server does not accept";
  if (error instanceof errors.JWKSNoMatchingKey) return "the token is signed with a key the issuer does not publish";
  if (error instanceof errors.JWSSignatureVerificationFailed) return "the token's signature does not verify";
  return "the token is not a valid JWT";
}

/** An HTTP quoted-string (RFC 9110): backslash and quote escaped, anything unprintable replaced. */
function quoted(value: string): string {
  return value.replaceAll(/[\\"]/g, "\\$&").replaceAll(/[^\x20-\x7e]/g, " ");
}
