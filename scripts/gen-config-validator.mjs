#!/usr/bin/env node
// Writes src/config/schema-validator.generated.ts from config.schema.json (ajv standalone code; see
// scripts/lib/config-validator.mjs). Run after a change to the schema: `npm run gen:config-validator`.
import { readFileSync, writeFileSync } from "node:fs";
import { validatorSource } from "./lib/config-validator.mjs";

const root = new URL("../", import.meta.url);
const schema = JSON.parse(readFileSync(new URL("config.schema.json", root), "utf8"));
writeFileSync(new URL("src/config/schema-validator.generated.ts", root), validatorSource(schema));
