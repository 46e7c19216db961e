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
      scanner: { $ref: "#/$defs/guardScanner" },
    },
  },
  guardScanner: {
    type: "object",
    description:
      "An external scanner run on each new or changed skill folder (the folder's path is its last argument); it prints SARIF 2.1.0 on stdout, and its results join the built-in findings as scanner:<ruleId> under the same policy.",
    additionalProperties: false,
    required: ["command"],
    properties: {
      command: {
        type: "array",
        description:
          "The program and its arguments, run without a shell; a program path with a '/' is taken from the config file's directory.",
        minItems: 1,
        items: { type: "string", minLength: 1 },
      },
      timeout: { $ref: "#/$defs/duration", description: "How long one scan may run before it is killed.", default: "30s" },
      concurrency: { type: "integer", minimum: 1, maximum: 64, description: "Scans run at once.", default: 2 },
      onFailure: {
        enum: ["quarantine", "warn"],
        description:
          "What a failed scan (an error, a timeout, output that is not SARIF 2.1.0) does to its skill: its scanner-failed finding quarantines it, or warns.",
        default: "quarantine",
      },
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
