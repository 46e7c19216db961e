// Secrets shipped in a skill, by secretlint's recommended rule set (private keys, cloud, API and chat tokens):
// a well-kept list of patterns, not one of our own.
import type { lintSource } from "@secretlint/core";
import type { Triggers } from "./prefilter.js";
import type { FileFinding, Severity } from "./types.js";

type Lint = typeof lintSource;
type LintConfig = Parameters<Lint>[0]["options"]["config"];

/** secretlint and its preset, loaded the first time a text may hold a secret: most shelves never load them, and a
 *  server that starts from its harvest record answers before any is needed. */
let engine: Promise<{ lint: Lint; config: LintConfig }> | undefined;
function loadEngine(): Promise<{ lint: Lint; config: LintConfig }> {
  engine ??= Promise.all([import("@secretlint/core"), import("@secretlint/secretlint-rule-preset-recommend")]).then(([core, preset]) => ({
    lint: core.lintSource,
    config: { rules: [{ id: "@secretlint/secretlint-rule-preset-recommend", rule: preset.creator }] },
  }));
  return engine;
}

/** Credentials in a URL or connection string are often placeholders in documentation; the rest are keys. */
const LESS_GRAVE: ReadonlySet<string> = new Set(["basicauth", "database-connection-string"]);

/** For each rule of the recommended preset (version 11.7), a condition its pattern cannot match without, read off
 *  the rule's own pattern: AWS key ids, `secret_access_key` followed by a 40-character value and `account_id`
 *  followed by a number, PEM private keys (also inside a GCP service-account JSON), npm, Slack, basic auth in a
 *  URL, OpenAI (`T3BlbkFJ` in every key), Anthropic, Linear, SendGrid, Shopify, GitHub and 1Password tokens, and
 *  database connection strings with a user and password (the rule reports none without both). Text that
 *  meets none cannot hold a finding and never reaches secretlint, whose per-call set-up and profiler are most of
 *  its cost (the profiler keeps every call's marks, so its cost per call grows with the calls before it). A new
 *  preset version is re-read against this list when the package is bumped. */
const MAY_HOLD_SECRET: readonly RegExp[] = [
  /\b(A3T[A-Z0-9]|AKIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ASIA)[A-Z0-9]{16}/,
  /secret_?access_?key["']?\s*(:|=>|=)\s*["']?[A-Za-z0-9/+=]{40}/i,
  /account_?(id)?["']?\s*(:|=>|=)\s*["']?[0-9]{4}/i,
  /PRIVATE KEY/,
  /x-oauth-basic@|_authToken=|npm_[A-Za-z0-9_]{36}/,
  /\b(xox[bpaor]|xapp)-|hooks\.slack\.com\/services/i,
  /(https?|ftps?):\/\/[-\w]{1,256}:[-\w]{1,256}@/,
  /T3BlbkFJ|sk-ant-api0|lin_api_|SG\.\w+\.\w|shp(pa|ca|at|ss)_|gh[pousr]_[A-Za-z0-9_]{36}|github_pat_|ops_ey/,
  /(mongodb(\+srv)?|mysqlx?|postgres(ql)?):\/\/[^:/\s]{1,100}:[^@/\s]{1,200}@/i,
];

/** The literals MAY_HOLD_SECRET's conditions cannot match without, for the text rules' one pass (prefilter.ts):
 *  the first covers every condition but the credentials in a URL, which need both `://` and `@`. A text that
 *  meets neither is not tested further. */
export const SECRET_TRIGGERS: readonly Triggers[] = [
  [
    [
      ...["a3t", "akia", "agpa", "aida", "aroa", "aipa", "anpa", "anva", "asia"],
      ...["secretaccesskey", "secret_accesskey", "secretaccess_key", "secret_access_key", "account", "private key"],
      ...["x-oauth-basic@", "_authtoken=", "npm_", "xoxb-", "xoxp-", "xoxa-", "xoxo-", "xoxr-", "xapp-", "hooks.slack.com/services"],
      ...["t3blbkfj", "sk-ant-api0", "lin_api_", "sg.", "shppa_", "shpca_", "shpat_", "shpss_", "ghp_", "gho_", "ghu_", "ghs_", "ghr_"],
      ...["github_pat_", "ops_ey", "mongodb://", "mongodb+srv://", "mysql://", "mysqlx://", "postgres://", "postgresql://"],
    ],
  ],
  [["://"], ["@"]],
];

/** The last text the text rules' pass read, and whether it met SECRET_TRIGGERS: checkFileText checks the text
 *  rules, then the secrets, of the same text. */
let scanned: { readonly text: string; readonly mayHold: boolean } | undefined;

export function noteSecretScan(text: string, mayHold: boolean): void {
  scanned = { text, mayHold };
}

/** `@secretlint/secretlint-rule-aws` → `aws`. */
function shortId(ruleId: string): string {
  return ruleId.replace(/^@secretlint\/secretlint-rule-/, "");
}

/** secretlint reads nothing but the text given (no file is opened: `noPhysicFilePath`); the secret's value never
 *  appears in a reason (`maskSecrets`). */
export async function checkSecrets(text: string, path: string): Promise<FileFinding[]> {
  if (scanned !== undefined && scanned.text === text && !scanned.mayHold) return [];
  if (!MAY_HOLD_SECRET.some((condition) => condition.test(text))) return [];
  const dot = path.lastIndexOf(".");
  const { lint, config } = await loadEngine();
  const result = await lint({
    source: { content: text, filePath: path, ext: dot === -1 ? "" : path.slice(dot), contentType: "text" },
    options: { config, maskSecrets: true, noPhysicFilePath: true },
  });
  return result.messages.map((message) => {
    const id = shortId(message.ruleId);
    const severity: Severity = LESS_GRAVE.has(id) ? "high" : "critical";
    return {
      rule: `secret-${id}`,
      severity,
      reason: `a secret in the file (${message.messageId}), found by secretlint`,
      line: message.loc.start.line,
      fix: "Remove the secret from the skill and revoke it: anyone who could read the skill has it.",
    };
  });
}
