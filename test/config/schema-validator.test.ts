// The config check a server runs is ajv's standalone code for CONFIG_SCHEMA, committed so that a start compiles no
// schema. It must be exactly what the schema makes now (strict mode, so a schema ajv would reject fails here too).
import { readFileSync } from "node:fs";
import { expect, test } from "vitest";
import { validatorSource } from "../../scripts/lib/config-validator.mjs";
import { CONFIG_SCHEMA } from "../../src/config/schema.js";

test("src/config/schema-validator.generated.ts is what the schema makes (regenerate: npm run gen:config-validator)", () => {
  const committed = readFileSync(new URL("../../src/config/schema-validator.generated.ts", import.meta.url), "utf8");
  expect(committed === validatorSource(CONFIG_SCHEMA)).toBe(true);
});
