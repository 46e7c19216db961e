// The supply-chain guard's part of CONFIG_SCHEMA: the top-level `guard` (the default policy) and the `guard` a
// library may carry to override it (schema.ts spreads these into its `$defs`).

export const GUARD_DEFS = {
  guardSeverities: {
    type: "array",
    description: "Severities whose findings quarantine the skill or prompt they are in; any other finding warns.",
    items: { enum: ["critical", "high", "medium", "low"] },
    uniqueItems: true,
  },
  guardAllow: {
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
  guard: {
    type: "object",
    description:
      "What the supply-chain checks' findings do: severities that quarantine a skill (not served anywhere, named on /health), the rest warn; findings released by rule and file. The default policy of every library.",
    additionalProperties: false,
    properties: {
      quarantine: { $ref: "#/$defs/guardSeverities", default: ["critical"] },
      allow: { $ref: "#/$defs/guardAllow" },
    },
  },
  libraryGuard: {
    type: "object",
    description:
      "This library's own policy for the skills and prompts it serves: quarantine replaces the default's (the top-level guard), allow adds releases of this library's files to the default's.",
    additionalProperties: false,
    properties: {
      quarantine: { $ref: "#/$defs/guardSeverities" },
      allow: { $ref: "#/$defs/guardAllow" },
    },
  },
} as const;
