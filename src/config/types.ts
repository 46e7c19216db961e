// The typed config: what `loadConfig` returns after ajv validated the YAML and the mapping resolved names.

/** A secret is never written in the file: it is read from the environment when used. */
export interface SecretRef {
  readonly env: string;
}

export interface SourceConfig {
  readonly name: string;
  /** A kind of `SOURCE_KINDS` (source-kinds.ts): `git`, `file`, `webdav`, or one registered beside them. */
  readonly kind: string;
  /** As written, e.g. `git+https://github.com`, `file:///srv/skills` or `webdav+https://cloud.example/dav`. Never
   *  carries userinfo. */
  readonly url: string;
  /** Re-resolve branch/tag refs this often (ms); absent = never. */
  readonly refreshMs?: number;
  readonly auth?: { readonly username?: string | SecretRef; readonly password?: SecretRef };
  readonly watch: boolean;
  /** WebDAV only: `snapshot` serves the last export; `live` also revalidates each file read against the share. */
  readonly cache?: "snapshot" | "live";
}

/** Where a plugin's tree comes from. */
export type PluginAddress =
  | {
      readonly kind: "local";
      /** Absolute path of the folder (resolved against the config file's directory). Internal only. */
      readonly abs: string;
      /** The address as the config wrote it: the fetch key. */
      readonly written: string;
    }
  | {
      readonly kind: "source";
      readonly source: string;
      /** Repository or folder path inside the source, e.g. `grafana/skills`. */
      readonly path: string;
      /** Subdirectory inside the fetch (`""` for the root). */
      readonly subdir: string;
      readonly ref?: string;
      readonly written: string;
    };

export type Dialect = "auto" | "skillshelf" | "claude" | "copilot";

/** How skill names are checked: `strict` is the Agent Skills specification (a skill breaking it is skipped);
 *  `lenient` serves a name that differs from its folder, a name that breaks the rule in a valid folder and a long
 *  description, each with a warning. */
export type Naming = "strict" | "lenient";

/** What a library does with a plugin that collides with an earlier one: serve the rest of it (`keep-first`: the
 *  earlier plugin keeps each contested address) or drop it whole (`drop-plugin`). */
export type ConflictRule = "keep-first" | "drop-plugin";

/** The glob lists that pick a plugin's files, declared once and carried from the config (or a marketplace entry,
 *  or a plugin manifest) to the harvest. An absent list means the convention; `[]` turns that kind off. */
export interface PluginGlobs {
  readonly skills?: readonly string[];
  readonly prompts?: readonly string[];
  readonly files?: readonly string[];
  /** Prompt globs declared as Claude commands (by a plugin manifest or a marketplace entry); used when `prompts`
   *  is absent. */
  readonly commands?: readonly string[];
}

export interface PluginConfig extends PluginGlobs {
  readonly name: string;
  readonly address: PluginAddress;
  readonly description: string;
  readonly category?: string;
  readonly tags: readonly string[];
  readonly keywords: readonly string[];
  readonly version?: string;
  readonly dialect: Dialect;
  readonly watch: boolean;
  /** Absent: strict. */
  readonly naming?: Naming;
}

export interface PluginSelector {
  readonly categories: readonly string[];
  /** Each item is all-of its comma parts; items are any-of. */
  readonly tags: readonly string[];
}

export interface LibraryConfig {
  readonly name: string;
  readonly description: string;
  /** A repository holding a marketplace file. */
  readonly source?: PluginAddress;
  readonly plugins: readonly string[];
  readonly pluginSelector?: PluginSelector;
  /** For the entries of `source`'s marketplace; absent: strict. */
  readonly naming?: Naming;
  /** Absent: keep-first. */
  readonly conflicts?: ConflictRule;
  /** Absent: the config's `guard` (the default policy) applies as it is. */
  readonly guard?: LibraryGuardConfig;
}

/** What a scope narrows to: a client's ceiling, or what one request asks for. */
export interface ScopeSpec {
  readonly library?: string;
  /** Any-of. */
  readonly categories?: readonly string[];
  /** Each item is all-of its comma parts; items are any-of. */
  readonly tags?: readonly string[];
}

/** A ceiling: one scope, or the union of several (a signed-in user's matching rules, `anyOf`). An empty `anyOf`
 *  admits nothing; an `anyOf` holding an empty scope admits everything. */
export type Ceiling = ScopeSpec | { readonly anyOf: readonly ScopeSpec[] };

