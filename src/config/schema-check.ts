// ajv against CONFIG_SCHEMA, with each error turned into one sentence at one JSON Pointer. The check runs as ajv's
// standalone code (schema-validator.generated.ts, made from the schema by `npm run gen:config-validator`), so a
// start compiles no schema. The rules are stated in rules.ts; this file says which schema node each applies to.
import type { ErrorObject } from "ajv/dist/2020.js";
import { CONFIG_SCHEMA } from "./schema.js";
import { RULE } from "./rules.js";
import { validate } from "./schema-validator.generated.js";
import { formatPointer, parsePointer, type Problem } from "./yaml-doc.js";

const defs = CONFIG_SCHEMA.$defs;
// Keyed by the schema node's JSON: ajv's `parentSchema` (verbose mode) is that node as the generated code holds it.
const RULES = new Map<string, string>(
  (
    [
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
    ] as const
  ).map(([node, rule]) => [JSON.stringify(node), rule]),
);

type Validate = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

/** Every schema rule `data` breaks, one problem each (empty when valid). */
export function checkSchema(data: unknown): Problem[] {
  if ((validate as Validate)(data)) return [];
  // One problem per path and rule, in the order first found: several keywords may break one rule at one place.
  const problems = new Map<string, Problem>();
  // Stryker disable next-line ArrayDeclaration: equivalent; ajv sets errors whenever validation fails.
  for (const error of (validate as Validate).errors ?? []) {
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
  const custom = error.keyword === "minimum" ? undefined : RULES.get(JSON.stringify(error.parentSchema));
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
