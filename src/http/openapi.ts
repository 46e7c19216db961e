// OpenAPI 3.1 for the operator endpoints. The schemas are JSON Schema 2020-12, so tests validate real
// /health and /reindex answers against them with ajv.
import { stringify } from "yaml";

const STRINGS = { type: "array", items: { type: "string" } } as const;
const SKIPPED_PLUGIN = {
  type: "array",
  items: {
    type: "object",
    required: ["plugin", "reason"],
    additionalProperties: false,
    properties: { plugin: { type: "string" }, reason: { type: "string" } },
  },
} as const;

const PATH_ROWS = {
  type: "array",
  items: {
    type: "object",
    required: ["path", "reason"],
    additionalProperties: false,
    properties: { path: { type: "string" }, reason: { type: "string" } },
  },
} as const;

export const HEALTH_SCHEMA = {
  type: "object",
  required: ["status", "generation", "built", "skills", "prompts", "libraries", "plugins", "fetches"],
  additionalProperties: false,
  properties: {
    status: { enum: ["ok", "warnings", "degraded", "failed"] },
    oauth: {
      description: "Present when an issuer is configured: what this server knows of it. Never a secret or a token.",
      type: "object",
      required: ["issuer", "metadata", "keys", "lastRefresh", "lastError", "resource", "introspection", "cachedTokens"],
      additionalProperties: false,
      properties: {
        issuer: { type: "string" },
        metadata: { type: ["string", "null"], description: "The discovery document read, or null until one is." },
        keys: { type: "integer", minimum: 0, description: "Signing keys cached." },
        lastRefresh: { type: ["string", "null"], format: "date-time" },
        lastError: { type: ["string", "null"], description: "The last failed read of the metadata or keys (cached keys are kept)." },
        resource: { type: "string" },
        introspection: { enum: ["on", "off"] },
        cachedTokens: { type: "integer", minimum: 0, description: "Checked tokens whose identity is remembered until they expire." },
      },
    },
    generation: { type: "integer", minimum: 0 },
    built: { type: "string", format: "date-time" },
    skills: { type: "integer", minimum: 0 },
    prompts: { type: "integer", minimum: 0 },
    libraries: {
      type: "object",
      additionalProperties: {
        type: "object",
        required: ["description", "plugins", "skills", "prompts", "files"],
        additionalProperties: false,
        properties: {
          description: { type: "string" },
          plugins: STRINGS,
          skills: { type: "integer", minimum: 0 },
          prompts: { type: "integer", minimum: 0 },
          files: { type: "integer", minimum: 0 },
          error: { type: "string" },
          skipped: SKIPPED_PLUGIN,
          conflicts: { type: "object", additionalProperties: { type: "string" } },
        },
      },
    },
    plugins: {
      type: "object",
      additionalProperties: {
        type: "object",
        required: ["status", "fetch", "root", "tags", "keywords", "libraries", "skills", "prompts", "files"],
        additionalProperties: false,
        properties: {
          status: { enum: ["ok", "failed"] },
          fetch: { type: "string" },
          root: { type: "string" },
          category: { type: "string" },
          tags: STRINGS,
          keywords: STRINGS,
          version: { type: "string" },
          libraries: STRINGS,
          skills: { type: "integer", minimum: 0 },
          prompts: { type: "integer", minimum: 0 },
          files: { type: "integer", minimum: 0 },
          skipped: PATH_ROWS,
          warnings: { ...PATH_ROWS, description: "Served although it bends a rule (naming: lenient): the file, the rule, what was done." },
          dangling: {
            type: "array",
            items: {
              type: "object",
              required: ["skill", "cites"],
              additionalProperties: false,
              properties: { skill: { type: "string" }, cites: { type: "string" } },
            },
          },
          error: { type: "string" },
        },
      },
    },
    fetches: {
      type: "object",
      additionalProperties: {
        type: "object",
        required: ["status"],
        additionalProperties: false,
        properties: {
          status: { enum: ["ok", "stale", "failed"] },
          built: { type: "string", format: "date-time" },
          watch: { enum: ["watching", "degraded", "off"] },
          error: { type: "string" },
        },
      },
    },
    guard: {
      type: "object",
      description: "What the supply-chain checks found and what the policy made of it; absent when they found nothing.",
      required: ["quarantined", "findings"],
      additionalProperties: false,
      properties: {
        quarantined: {
          type: "array",
          items: {
            type: "object",
            required: ["library", "plugin", "why"],
            additionalProperties: false,
            properties: {
              library: { type: "string" },
              plugin: { type: "string" },
              skill: { type: "string" },
              prompt: { type: "string" },
              why: STRINGS,
            },
          },
        },
        findings: {
          type: "array",
          items: {
            type: "object",
            required: ["rule", "severity", "file", "line", "reason", "fix", "action", "digest", "library"],
            additionalProperties: false,
            properties: {
              rule: { type: "string" },
              severity: { enum: ["critical", "high", "medium", "low"] },
              file: { type: "string" },
              line: { type: "integer", minimum: 1 },
              reason: { type: "string" },
              fix: { type: "string" },
              action: { enum: ["quarantine", "warn", "released"] },
              digest: { type: "string" },
              library: { type: "string" },
              skill: { type: "string" },
              prompt: { type: "string" },
            },
          },
        },
        lookAlikes: {
          type: "array",
          items: {
            type: "object",
            required: ["rule", "severity", "skill", "other", "reason"],
            additionalProperties: false,
            properties: {
              rule: { enum: ["name-confusable", "name-one-edit", "name-taken"] },
              severity: { enum: ["medium"] },
              skill: { type: "string" },
              other: { type: "string" },
              reason: { type: "string" },
            },
          },
        },
      },
    },
  },
} as const;

function buildOpenApi(version: string): Record<string, unknown> {
  return {
    openapi: "3.1.0",
    info: {
      title: "skillshelf operator API",
      version,
      description: "The operator's view of the shelf. MCP itself is served at POST /mcp.",
    },
    paths: {
      "/health": {
        get: {
          summary: "What is served, what was skipped and why, and the state of every fetch",
          responses: {
            "200": {
              description: "The health report while anything the config names is served: status ok, warnings or degraded",
              content: { "application/json": { schema: { $ref: "#/components/schemas/Health" } } },
            },
            "503": {
              description: "The health report when every plugin failed: status failed",
              content: { "application/json": { schema: { $ref: "#/components/schemas/Health" } } },
            },
          },
        },
      },
      "/reindex": {
        post: {
          summary: "Rebuild every fetch now",
          responses: {
            "200": {
              description: "The health report after the rebuild, plus the fetches rebuilt",
              content: { "application/json": { schema: { $ref: "#/components/schemas/Reindex" } } },
            },
            "500": {
              description: "The rebuild failed; the server log has the details",
              content: { "application/json": { schema: { $ref: "#/components/schemas/Failure" } } },
            },
          },
        },
      },
    },
    components: {
      schemas: {
        Health: HEALTH_SCHEMA,
        Reindex: {
          type: "object",
          required: [...HEALTH_SCHEMA.required, "rebuilt"],
          properties: { ...HEALTH_SCHEMA.properties, rebuilt: STRINGS },
          additionalProperties: false,
        },
        Failure: { type: "object", required: ["error"], properties: { error: { type: "string" } } },
      },
    },
  };
}

export function formatOpenApi(version: string): string {
  return stringify(buildOpenApi(version));
}
