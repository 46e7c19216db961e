// ajv against CONFIG_SCHEMA, with each error turned into one sentence at one JSON Pointer.
// The rules are stated in rules.ts; this file says which schema node each applies to.
import { Ajv2020, type ErrorObject, type SchemaObject, type ValidateFunction } from "ajv/dist/2020.js";
import { CONFIG_SCHEMA } from "./schema.js";
import { RULE } from "./rules.js";
import { formatPointer, parsePointer, type Problem } from "./yaml-doc.js";

const defs = CONFIG_SCHEMA.$defs;
// Keyed by schema object: ajv's `parentSchema` (verbose mode) is the very object the error came from.
const RULES = new Map<object | undefined, string>([
  [defs.name, RULE.name],
  [defs.pluginRef, RULE.pluginRef],
  [defs.secretRef, RULE.secret],
  [defs.secretRef.properties.env, RULE.env],
  [defs.source.properties.auth.properties.username.properties.env, RULE.env],
  [defs.source.properties.auth.properties.username, RULE.username],
  [defs.duration, RULE.duration],
  [defs.size, RULE.size],
  [defs.tag, RULE.tag],
  [defs.tagSelector, RULE.tagSelector],
  [defs.version, RULE.version],
  [defs.oauth.properties.scopes.items, RULE.oauthScope],
  [CONFIG_SCHEMA.properties.anonymous, RULE.anonymous],
  [defs.guardSeverities, RULE.guardSeverities],
]);

let compiled: ValidateFunction | undefined;

function validator(): ValidateFunction {
  compiled ??= new Ajv2020({
    allErrors: true,
    verbose: true,
    allowUnionTypes: true,
    // Stryker disable next-line BooleanLiteral: equivalent; strict mode only checks the schema itself, which is valid under it (tested).
    strict: true,
  }).compile(CONFIG_SCHEMA as unknown as SchemaObject);
  return compiled;
}

/** Every schema rule `data` breaks, one problem each (empty when valid). */
export function checkSchema(data: unknown): Problem[] {
  const validate = validator();
  if (validate(data)) return [];
  // One problem per path and rule, in the order first found: several keywords may break one rule at one place.
  const problems = new Map<string, Problem>();
  // Stryker disable next-line ArrayDeclaration: equivalent; ajv sets errors whenever validation fails.
  for (const error of validate.errors ?? []) {
    const problem = toProblem(error);
    problems.set(JSON.stringify([problem.path, problem.rule]), problem);
  }
  return [...problems.values()];
}

function toProblem(error: ErrorObject): Problem {
  const at = parsePointer(error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "additionalProperties": {
      const key = String(params.additionalProperty);
      // Stryker disable next-line OptionalChaining: equivalent; with verbose errors ajv always sets parentSchema.
      const known = Object.keys((error.parentSchema as { properties?: object } | undefined)?.properties ?? {});
      return { path: formatPointer([...at, key]), rule: RULE.unknownKey(key, known) };
    }
    case "required":
      return { path: formatPointer(at), rule: RULE.missingKey(String(params.missingProperty)) };
  }
  // A limit reads better as itself ("must be at least 1") than as the whole format rule.
  const custom = error.keyword === "minimum" ? undefined : RULES.get(error.parentSchema);
  if (custom !== undefined) return { path: formatPointer(at), rule: custom };
  return { path: formatPointer(at), rule: genericRule(error, params) };
}

function genericRule(error: ErrorObject, params: Record<string, unknown>): string {
  switch (error.keyword) {
    case "type":
      return RULE.type(([] as unknown[]).concat(params.type).map(String));
    case "enum":
      return RULE.oneOf((params.allowedValues as unknown[]).map(String));
    case "minLength":
      return RULE.notEmpty;
    case "minItems":
      return RULE.minItems(String(params.limit));
    case "minimum":
      return RULE.minimum(String(params.limit));
    // Stryker disable next-line ConditionalExpression: equivalent; no keyword of CONFIG_SCHEMA reaches the default (each pattern has a rule).
    default:
      // Stryker disable next-line all: equivalent; no keyword of CONFIG_SCHEMA reaches the default (each pattern has a rule).
      return error.message ?? RULE.keyword(error.keyword);
  }
}