/** Signing in with an OAuth 2.1 / OpenID provider: this server is a protected resource of `issuer`. */
export interface OAuthConfig {
  /** The authorization server's issuer identifier, exactly as its metadata names it. */
  readonly issuer: string;
  /** This server's public MCP URL: the audience tokens must be minted for (RFC 8707). */
  readonly resource: string;
  /** Further `aud` values a token may carry instead of `resource` (a provider that names its API otherwise). */
  readonly audiences: readonly string[];
  /** JWS algorithms accepted on access tokens (never `none`, never HMAC). */
  readonly algorithms: readonly string[];
  readonly clockSkewMs: number;
  /** Advertised in the resource metadata, and required of every token. */
  readonly scopes: readonly string[];
  /** RFC 7662: opaque (non-JWT) tokens are asked about at the provider's introspection endpoint. */
  readonly introspection?: {
    /** Absent: the `introspection_endpoint` of the provider's metadata. */
    readonly endpoint?: string;
    readonly clientId: string;
    readonly clientSecret: SecretRef;
  };
  /** The page for people signs users in with the provider, as this client of it. */
  readonly page?: {
    readonly clientId: string;
    /** Absent: a public client (PKCE only). */
    readonly clientSecret?: SecretRef;
    /** The callback URL registered at the provider (its path is always `/signin/oidc/callback`). */
    readonly redirect: string;
  };
  readonly rules: readonly ClaimRule[];
  /** The ceiling of a signed-in user no rule grants anything; absent: such a user is refused. */
  readonly defaultScope?: ScopeSpec;
}

/** `claim` (a name, or a dotted path into nested claims) holding `value`: as the whole claim, or as an item of a list. */
export interface ClaimRule {
  readonly claim: string;
  readonly match: { readonly includes: string } | { readonly equals: string };
  /** What the rule grants: one ceiling per library it names (a union), or none (admin only). */
  readonly grants: readonly ScopeSpec[];
  readonly admin: boolean;
}

/** Personal install links: signed with a secret from the environment, expiring, revocable one by one. */
export interface FeedsConfig {
  readonly secret: SecretRef;
  readonly lifetimeMs: number;
  readonly revoked: readonly string[];
}

/** Usage counts (docs/usage.md): where they are kept and what a signed-in user is recorded as. */
export interface UsageConfig {
  /** The environment variable holding a PostgreSQL URL; absent: the embedded database under the cache directory. */
  readonly database?: SecretRef;
  /** The claim recorded as a signed-in user's client (`groups` by default; `sub` records the person). */
  readonly claim: string;
  readonly retentionMs: number;
  readonly flushMs: number;
  /** Distinct rows held in memory before uses are dropped (and counted). */
  readonly buffer: number;
}

/** A finding released as a false positive: its rule and the file's skill:// URI (canonical), and when given, only
 *  for bytes of that digest. */
export interface GuardRelease {
  readonly rule: string;
  readonly file: string;
  readonly digest?: string;
}

export type GuardSeverity = "critical" | "high" | "medium" | "low";

/** What the guard's findings do: a finding whose severity is listed quarantines its skill (or prompt), any other
 *  is a warning; a finding an `allow` entry names is released. */
export interface GuardConfig {
  readonly quarantine: readonly GuardSeverity[];
  readonly allow: readonly GuardRelease[];
  /** Absent: only the built-in rules. */
  readonly scanner?: ScannerConfig;
}

/** An external scanner of skill folders: a program printing SARIF 2.1.0, run with the folder as its last argument. */
export interface ScannerConfig {
  /** The program (an absolute path when the config gave one with a `/`) and its arguments. */
  readonly command: readonly string[];
  readonly timeoutMs: number;
  readonly concurrency: number;
  /** What a failed scan's `scanner-failed` finding does to its skill. */
  readonly onFailure: "quarantine" | "warn";
}

/** A library's own policy: `quarantine` (when given) replaces the default's, `allow` adds to the default's. */
export interface LibraryGuardConfig {
  readonly quarantine?: readonly GuardSeverity[];
  readonly allow: readonly GuardRelease[];
}

export interface ClientConfig {
  readonly name: string;
  readonly token: SecretRef;
  readonly scope: ScopeSpec;
  readonly admin: boolean;
}

export interface Config {
  /** The config file as the user named it (for messages), or `null` for zero-config. */
  readonly file: string | null;
  readonly sources: readonly SourceConfig[];
  readonly plugins: readonly PluginConfig[];
  readonly libraries: readonly LibraryConfig[];
  readonly clients: readonly ClientConfig[];
  readonly anonymous: boolean;
  /** The ceiling of requests without a token (`anonymous: {scope}`); absent: they see the whole shelf. */
  readonly anonymousScope?: ScopeSpec;
  /** Absent: bearer tokens are the static clients' only. */
  readonly oauth?: OAuthConfig;
  /** Absent: no install link is valid. */
  readonly feeds?: FeedsConfig;
  /** Absent: nothing is counted. */
  readonly usage?: UsageConfig;
  /** Absent: quarantine critical findings, warn on the rest, release none. */
  readonly guard?: GuardConfig;
  readonly ttlMs: number;
  readonly limits: { readonly fileBytes: number };
}

/** One broken rule in a config: the file as the user named it, a JSON Pointer into the document (`/` is the
 *  root, `/plugins/2/skills/0` an item), the 1-based line when the YAML has one, and the rule in one sentence. */
export interface ConfigError {
  readonly file: string;
  readonly path: string;
  readonly line?: number;
  readonly rule: string;
}

/** Errors are values: a config either maps to a typed `Config` or lists every rule it broke. */
export type ConfigResult = { readonly ok: true; readonly config: Config } | { readonly ok: false; readonly errors: readonly ConfigError[] };
