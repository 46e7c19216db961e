// Instructions aimed at the agent's safety: to ignore its instructions, hide what it does, skip confirmations, or
// send secrets somewhere.
import type { Triggers } from "./prefilter.js";
import { g, instructionWeight, matches, type TextRule } from "./rule.js";
import type { Severity } from "./types.js";

const OVERRIDE = [
  g(
    String.raw`\b(ignore|disregard|forget|override)\s+(all\s+|any\s+)?(of\s+)?(the\s+|your\s+|my\s+)?(previous|prior|above|earlier|preceding|system|original|existing)\s+(instructions|prompts?|rules|guidelines|directives|messages)\b`,
    "i",
  ),
  g(String.raw`\byou are no longer bound by\b`, "i"),
  g(
    String.raw`\b(ignore|bypass|disable|override)\s+(your\s+|all\s+|the\s+|any\s+)?(safety|security)\s+(guidelines|rules|policies|restrictions|filters|checks|instructions)\b`,
    "i",
  ),
];
const CONCEAL = [
  g(String.raw`\b(do not|don'?t|never)\s+(tell|inform|notify|alert|let)\s+(the\s+)?user\b`, "i"),
  g(String.raw`\bwithout\s+(telling|informing|notifying|alerting)\s+the\s+user\b`, "i"),
  g(String.raw`\bhide\s+(this|it|these|that|the\s+\w+|your\s+\w+)\s+from\s+the\s+user\b`, "i"),
  g(String.raw`\bkeep\s+(this|it)\s+(secret|hidden)\s+from\s+the\s+user\b`, "i"),
];
const NO_CONFIRM = [
  g(
    String.raw`\b(do not|don'?t|never|without)\s+(ask(ing)?|prompt(ing)?|wait(ing)?)\s+(the\s+user\s+)?(for\s+)?(their\s+|the\s+user'?s\s+|any\s+)?(confirmation|permission|approval|consent)\b`,
    "i",
  ),
  g(String.raw`--dangerously-skip-permissions\b`),
  g(
    String.raw`\b(disable|bypass|skip|turn off)\s+(all\s+|the\s+|any\s+)?(confirmation|permission|approval)s?\s+(prompts?|checks?|dialogs?)\b`,
    "i",
  ),
];
const SECRET_OBJECT = String.raw`(\b(environment variables|env vars|credentials|secrets|api[ _-]?keys|access tokens|tokens|ssh keys|private keys|passwords|cookies|id_rsa)\b|\.env\b|~/\.ssh|~/\.aws)`;
/** Within one sentence: a full stop ends it only when a space or the line's end follows (not in `~/.aws`). */
const SAME_SENTENCE = String.raw`(?:[^.\n]|\.(?=\S)){0,80}`;
const DESTINATION = String.raw`(to|into)\s+(https?://|[a-z0-9.-]+\.[a-z]{2,}/|this (url|endpoint|webhook|server|address)|the following (url|endpoint|webhook|server)|(an?\s+|our\s+|my\s+)?(external|remote|webhook)|a webhook)`;
const EXFILTRATE = [
  g(
    String.raw`\b(send|upload|post|transmit|forward|exfiltrate|copy|report)\b${SAME_SENTENCE}${SECRET_OBJECT}${SAME_SENTENCE}\b${DESTINATION}`,
    "i",
  ),
];
const NEGATED = /\b(never|don'?t|do not|must not|should not|avoid|no)\b[^.\n]{0,30}$/i;

function instructionRule(
  id: string,
  severity: Severity,
  reason: string,
  fix: string,
  patterns: readonly RegExp[],
  negatable: boolean,
  gate: RegExp,
  triggers: Triggers,
): TextRule {
  return {
    id,
    severity,
    reason,
    fix,
    applies: "all",
    gate,
    triggers,
    *find(view) {
      for (const hit of matches(view, patterns, instructionWeight(severity))) {
        if (negatable && NEGATED.test(view.text.slice(Math.max(0, hit.offset - 40), hit.offset))) continue;
        yield hit;
      }
    },
  };
}

export const agentOverride = instructionRule(
  "agent-override",
  "critical",
  "tells the agent to ignore or override its instructions or safety rules",
  "Delete the instruction; a skill adds to the agent's instructions, it never replaces them.",
  OVERRIDE,
  true,
  /ignore|disregard|forget|override|bound by|bypass|disable/i,
  // The patterns' words, their word boundaries kept.
  [
    [
      "\\bignore\\b",
      "\\bdisregard\\b",
      "\\bforget\\b",
      "\\boverride\\b",
      "\\bbypass\\b",
      "\\bdisable\\b",
      "\\byou are no longer bound by\\b",
    ],
    [
      "\\binstructions\\b",
      "\\brules\\b",
      "\\bguidelines\\b",
      "\\bdirectives\\b",
      "\\bmessages\\b",
      "\\bsafety\\b",
      "\\bsecurity\\b",
      "\\bprompt",
      "no longer bound by",
    ],
  ],
);
export const agentConceal = instructionRule(
  "agent-conceal",
  "high",
  "tells the agent to hide what it does from the user",
  "Delete the instruction; the agent reports what it does.",
  CONCEAL,
  false,
  /user/i,
  [
    ["\\buser\\b"],
    [
      ...["\\btell\\b", "\\binform\\b", "\\bnotify\\b", "\\balert\\b", "\\blet\\b", "\\bhide\\b", "\\bkeep\\b"],
      ...["\\btelling\\b", "\\binforming\\b", "\\bnotifying\\b", "\\balerting\\b"],
    ],
  ],
);
export const agentNoConfirm = instructionRule(
  "agent-no-confirm",
  "high",
  "tells the agent to act without the user's confirmation or to skip permission checks",
  "Delete the instruction; let the agent's own confirmation rules apply.",
  NO_CONFIRM,
  false,
  /confirmation|permission|approval|consent/i,
  [
    ["\\bconfirmation", "\\bpermission", "\\bapproval", "\\bconsent"],
    [
      "\\bdo not\\b",
      "\\bdon't\\b",
      "\\bdont\\b",
      "\\bnever\\b",
      "\\bwithout\\b",
      "\\bdisable\\b",
      "\\bbypass\\b",
      "\\bskip\\b",
      "\\bturn off\\b",
      "--dangerously-skip-permissions",
    ],
  ],
);
export const agentExfiltrate = instructionRule(
  "agent-exfiltrate",
  "critical",
  "tells the agent to send files, environment variables or credentials somewhere",
  "Delete the instruction; a skill never ships secrets out.",
  EXFILTRATE,
  true,
  /send|upload|post|transmit|forward|exfiltrate|copy|report/i,
  [
    ["\\bsend\\b", "\\bupload\\b", "\\bpost\\b", "\\btransmit\\b", "\\bforward\\b", "\\bexfiltrate\\b", "\\bcopy\\b", "\\breport\\b"],
    [
      "\\benvironment variables\\b",
      "\\benv vars\\b",
      "\\bcredentials\\b",
      "\\bsecrets\\b",
      "\\bpasswords\\b",
      "\\bcookies\\b",
      "\\bid_rsa\\b",
      "keys\\b",
      "tokens\\b",
      ".env\\b",
      "~/.ssh",
      "~/.aws",
    ],
    // Where to: a URL, a domain and path, or a word for one.
    ["://", "/", "url", "endpoint", "webhook", "server", "address", "external", "remote"],
  ],
);
