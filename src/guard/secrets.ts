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

/** `@secretlint/secretlint-rule-aws` → `aws`. */
function shortId(ruleId: string): string {
  return ruleId.replace(/^@secretlint\/secretlint-rule-/, "");
}

/** secretlint reads nothing but the text given (no file is opened: `noPhysicFilePath`); the secret's value never
 *  appears in a reason (`maskSecrets`). */
export async function checkSecrets(text: string, path: string): Promise<FileFinding[]> {
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
