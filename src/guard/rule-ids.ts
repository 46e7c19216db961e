// Every rule id a finding can carry: a fixed list (what a metric's `rule` label may take), checked against the
// rules themselves in the tests.
import { TEXT_RULES } from "./rules.js";
import { SCANNER_FAILED, SCANNER_PREFIX } from "./scanner.js";

/** The rules of secretlint's recommended preset (version 11.7) that report, as `secret-<rule>` ids. */
export const SECRET_RULE_IDS = [
  "1password",
  "anthropic",
  "aws",
  "basicauth",
  "database-connection-string",
  "gcp",
  "github",
  "linear",
  "npm",
  "openai",
  "privatekey",
  "sendgrid",
  "shopify",
  "slack",
].map((id) => `secret-${id}`);

export const GUARD_RULE_IDS: readonly string[] = [
  ...TEXT_RULES.map((rule) => rule.id),
  ...SECRET_RULE_IDS,
  "binary-executable",
  "exec-bit-outside-scripts",
  "name-confusable",
  "name-one-edit",
  "name-taken",
  SCANNER_FAILED,
];

const KNOWN: ReadonlySet<string> = new Set(GUARD_RULE_IDS);

/** The rule's id when it is one of the list, `scanner` for any rule of the external scanner (their ids are the
 *  scanner's, unbounded), else `other` (a rule of a newer secretlint preset). */
export function ruleLabel(rule: string): string {
  if (KNOWN.has(rule)) return rule;
  return rule.startsWith(SCANNER_PREFIX) ? "scanner" : "other";
}
