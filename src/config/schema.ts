// The config's JSON Schema (draft 2020-12): the one source of truth. `config.schema.json` at the repo root is
// `formatSchema()` written to disk (a test keeps the two equal); `skillshelf schema` prints the same text.
import { ENV_PATTERN, FORMAT_DEFS, strings } from "./schema-formats.js";
import { GUARD_DEFS } from "./schema-guard.js";
import { OAUTH_DEFS } from "./schema-oauth.js";

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
    usage: {
      type: "object",
      description:
        "Count what is read and searched, per day, skill, client and surface (docs/usage.md). Absent: nothing is counted. {} counts into the embedded database under the cache directory.",
      additionalProperties: false,
      properties: {
        database: {
          $ref: "#/$defs/secretRef",
          description:
            "The environment variable holding a PostgreSQL URL (postgres://user:password@host:5432/db), shared by replicas. Absent: the embedded database.",
        },
        claim: {
          type: "string",
          minLength: 1,
          description:
            "The claim of a signed-in user's token recorded as the client (a dotted path; a list is recorded sorted, joined by commas). Name sub to record the person.",
          default: "groups",
        },
        retention: { $ref: "#/$defs/duration", description: "How long daily rows are kept.", default: "400d" },
        flush: { $ref: "#/$defs/duration", description: "How often counts held in memory are written.", default: "10s" },
        buffer: {
          type: "integer",
          minimum: 1,
          maximum: 1000000,
          description: "Distinct rows held in memory while the database is away; a use past it is dropped and counted.",
          default: 10000,
        },
      },
    },
    guard: { $ref: "#/$defs/guard" },
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
    ...FORMAT_DEFS,
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
        guard: { $ref: "#/$defs/libraryGuard" },
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
    ...OAUTH_DEFS,
    ...GUARD_DEFS,
  },
} as const;

/** The schema as committed in `config.schema.json` and printed by `skillshelf schema`. */
export function formatSchema(): string {
  return JSON.stringify(CONFIG_SCHEMA, null, 2) + "\n";
}
