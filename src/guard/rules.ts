// The text rules: hidden text, instructions aimed at the agent's safety, and scripts that fetch and execute, open
// a reverse shell, persist, read credential stores and call out, or name a known exfiltration endpoint. Each rule
// is a list of patterns with a base severity; where a match sits decides how much of that severity stands.
import { agentConceal, agentExfiltrate, agentNoConfirm, agentOverride } from "./rules-agent.js";
import { hiddenBidi, hiddenComment, hiddenTags, hiddenZeroWidth } from "./rules-hidden.js";
import {
  credentialExfil,
  exfilCatcher,
  exfilDrop,
  fetchExecute,
  persistAuthorizedKeys,
  persistSchedule,
  persistShellRc,
  reverseShell,
} from "./rules-scripts.js";
import { buildPrefilter } from "./prefilter.js";
import type { TextRule } from "./rule.js";
import { noteSecretScan, SECRET_TRIGGERS } from "./secrets.js";
import { lineIndexOf, type TextView } from "./text.js";
import { type FileFinding, type Severity, severityRank } from "./types.js";

export type { TextRule } from "./rule.js";

/** Every text rule, in the order findings are listed. */
export const TEXT_RULES: readonly TextRule[] = [
  hiddenBidi,
  hiddenTags,
  hiddenZeroWidth,
  hiddenComment,
  agentOverride,
  agentConceal,
  agentNoConfirm,
  agentExfiltrate,
  fetchExecute,
  reverseShell,
  persistAuthorizedKeys,
  persistShellRc,
  persistSchedule,
  credentialExfil,
  exfilCatcher,
  exfilDrop,
];

/** One pass for the text rules and for the conditions secretlint is called on. */
const PREFILTER = buildPrefilter([...TEXT_RULES.map((rule) => rule.triggers), ...SECRET_TRIGGERS]);

/** The findings of every text rule on one file: one per rule and line, the gravest kept. Only the rules whose
 *  triggers the text meets read it. */
export function checkText(view: TextView): FileFinding[] {
  const findings: FileFinding[] = [];
  const worth = PREFILTER.scan(view.text);
  noteSecretScan(view.text, worth.slice(TEXT_RULES.length).includes(true));
  for (const [index, rule] of TEXT_RULES.entries()) {
    if (worth[index] !== true) continue;
    if (rule.applies === "markdown" && !view.markdown) continue;
    if (rule.gate !== undefined && !rule.gate.test(view.text)) continue;
    const byLine = new Map<number, Severity>();
    for (const hit of rule.find(view)) {
      const line = lineIndexOf(view, hit.offset) + 1;
      const before = byLine.get(line);
      if (before === undefined || severityRank(hit.severity) < severityRank(before)) byLine.set(line, hit.severity);
    }
    for (const [line, severity] of [...byLine].sort((a, b) => a[0] - b[0])) {
      findings.push({ rule: rule.id, severity, reason: rule.reason, line, fix: rule.fix });
    }
  }
  return findings;
}
