// A config file becomes a typed Config in exactly one place. Three passes, each reporting every problem it
// finds: YAML (syntax, duplicate keys), the JSON Schema (ajv), then names, addresses, globs and values.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { buildConfig } from "./build.js";
import type { RawConfig } from "./raw.js";
import { checkSchema } from "./schema-check.js";
import type { Config, ConfigError, ConfigResult } from "./types.js";
import { parseYaml, type Problem } from "./yaml-doc.js";
import { errorCode } from "../address/index.js";

/** Thrown by `loadConfig`; `errors` are the values `parseConfig` returned, `message` their formatted lines. */
export class ConfigInvalidError extends Error {
  override readonly name = "ConfigInvalidError";
  constructor(readonly errors: readonly ConfigError[]) {
    super(formatConfigErrors(errors));
  }
}

/** Read and parse a config file. `file` is kept as given for messages; local addresses resolve against its directory. */
export async function loadConfig(file: string): Promise<Config> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (e) {
    // The code only (ENOENT, EACCES…): the system message would repeat the absolute path.
    // Stryker disable next-line StringLiteral: equivalent; every error readFile rejects with carries a code.
    const code = errorCode(e, "unknown error");
    throw new ConfigInvalidError([{ file, path: "/", rule: `cannot read the config file (${code})` }]);
  }
  const result = parseConfig(text, file, path.dirname(path.resolve(file)));
  if (!result.ok) throw new ConfigInvalidError(result.errors);
  return result.config;
}

/** Pure: YAML text to a Config, or every rule it breaks. `file` names the file in errors; `baseDir` (absolute)
 *  is where local plugin addresses (`./x`) resolve. */
export function parseConfig(text: string, file: string, baseDir: string): ConfigResult {
  const yaml = parseYaml(text);
  const fail = (problems: readonly Problem[]): ConfigResult => ({
    ok: false,
    errors: sortErrors(
      problems.map((p) => {
        const line = p.line ?? yaml.lineOf(p.path);
        return line === undefined ? { file, path: p.path, rule: p.rule } : { file, path: p.path, line, rule: p.rule };
      }),
    ),
  });
  if (yaml.problems.length > 0) return fail(yaml.problems);
  // An empty file is `null` in YAML; say what is missing rather than "must be a mapping".
  const data = yaml.data ?? {};
  const schemaProblems = checkSchema(data);
  if (schemaProblems.length > 0) return fail(schemaProblems);
  const built = buildConfig(data as RawConfig, file, baseDir);
  if (built.problems.length > 0) return fail(built.problems);
  return { ok: true, config: built.config };
}

/** One line per error: `file:line: path: rule` (`file: path: rule` when there is no line). */
export function formatConfigErrors(errors: readonly ConfigError[]): string {
  return errors.map((e) => `${e.file}${e.line === undefined ? "" : `:${e.line}`}: ${e.path}: ${e.rule}`).join("\n");
}

/** Document order: by line (errors without one first), then as found (Array.prototype.sort is stable). */
function sortErrors(errors: ConfigError[]): ConfigError[] {
  return errors.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
}
