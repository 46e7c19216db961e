// The config's JSON Schema (draft 2020-12): the one source of truth. `config.schema.json` at the repo root is
// `formatSchema()` written to disk (a test keeps the two equal); `skillshelf schema` prints the same text.

/** Library, plugin, source and client names (§3.4). */
const NAME_PATTERN = "^[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$";
/** A plugin named by a library: `<plugin>` or `<entry>@<library>` (a marketplace entry). */
const PLUGIN_REF_PATTERN = "^[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?(@[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?)?$";
/** An environment variable name. */
const ENV_PATTERN = "^[A-Za-z_][A-Za-z0-9_]*$";
/** `500ms`, `60s`, `5m`, `1h`, `1d` (a plain number is milliseconds). */
const DURATION_PATTERN = "^[0-9]+(\\.[0-9]+)?(ms|s|m|h|d)$";
/** `8MiB`, `512KiB`, `1GB`, `1024` (a plain number is bytes). */
const SIZE_PATTERN = "^[0-9]+(\\.[0-9]+)? ?(B|kB|KB|KiB|MB|MiB|GB|GiB)?$";
/** A tag or keyword: no comma (selectors read commas as all-of), no surrounding whitespace. */
const TAG_PATTERN = "^[^,\\s]([^,]*[^,\\s])?$";
/** A tag selector item: comma-separated tags, all of which a plugin must carry. */
const TAG_SELECTOR_PATTERN = "^ *[^,\\s]([^,]*[^,\\s])? *(, *[^,\\s]([^,]*[^,\\s])? *)*$";

/** JWS algorithms an access token may be signed with: asymmetric only (never none, never HMAC). */
export const OAUTH_ALGORITHMS = [
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
] as const;

const strings = (description: string, items: object = { type: "string", minLength: 1 }) => ({ type: "array", description, items }) as const;

