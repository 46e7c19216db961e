// The authorization server as this resource server knows it: its metadata (OpenID discovery, else RFC 8414) and
// its signing keys. Keys are fetched on first need, refreshed when stale or when a token names a key id they do not
// hold — never more often than the cooldown — and kept when a refresh fails, so a provider that is down does not
// lock out users whose keys are already here.
import { createLocalJWKSet, errors, type JSONWebKeySet, type JWSHeaderParameters, type FlattenedJWSInput } from "jose";

export interface AuthorizationServerMetadata {
  readonly issuer: string;
  readonly jwks_uri?: string;
  readonly introspection_endpoint?: string;
  readonly [key: string]: unknown;
}

/** What /health shows of the issuer: never a secret, never a token. */
export interface IssuerState {
  readonly issuer: string;
  /** Which document the metadata came from, or `null` while it has not been read. */
  readonly metadata: string | null;
  readonly keys: number;
  /** ISO time of the last successful read of the keys. */
  readonly lastRefresh: string | null;
  /** The last failed read (metadata or keys), while it is the latest attempt. */
  readonly lastError: string | null;
}

export interface IssuerOptions {
  readonly fetch?: typeof fetch;
  readonly now?: () => number;
  /** The least time between two reads of the keys (an unknown key id within it is refused). */
  readonly cooldownMs?: number;
  /** Keys older than this are read again on next use (the old ones kept if that fails). */
  readonly maxAgeMs?: number;
  readonly timeoutMs?: number;
  /** Each change of state (fetched, failed, recovered), once. */
  readonly onChange?: (level: "info" | "warn", message: string, fields: Record<string, unknown>) => void;
}

/** Thrown when a token cannot be checked because no key has ever been read from the provider. */
export class IssuerUnavailableError extends Error {
  override readonly name = "IssuerUnavailableError";
}

const DEFAULT_COOLDOWN_MS = 30_000;
const DEFAULT_MAX_AGE_MS = 10 * 60_000;
const DEFAULT_TIMEOUT_MS = 5_000;
const MAX_DOCUMENT_BYTES = 1024 * 1024;

export class Issuer {
  private metadataDoc: AuthorizationServerMetadata | undefined;
  private metadataFrom: string | null = null;
  private local: ReturnType<typeof createLocalJWKSet> | undefined;
  private keyCount = 0;
  private fetchedAt: number | undefined;
  private attemptedAt: number | undefined;
  private lastRefresh: string | null = null;
  private lastError: string | null = null;
  private pending: Promise<void> | undefined;
  private readonly fetchImpl: typeof fetch;
  private readonly now: () => number;
  private readonly cooldownMs: number;
  private readonly maxAgeMs: number;
  private readonly timeoutMs: number;

