// Validate real operator answers against the OpenAPI document the server itself serves (JSON Schema 2020-12).
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import { parse as parseYaml } from "yaml";

// RFC 3339 date-time, as `format: date-time` means; ajv ships no formats of its own.
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

export function buildAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  ajv.addFormat("date-time", { type: "string", validate: (value: string) => DATE_TIME.test(value) && !Number.isNaN(Date.parse(value)) });
  return ajv;
}

type Json = Record<string, unknown>;

/** Follow a local `$ref` (`#/components/schemas/Health`) to the schema it names. */
function deref(doc: Json, node: unknown): Json {
  const ref = (node as { $ref?: unknown }).$ref;
  if (typeof ref !== "string") return node as Json;
  if (!ref.startsWith("#/")) throw new Error(`only local refs are expected, got ${ref}`);
  let at: unknown = doc;
  for (const part of ref.slice(2).split("/")) at = (at as Json)[part.replace(/~1/g, "/").replace(/~0/g, "~")];
  if (at === undefined) throw new Error(`dangling ref ${ref}`);
  return deref(doc, at);
}

export interface OpenApiDocument {
  readonly doc: Json;
  /** The validator of the JSON body of `method path` answering `status`. */
  validator(method: "get" | "post", path: string, status: string): ValidateFunction;
}

export function loadOpenApi(yamlText: string): OpenApiDocument {
  const doc = parseYaml(yamlText) as Json;
  const ajv = buildAjv();
  return {
    doc,
    validator(method, path, status) {
      const operation = ((doc["paths"] as Json)[path] as Json | undefined)?.[method] as Json | undefined;
      const response = (operation?.["responses"] as Json | undefined)?.[status];
      const schema = ((deref(doc, response)["content"] as Json)["application/json"] as Json)["schema"];
      return ajv.compile(deref(doc, schema));
    },
  };
}
