// Secrets shipped in a skill, by secretlint's recommended rule set (private keys, cloud, API and chat tokens):
// a well-kept list of patterns, not one of our own.
import { lintSource } from "@secretlint/core";
import { creator as recommended } from "@secretlint/secretlint-rule-preset-recommend";
import type { FileFinding, Severity } from "./types.js";

const CONFIG: Parameters<typeof lintSource>[0]["options"]["config"] = {
  rules: [{ id: "@secretlint/secretlint-rule-preset-recommend", rule: recommended }],
};

/** Credentials in a URL or connection string are often placeholders in documentation; the rest are keys. */
const LESS_GRAVE: ReadonlySet<string> = new Set(["basicauth", "database-connection-string"]);

/** A literal every pattern of the recommended preset (version 11.7) needs, read off its rules: AWS key ids and the
 *  words of its secret and account keys, PEM private keys (also inside a GCP service-account JSON), npm, Slack,
 *  basic auth in a URL, OpenAI, Anthropic, Linear, SendGrid, Shopify, GitHub and 1Password tokens, and database
 *  connection strings. Text without any of them cannot hold a finding, and skips secretlint's per-call set-up
 *  (most of its cost). A new preset version is re-read against this list when the package is bumped. */
const MAY_HOLD_SECRET =
  /A3T[A-Z0-9]|AKIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ASIA|secret|account|PRIVATE KEY|x-oauth-basic|_authToken|npm_|xox[bpaor]-|xapp-|hooks\.slack\.com|:\/\/[-\w]+:[-\w]+@|sk-|lin_api_|SG\.|shp(pa|ca|at|ss)_|gh[pousr]_|github_pat_|ops_ey|mongodb|mysql|postgres/i;

/** `@secretlint/secretlint-rule-aws` → `aws`. */
function shortId(ruleId: string): string {
  return ruleId.replace(/^@secretlint\/secretlint-rule-/, "");
}

/** secretlint reads nothing but the text given (no file is opened: `noPhysicFilePath`); the secret's value never
 *  appears in a reason (`maskSecrets`). */
export async function checkSecrets(text: string, path: string): Promise<FileFinding[]> {
  if (!MAY_HOLD_SECRET.test(text)) return [];
  const dot = path.lastIndexOf(".");
  const result = await lintSource({
    source: { content: text, filePath: path, ext: dot === -1 ? "" : path.slice(dot), contentType: "text" },
    options: { config: CONFIG, maskSecrets: true, noPhysicFilePath: true },
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
