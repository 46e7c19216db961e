// ajv against CONFIG_SCHEMA, with each error turned into one sentence at one JSON Pointer.
// Rules never quote a value (a misplaced secret must not reach a log); they may quote a key or a limit.
import { Ajv2020, type ErrorObject, type SchemaObject, type ValidateFunction } from "ajv/dist/2020.js";
import { CONFIG_SCHEMA } from "./schema.js";
import { formatPointer, parsePointer, type Problem } from "./yaml-doc.js";

export const NAME_RULE = "must be a name: 1-64 characters of a-z, 0-9 and '-', not starting or ending with '-'";
export const DURATION_RULE = "must be a duration: a number of milliseconds, or a number with a unit ms, s, m, h or d (500ms, 60s, 1h)";
export const SIZE_RULE = "must be a size: a number of bytes, or a number with a unit B, KiB, MiB, GiB, kB, MB or GB (512KiB, 8MiB)";
export const SECRET_RULE = "must be {env: NAME}: secrets are read from the environment, never written in the file";
export const ENV_RULE = "must be an environment variable name: letters, digits and '_', not starting with a digit";

const defs = CONFIG_SCHEMA.$defs;
// Keyed by schema object: ajv's `parentSchema` (verbose mode) is the very object the error came from.
const RULES = new Map<object | undefined, string>([
  [defs.name, NAME_RULE],
  [defs.pluginRef, "must be a plugin name, or <entry>@<library> for a marketplace entry"],
  [defs.secretRef, SECRET_RULE],
  [defs.secretRef.properties.env, ENV_RULE],
  [defs.source.properties.auth.properties.username.properties.env, ENV_RULE],
  [defs.source.properties.auth.properties.username, "must be a user name, or {env: NAME}"],
  [defs.duration, DURATION_RULE],
  [defs.size, SIZE_RULE],
  [defs.tag, "must be a tag: no comma, no leading or trailing space"],
  [defs.tagSelector, "must be tags separated by commas (a plugin must carry all of them), none empty"],
  [defs.version, 'must be a non-empty string; quote a number-like version ("1.0")'],
  [defs.oauth.properties.scopes.items, "must be an OAuth scope: printable ASCII without spaces, quotes or backslashes"],
  [
    CONFIG_SCHEMA.properties.anonymous,
    "must be true, false, or {scope: {library, categories, tags}} (a ceiling for requests without a token)",
  ],
]);

const TYPE_WORDS: Readonly<Record<string, string>> = {
  string: "a string",
  integer: "an integer",
  number: "a number",
  boolean: "true or false",
  array: "a list",
  object: "a mapping",
  null: "null",
};

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
      return { path: formatPointer([...at, key]), rule: `unknown key '${key}'; the keys here are: ${known.join(", ")}` };
    }
    case "required":
      return { path: formatPointer(at), rule: `missing required key '${String(params.missingProperty)}'` };
  }
  // A limit reads better as itself ("must be at least 1") than as the whole format rule.
  const custom = error.keyword === "minimum" ? undefined : RULES.get(error.parentSchema);
  if (custom !== undefined) return { path: formatPointer(at), rule: custom };
  return { path: formatPointer(at), rule: genericRule(error, params) };
}

function genericRule(error: ErrorObject, params: Record<string, unknown>): string {
  switch (error.keyword) {
    case "type": {
      const types = ([] as unknown[]).concat(params.type).map((t) => TYPE_WORDS[String(t)] ?? String(t));
      // Stryker disable next-line StringLiteral: equivalent; every union type of the schema has a rule of its own, so one type reaches here.
      const words = types.join(" or ");
      return `must be ${words}`;
    }
    case "enum":
      return `must be one of: ${(params.allowedValues as unknown[]).map(String).join(", ")}`;
    case "minLength":
      return "must not be empty";
    case "minItems":
      return `must list at least ${String(params.limit)}`;
    case "minimum":
      return `must be at least ${String(params.limit)}`;
    // Stryker disable next-line ConditionalExpression: equivalent; no keyword of CONFIG_SCHEMA reaches the default (each pattern has a rule).
    default:
      // Stryker disable next-line all: equivalent; no keyword of CONFIG_SCHEMA reaches the default (each pattern has a rule).
      return error.message ?? `breaks the schema keyword ${error.keyword}`;
  }
}