  constructor(
    readonly issuer: string,
    private readonly options: IssuerOptions = {},
  ) {
    this.fetchImpl = options.fetch ?? fetch;
    this.now = options.now ?? Date.now;
    this.cooldownMs = options.cooldownMs ?? DEFAULT_COOLDOWN_MS;
    this.maxAgeMs = options.maxAgeMs ?? DEFAULT_MAX_AGE_MS;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  state(): IssuerState {
    return {
      issuer: this.issuer,
      metadata: this.metadataFrom,
      keys: this.keyCount,
      lastRefresh: this.lastRefresh,
      lastError: this.lastError,
    };
  }

  /** The provider's metadata, read once (and again after a failure, past the cooldown). */
  async metadata(): Promise<AuthorizationServerMetadata> {
    if (this.metadataDoc === undefined) await this.refresh();
    if (this.metadataDoc === undefined) throw new IssuerUnavailableError(this.lastError ?? "the issuer's metadata has not been read");
    return this.metadataDoc;
  }

  /** Read the metadata and keys now unless a read is already under way or the cooldown has not passed. */
  refresh(): Promise<void> {
    if (this.pending !== undefined) return this.pending;
    if (this.attemptedAt !== undefined && this.now() - this.attemptedAt < this.cooldownMs) return Promise.resolve();
    this.attemptedAt = this.now();
    this.pending = this.read().finally(() => (this.pending = undefined));
    return this.pending;
  }

  /** A `jwtVerify` key resolver over the cached keys. */
  readonly key = async (header: JWSHeaderParameters, token: FlattenedJWSInput): Promise<CryptoKey | Uint8Array> => {
    if (this.local === undefined || (this.fetchedAt !== undefined && this.now() - this.fetchedAt > this.maxAgeMs)) await this.refresh();
    const local = this.local;
    if (local === undefined) throw new IssuerUnavailableError(this.lastError ?? "no signing key of the issuer has been read");
    try {
      return await local(header, token);
    } catch (error) {
      // A key id the cache does not hold: the provider may have rotated its keys. Read them again (at most once per
      // cooldown) and try once more; within the cooldown the token is refused.
      if (!(error instanceof errors.JWKSNoMatchingKey)) throw error;
      await this.refresh();
      const next = this.local;
      if (next === undefined || next === local) throw error;
      return next(header, token);
    }
  };

  private async read(): Promise<void> {
    try {
      const metadata = this.metadataDoc ?? (await this.discover());
      if (typeof metadata.jwks_uri !== "string") throw new Error("the issuer's metadata names no jwks_uri");
      const jwks = (await this.getJson(metadata.jwks_uri)) as JSONWebKeySet;
      if (typeof jwks !== "object" || jwks === null || !Array.isArray(jwks.keys)) throw new Error(`${metadata.jwks_uri} is not a JWK set`);
      const count = jwks.keys.filter((key) => key.use === undefined || key.use === "sig").length;
      const recovered = this.lastError !== null;
      const changed = count !== this.keyCount;
      this.local = createLocalJWKSet(jwks);
      this.keyCount = count;
      this.fetchedAt = this.now();
      this.lastRefresh = new Date(this.fetchedAt).toISOString();
      this.lastError = null;
      if (recovered || changed) this.options.onChange?.("info", "oauth: signing keys read", { issuer: this.issuer, keys: count });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (message !== this.lastError) {
        this.options.onChange?.("warn", `oauth: cannot read the issuer's ${this.metadataDoc === undefined ? "metadata" : "keys"}`, {
          issuer: this.issuer,
          error: message,
          keptKeys: this.keyCount,
        });
      }
      this.lastError = message;
    }
  }

  /** OpenID discovery first, then RFC 8414; the document must name this very issuer (mix-up protection). */
  private async discover(): Promise<AuthorizationServerMetadata> {
    const url = new URL(this.issuer);
    const path = url.pathname.replace(/\/$/, "");
    const candidates = [
      `${url.origin}${path}/.well-known/openid-configuration`,
      `${url.origin}/.well-known/oauth-authorization-server${path}`,
    ];
    const failures: string[] = [];
    for (const candidate of candidates) {
      let doc: unknown;
      try {
        doc = await this.getJson(candidate);
      } catch (error) {
        failures.push(error instanceof Error ? error.message : String(error));
        continue;
      }
      const metadata = doc as AuthorizationServerMetadata;
      if (typeof doc !== "object" || doc === null || metadata.issuer !== this.issuer) {
        throw new Error(`${candidate} names another issuer than the configured one`);
      }
      this.metadataDoc = metadata;
      this.metadataFrom = candidate;
      return metadata;
    }
    throw new Error(failures.join("; "));
  }

  private async getJson(url: string): Promise<unknown> {
    let response: Response;
    try {
      response = await this.fetchImpl(url, { headers: { accept: "application/json" }, signal: AbortSignal.timeout(this.timeoutMs) });
    } catch (error) {
      const cause = (error as { cause?: { code?: unknown } }).cause?.code;
      throw new Error(`cannot reach ${url} (${typeof cause === "string" ? cause : (error as Error).name})`);
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new Error(`${url} answered HTTP ${response.status}`);
    }
    const text = await response.text();
    if (text.length > MAX_DOCUMENT_BYTES) throw new Error(`${url} answered more than 1 MiB`);
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new Error(`${url} did not answer JSON`);
    }
  }
}
