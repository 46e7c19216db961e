// Signing in with an OAuth 2.1 / OpenID provider: the `oauth` section of CONFIG_SCHEMA and the grants its rules
// give (schema.ts spreads these into its `$defs`, keeping their order).
import { strings } from "./schema-formats.js";

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

export const OAUTH_DEFS = {
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
} as const;
