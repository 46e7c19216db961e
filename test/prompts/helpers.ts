import type { Dialect } from "../../src/config/types.js";
import { buildPromptDefs, parsePromptFile, type PromptDef } from "../../src/prompts/index.js";

/** Parse one file and name it for library `kit`; a skip fails the test with its reason. */
export function defineFor(path: string, text: string, dialect: Dialect = "auto", command = false): PromptDef {
  const parsed = parsePromptFile({ path, text, command }, dialect);
  if (!parsed.ok) throw new Error(`unexpected skip of ${path}: ${parsed.reason}`);
  const [def] = buildPromptDefs("kit", [parsed.prompt], "kit-plugin");
  if (def === undefined) throw new Error("buildPromptDefs returned nothing");
  return def;
}

/** The skip reason for one file, or `"parsed"`. */
export function reasonFor(path: string, text: string, dialect: Dialect = "auto", command = false): string {
  const parsed = parsePromptFile({ path, text, command }, dialect);
  return parsed.ok ? "parsed" : parsed.reason;
}