export const CONFIG_SCHEMA = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  title: "skillshelf config",
  description: "One YAML file that gathers Agent Skills and prompts from sources into libraries. Unknown keys are errors.",
  type: "object",
  additionalProperties: false,
  required: ["libraries"],
  properties: {
    sources: { type: "array", description: "Named backends that hold credentials.", items: { $ref: "#/$defs/source" } },
    plugins: { type: "array", description: "Folders inside fetches, with globs.", items: { $ref: "#/$defs/plugin" } },
    libraries: {
      type: "array",
      description: "The first URI segment; each serves the plugins it names, in order.",
      minItems: 1,
      items: { $ref: "#/$defs/library" },
    },
    clients: { type: "array", description: "Bearer-token clients and their scope ceilings.", items: { $ref: "#/$defs/client" } },
    anonymous: {
      type: ["boolean", "object"],
      description:
        "Serve requests without a token: true, false, or {scope} to serve them under a ceiling of their own. Default: true when no clients are declared, false otherwise.",
      additionalProperties: false,
      required: ["scope"],
      properties: { scope: { $ref: "#/$defs/scope", description: "The ceiling of what a request without a token sees." } },
    },
    oauth: { $ref: "#/$defs/oauth" },
    feeds: {
      type: "object",
      description:
        "Personal install links (/feeds/<token>): the discovery index and its artifacts for installers that send no Authorization header.",
      additionalProperties: false,
      required: ["secret"],
      properties: {
        secret: { $ref: "#/$defs/secretRef", description: "Signs the links (at least 32 bytes); rotating it revokes every link." },
        lifetime: { $ref: "#/$defs/duration", description: "How long a link lives.", default: "90d" },
        revoked: {
          type: "array",
          description: "Ids of links revoked one by one (the id the link was issued with).",
          items: { type: "string", minLength: 1 },
        },
      },
    },
    guard: {
      type: "object",
      description:
        "What the supply-chain checks' findings do: severities that quarantine a skill (not served anywhere, named on /health), the rest warn; findings released by rule and file.",
      additionalProperties: false,
      properties: {
        quarantine: {
          type: "array",
          description: "Severities whose findings quarantine the skill or prompt they are in.",
          items: { enum: ["critical", "high", "medium", "low"] },
          uniqueItems: true,
          default: ["critical"],
        },
        allow: {
          type: "array",
          description:
            "Findings released as false positives: the rule id and the file's skill:// URI (as /health names them); with digest, only for those bytes.",
          items: {
            type: "object",
            additionalProperties: false,
            required: ["rule", "file"],
            properties: {
              rule: { type: "string", minLength: 1 },
              file: { type: "string", pattern: "^skill://" },
              digest: { type: "string", pattern: "^sha256:[0-9a-f]{64}$" },
            },
          },
        },
      },
    },
    ttl: { $ref: "#/$defs/duration", description: "ttlMs on cacheable results.", default: "60s" },
    limits: {
      type: "object",
      additionalProperties: false,
      properties: {
        fileBytes: { $ref: "#/$defs/size", description: "Files larger than this are skipped.", default: "8MiB" },
      },
    },
  },
  $defs: {
    name: { type: "string", pattern: NAME_PATTERN, description: "1-64 characters of a-z, 0-9 and '-', no '-' first or last." },
    pluginRef: { type: "string", pattern: PLUGIN_REF_PATTERN, description: "A plugin name, or <entry>@<library>." },
    secretRef: {
      type: "object",
      description: "A secret read from the environment when used; never written in the file.",
      additionalProperties: false,
      required: ["env"],
      properties: { env: { type: "string", pattern: ENV_PATTERN } },
    },
    duration: {
      type: ["string", "integer"],
      description: "A number of milliseconds, or a number with a unit: ms, s, m, h, d (500ms, 60s, 1h).",
      pattern: DURATION_PATTERN,
      minimum: 0,
    },
    size: {
      type: ["string", "integer"],
      description: "A number of bytes, or a number with a unit: B, KiB, MiB, GiB (1024-based), kB, MB, GB (1000-based).",
      pattern: SIZE_PATTERN,
      minimum: 1,
    },
    address: {
      type: "string",
      minLength: 1,
      description: "<source>://<path>[//<subdir>][?ref=<ref>], file:///abs/path, or a local path starting with ./, ../ or /.",
    },
    glob: { type: "string", minLength: 1, description: "Relative to the plugin root; no '..' segment." },
    tag: { type: "string", pattern: TAG_PATTERN },
    tagSelector: { type: "string", pattern: TAG_SELECTOR_PATTERN, description: "All of its comma-separated tags." },
    version: { type: "string", minLength: 1 },
    source: {
      type: "object",
      additionalProperties: false,
      required: ["name", "url"],
      properties: {
        name: { $ref: "#/$defs/name" },
        url: {
          type: "string",
          minLength: 1,
          description: "git+https://, git+http://, git+file://, file://, webdav+https:// or webdav+http:// (no userinfo).",
        },
        refresh: {
          $ref: "#/$defs/duration",
          description: "Re-resolve branch and tag refs (git sources), or list the share again (WebDAV sources), this often.",
        },
        auth: {
          type: "object",
          description:
            "Credentials of a git host or a WebDAV share (required there, username included), read from the environment when used.",
          additionalProperties: false,
          properties: {
            username: {
              type: ["string", "object"],
              description: "A plain user name, or {env: NAME}.",
              minLength: 1,
              additionalProperties: false,
              required: ["env"],
              properties: { env: { type: "string", pattern: ENV_PATTERN } },
            },
            password: { $ref: "#/$defs/secretRef" },
          },
        },
        watch: { type: "boolean", description: "Watch local folders read through this source.", default: true },
        cache: {
          enum: ["snapshot", "live"],
          description:
            "WebDAV sources only. snapshot: serve the last export, listed again on refresh and /reindex; live: also check each file read against the share (its ETag), falling back to the export when the share is slow or down.",
          default: "snapshot",
        },
      },
    },
    plugin: {
      type: "object",
      additionalProperties: false,
      required: ["name", "source"],
      properties: {
        name: { $ref: "#/$defs/name" },
        source: { $ref: "#/$defs/address" },
        description: { type: "string" },
        category: { type: "string", minLength: 1 },
        tags: strings("Matched by tag selectors.", { $ref: "#/$defs/tag" }),
        keywords: strings("Matched by tag selectors, like tags.", { $ref: "#/$defs/tag" }),
        version: { $ref: "#/$defs/version" },
        skills: strings("Globs picking SKILL.md files or skill directories; absent = conventions, [] = none.", { $ref: "#/$defs/glob" }),
        prompts: strings("Globs picking prompt files; absent = conventions, [] = none.", { $ref: "#/$defs/glob" }),
        files: strings("Globs picking library files; absent or [] = none.", { $ref: "#/$defs/glob" }),
        dialect: { enum: ["auto", "skillshelf", "claude", "copilot"], default: "auto" },
        watch: { type: "boolean", description: "Watch the folder when local. Default: its source's watch, else true." },
        naming: {
          enum: ["strict", "lenient"],
          description: "strict: skip a skill whose name breaks the Agent Skills rules; lenient: serve it with a warning.",
        },
      },
    },
    library: {
      type: "object",
      additionalProperties: false,
      required: ["name"],
      properties: {
        name: { $ref: "#/$defs/name" },
        description: { type: "string" },
        source: { $ref: "#/$defs/address", description: "A repository holding a marketplace file." },
        naming: {
          enum: ["strict", "lenient"],
          description:
            "For the marketplace entries of source. strict: skip a skill whose name breaks the Agent Skills rules; lenient: serve it with a warning.",
        },
        conflicts: {
          enum: ["keep-first", "drop-plugin"],
          default: "keep-first",
          description:
            "A plugin colliding with an earlier one. keep-first: the earlier plugin keeps each contested address and the later one serves the rest; drop-plugin: the later plugin is dropped whole.",
        },
        plugins: strings("Plugin names, or <entry>@<library>, in serving order.", { $ref: "#/$defs/pluginRef" }),
        pluginSelector: {
          type: "object",
          description: "Every plugin whose category is any of categories and that matches any item of tags.",
          additionalProperties: false,
          properties: {
            categories: strings("Any of these categories."),
            tags: strings("Any of these items; each item is all of its comma-separated tags.", { $ref: "#/$defs/tagSelector" }),
          },
        },
      },
    },
    scope: {
      type: "object",
      description: "A ceiling: what its holder sees, at most.",
      additionalProperties: false,
      properties: {
        library: { $ref: "#/$defs/name" },
        categories: strings("Any of these categories."),
        tags: strings("Any of these items; each item is all of its comma-separated tags.", { $ref: "#/$defs/tagSelector" }),
      },
    },
    client: {
      type: "object",
      additionalProperties: false,
      required: ["name", "token"],
      properties: {
        name: { $ref: "#/$defs/name" },
        token: { $ref: "#/$defs/secretRef", description: "The bearer token, read from the environment." },
        scope: { $ref: "#/$defs/scope", description: "The ceiling of what this client sees." },
        admin: { type: "boolean", description: "May call /reindex and read /health.", default: false },
      },
    },
    oauth: {
      type: "object",
      description: "Sign in with an OAuth 2.1 / OpenID provider: /mcp becomes a protected resource of issuer (RFC 9728).",
      additionalProperties: false,
      required: ["issuer", "resource"],
      properties: {
        issuer: { type: "string", minLength: 1, description: "The provider's issuer identifier, exactly as its metadata names it." },
        resource: {
          type: "string",
          minLength: 1,
          description: "This server's public MCP URL (https://skills.example.com/mcp): the audience tokens are minted for (RFC 8707).",
        },
        audiences: strings(
          "Further aud values a token may carry instead of resource, for a provider that names the API otherwise (Entra ID: the application's client id).",
        ),
        algorithms: {
          type: "array",
          description: "JWS algorithms accepted on access tokens. Default: every listed one.",
          minItems: 1,
          items: { enum: [...OAUTH_ALGORITHMS] },
        },
        clockSkew: { $ref: "#/$defs/duration", description: "Leeway on exp and nbf (at most 5m).", default: "30s" },
        scopes: strings("OAuth scopes advertised in the resource metadata and required of every token.", {
          type: "string",
          pattern: "^[\\x21\\x23-\\x5b\\x5d-\\x7e]+$",
        }),
        introspection: {
          type: "object",
          description: "Opaque (non-JWT) tokens are checked at the provider's introspection endpoint (RFC 7662).",
          additionalProperties: false,
          required: ["clientId", "clientSecret"],
          properties: {
            endpoint: { type: "string", minLength: 1, description: "Absent: introspection_endpoint from the provider's metadata." },
            clientId: { type: "string", minLength: 1 },
            clientSecret: { $ref: "#/$defs/secretRef", description: "Read from the environment." },
          },
        },
        page: {
          type: "object",
          description:
            "The page for people signs users in with this provider: the authorization code flow with PKCE, as this client of the provider.",
          additionalProperties: false,
          required: ["clientId"],
          properties: {
            clientId: { type: "string", minLength: 1, description: "The page's client id at the provider." },
            clientSecret: {
              $ref: "#/$defs/secretRef",
              description: "The page's client secret, read from the environment. Absent: a public client (PKCE only).",
            },
            redirect: {
              type: "string",
              minLength: 1,
              description: "The callback URL registered at the provider. Default: /signin/oidc/callback at the origin of resource.",
            },
          },
        },
        rules: {
          type: "array",
          description: "Claims to ceilings: every matching rule adds what it grants.",
          items: { $ref: "#/$defs/claimRule" },
        },
        default: { $ref: "#/$defs/grant", description: "The ceiling of a signed-in user no rule grants anything. Absent: refused." },
      },
    },
    grant: {
      type: "object",
      description: "A ceiling granted to signed-in users: the keys of a scope, or libraries to grant several at once.",
      additionalProperties: false,
      properties: {
        library: { $ref: "#/$defs/name" },
        libraries: strings("Each of these libraries, with the same categories and tags.", { $ref: "#/$defs/name" }),
        categories: strings("Any of these categories."),
        tags: strings("Any of these items; each item is all of its comma-separated tags.", { $ref: "#/$defs/tagSelector" }),
      },
    },
    claimRule: {
      type: "object",
      additionalProperties: false,
      required: ["claim"],
      properties: {
        claim: { type: "string", minLength: 1, description: "A claim name, or a dotted path into nested claims (realm_access.roles)." },
        includes: { type: "string", minLength: 1, description: "The claim is this value, or a list holding it." },
        equals: { type: "string", minLength: 1, description: "The claim is exactly this value." },
        scope: { $ref: "#/$defs/grant", description: "What a matching user may see." },
        admin: { type: "boolean", description: "A matching user may call /reindex and read /health.", default: false },
      },
    },
  },
} as const;

/** The schema as committed in `config.schema.json` and printed by `skillshelf schema`. */
export function formatSchema(): string {
  return JSON.stringify(CONFIG_SCHEMA, null, 2) + "\n";
}
