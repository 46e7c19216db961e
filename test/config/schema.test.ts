import fs from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import { expect, test } from "vitest";
import { DEFAULT_CLOCK_SKEW_MS, DEFAULT_FEED_LIFETIME_MS, DEFAULT_FILE_BYTES, DEFAULT_TTL_MS } from "../../src/config/defaults.js";
import { CONFIG_SCHEMA, formatSchema } from "../../src/config/schema.js";

const COMMITTED = new URL("../../config.schema.json", import.meta.url);

test("the committed config.schema.json is CONFIG_SCHEMA (regenerate: node dist/cli.js schema > config.schema.json)", () => {
  expect(fs.readFileSync(COMMITTED, "utf8")).toBe(formatSchema());
});

test("the schema is valid draft 2020-12 under ajv's strict mode", () => {
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true });
  expect(ajv.validateSchema(CONFIG_SCHEMA)).toBe(true);
  expect(() => ajv.compile(CONFIG_SCHEMA)).not.toThrow();
});

/** Every object schema, with its JSON Pointer inside the schema. */
function objectSchemas(node: unknown, at = "#"): { at: string; schema: Record<string, unknown> }[] {
  if (typeof node !== "object" || node === null) return [];
  const schema = node as Record<string, unknown>;
  const found = [schema.type].flat().includes("object") && "properties" in schema ? [{ at, schema }] : [];
  return found.concat(Object.entries(schema).flatMap(([k, v]) => objectSchemas(v, `${at}/${k}`)));
}

test.each(objectSchemas(CONFIG_SCHEMA))("$at refuses unknown keys", ({ schema }) => {
  expect(schema.additionalProperties).toBe(false);
});

test("the defaults the builder applies are the schema's `default` values, parsed", () => {
  expect([DEFAULT_TTL_MS, DEFAULT_FILE_BYTES, DEFAULT_FEED_LIFETIME_MS, DEFAULT_CLOCK_SKEW_MS]).toEqual([
    60_000,
    8 * 1024 * 1024,
    90 * 86_400_000,
    30_000,
  ]);
});
