// The text rules: hidden text, instructions aimed at the agent's safety, and scripts that fetch and execute, open
// a reverse shell, persist, read credential stores and call out, or name a known exfiltration endpoint. Each rule
// is a list of patterns with a base severity; where a match sits decides how much of that severity stands.
import { contextOf, lineIndexOf, type MatchContext, type TextView } from "./text.js";
import { type FileFinding, milder, type Severity, severityRank } from "./types.js";

interface Hit {
  readonly offset: number;
  readonly length: number;
  readonly severity: Severity;
}

export interface TextRule {
  readonly id: string;
  readonly severity: Severity;
  readonly reason: string;
  readonly fix: string;
  /** What the rule reads: every text file, Markdown only, or scripts only (Markdown fences as a unit). */
  readonly applies: "all" | "markdown";
  /** A cheap test every match passes (a literal each pattern needs): a file failing it is not scanned further. */
  readonly gate?: RegExp;
  find(view: TextView): Iterable<Hit>;
}

/** Every match of `patterns` with the severity its context leaves. */
function* matches(view: TextView, patterns: readonly RegExp[], weigh: (context: MatchContext) => Severity): Iterable<Hit> {
  for (const pattern of patterns) {
    for (const m of view.text.matchAll(pattern)) {
      yield { offset: m.index, length: m[0].length, severity: weigh(contextOf(view, m.index, m[0].length)) };
    }
  }
}

/** What a command in a file says: a script runs it (full weight); Markdown shows it to an agent that may run it
 *  (one step milder); a passage that warns about or detects it only names it (low). */
function commandWeight(base: Severity): (context: MatchContext) => Severity {
  return (context) => {
    if (context.placement === "script") return base;
    if (context.cued) return "low";
    return milder(base);
  };
}

/** An instruction to the agent: said in the file's own voice it stands; quoted or in a passage about attacks it
 *  is named, not given (low). */
function instructionWeight(base: Severity): (context: MatchContext) => Severity {
  return (context) => (context.quoted || context.topical ? "low" : base);
}

const g = (source: string, flags = ""): RegExp => new RegExp(source, `g${flags}`);

// --- hidden text --------------------------------------------------------------------------------------------

const BIDI = /[\u202A-\u202E\u2066-\u2069]/g;
/** A flag emoji's tag sequence (🏴 then tag letters then CANCEL TAG) is the one legitimate use of tag characters. */
const EMOJI_TAG_SEQUENCE = /\u{1F3F4}[\u{E0020}-\u{E007E}]+\u{E007F}/gu;
const TAG_RUN = /[\u{E0000}-\u{E007F}]+/gu;
/** Zero-width characters between two Latin letters or digits: ZWJ and ZWNJ between letters of scripts that use them
 *  (Persian, Indic) and in emoji sequences are left alone. */
const ZERO_WIDTH_IN_WORD = /[A-Za-z0-9][\u200B\u200C\u200D\u2060\uFEFF\u180E]+(?=[A-Za-z0-9])/g;
const HTML_COMMENT = /<!--([\s\S]*?)-->/g;
/** What makes a comment an instruction to an agent rather than a note to an editor. */
const COMMENT_INSTRUCTION = new RegExp(
  [
    String.raw`\b(ignore|disregard|override|forget)\s+(all|any|the|previous|prior|above|your|these|earlier)\b`,
    // Addressed to the reader as an agent: "assistant:", "AI, …", "you must", "the agent should".
    String.raw`\b(assistant|ai|llm|claude|model|agent)\s*[:,]`,
    String.raw`\b(you|the (assistant|agent|model|llm|ai))\s+(must|should|will|shall|are to|need to|have to)\b`,
    String.raw`\bdo not (tell|mention|reveal|inform|show)\b`,
    String.raw`\b(secretly|silently|quietly)\b`,
    String.raw`\b(execute|run) (the following|this command|this script|it now)\b`,
    String.raw`\b(send|upload|post|exfiltrate)\b[^\n]{0,60}\bto\b`,
    String.raw`\b(curl|wget)\s`,
  ].join("|"),
  "i",
);

const hiddenBidi: TextRule = {
  id: "hidden-bidi",
  severity: "high",
  reason: "bidirectional control character: the text shown differs from the text read",
  fix: "Remove the bidirectional embedding, override or isolate characters (U+202A–202E, U+2066–2069).",
  applies: "all",
  *find(view) {
    for (const m of view.text.matchAll(BIDI)) yield { offset: m.index, length: 1, severity: "high" };
  },
};

const hiddenTags: TextRule = {
  id: "hidden-tag-characters",
  severity: "critical",
  reason: "Unicode tag characters: invisible text an agent reads (ASCII smuggling)",
  fix: "Remove the tag characters (U+E0000–E007F); they are invisible to a reviewer.",
  applies: "all",
  *find(view) {
    if (!/[\u{E0000}-\u{E007F}]/u.test(view.text)) return;
    const masked = view.text.replace(EMOJI_TAG_SEQUENCE, (s) => " ".repeat(s.length));
    for (const m of masked.matchAll(TAG_RUN)) yield { offset: m.index, length: m[0].length, severity: "critical" };
  },
};

const hiddenZeroWidth: TextRule = {
  id: "hidden-zero-width",
  severity: "high",
  reason: "zero-width characters inside a word: hides or splits words from a reviewer",
  fix: "Remove the zero-width characters (U+200B–200D, U+2060, U+FEFF) inside the word.",
  applies: "markdown",
  *find(view) {
    for (const m of view.text.matchAll(ZERO_WIDTH_IN_WORD)) yield { offset: m.index, length: m[0].length, severity: "high" };
  },
};

const hiddenComment: TextRule = {
  id: "hidden-comment-instructions",
  severity: "high",
  reason: "an HTML comment carries instructions: hidden when rendered, read by the agent",
  fix: "Move the instruction into visible text where a reviewer sees it, or delete the comment.",
  applies: "markdown",
  *find(view) {
    for (const m of view.text.matchAll(HTML_COMMENT)) {
      if (view.fence[lineIndexOf(view, m.index)] !== -1) continue; // HTML shown as an example
      if (COMMENT_INSTRUCTION.test(m[1] as string)) yield { offset: m.index, length: m[0].length, severity: "high" };
    }
  },
};

// --- instructions aimed at the agent's safety ---------------------------------------------------------------

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
): TextRule {
  return {
    id,
    severity,
    reason,
    fix,
    applies: "all",
    gate,
    *find(view) {
      for (const hit of matches(view, patterns, instructionWeight(severity))) {
        if (negatable && NEGATED.test(view.text.slice(Math.max(0, hit.offset - 40), hit.offset))) continue;
        yield hit;
      }
    },
  };
}

const agentOverride = instructionRule(
  "agent-override",
  "critical",
  "tells the agent to ignore or override its instructions or safety rules",
  "Delete the instruction; a skill adds to the agent's instructions, it never replaces them.",
  OVERRIDE,
  true,
  /ignore|disregard|forget|override|bound by|bypass|disable/i,
);
const agentConceal = instructionRule(
  "agent-conceal",
  "high",
  "tells the agent to hide what it does from the user",
  "Delete the instruction; the agent reports what it does.",
  CONCEAL,
  false,
  /user/i,
);
const agentNoConfirm = instructionRule(
  "agent-no-confirm",
  "high",
  "tells the agent to act without the user's confirmation or to skip permission checks",
  "Delete the instruction; let the agent's own confirmation rules apply.",
  NO_CONFIRM,
  false,
  /confirmation|permission|approval|consent/i,
);
const agentExfiltrate = instructionRule(
  "agent-exfiltrate",
  "critical",
  "tells the agent to send files, environment variables or credentials somewhere",
  "Delete the instruction; a skill never ships secrets out.",
  EXFILTRATE,
  true,
  /send|upload|post|transmit|forward|exfiltrate|copy|report/i,
);

// --- scripts ------------------------------------------------------------------------------------------------

const SHELL = String.raw`(sudo\s+)?(-\S+\s+)*(ba|z|k|da|fi)?sh|python[0-9.]*|perl|ruby|node|php`;
const FETCH_EXECUTE = [
  g(String.raw`\b(curl|wget)\b[^|\n;]*?(https?://|\$\{?\w+)[^|\n;]*\|\s*(${SHELL})\b`),
  g(String.raw`\b((ba|z)?sh|source)\s+(-c\s+)?["']?(\$\(|<\(\s*)(curl|wget)\b`),
  g(
    String.raw`\b(iex|Invoke-Expression)\b[\s(]*(iwr|irm|Invoke-WebRequest|Invoke-RestMethod|\(?New-Object\s+(System\.)?Net\.WebClient)`,
    "i",
  ),
  g(String.raw`\b(iwr|irm|Invoke-WebRequest|Invoke-RestMethod)\b[^|\n]*\|\s*(iex|Invoke-Expression)\b`, "i"),
  g(String.raw`\bDownloadString\([^)\n]*\)[^\n]*\|\s*(iex|Invoke-Expression)\b|\b(iex|Invoke-Expression)\s*\(?[^\n]*DownloadString\(`, "i"),
  g(String.raw`\bbase64\s+(-d|--decode|-D)\b[^\n]*\|\s*(${SHELL})\b`),
  g(String.raw`\b(exec|eval)\s*\(\s*(base64\.b64decode|atob|Buffer\.from\([^)\n]*,\s*["']base64["']\))`),
  g(String.raw`FromBase64String[^\n]*\b(iex|Invoke-Expression)\b|\b(iex|Invoke-Expression)\b[^\n]*FromBase64String`, "i"),
];
const REVERSE_SHELL = [
  g(String.raw`/dev/(tcp|udp)/[^\s/]+/\d+`),
  g(String.raw`\b(nc|ncat|netcat)\b[^\n|;]*\s-[a-z]*e\s+/?(bin/)?(ba|z)?sh\b`),
  g(String.raw`\bsocat\b[^\n]*\bexec:`, "i"),
  g(String.raw`\bmkfifo\b[^\n]*\|\s*(nc|ncat|netcat)\b`),
  g(String.raw`\bos\.dup2\(\s*\w+\.fileno\(\)\s*,\s*[012]\s*\)`),
];
const HOME = String.raw`(~|\$HOME|\$\{HOME\}|/root|/home/[^/\s]+)`;
const WRITE = String.raw`(>>?|\btee\s+(-a\s+)?|\bcp\s+\S+\s+|\bmv\s+\S+\s+)\s*`;
const PERSIST_RC = [g(String.raw`${WRITE}${HOME}/\.(bashrc|bash_profile|bash_login|zshrc|zprofile|zshenv|profile)\b`)];
const PERSIST_KEYS = [g(String.raw`${WRITE}${HOME}/\.ssh/authorized_keys\b`)];
const PERSIST_SCHEDULE = [
  g(String.raw`\bcrontab\s+-\s*$`, "m"),
  g(String.raw`\|\s*crontab\s+(-\s*)?$`, "m"),
  g(String.raw`${WRITE}/etc/cron`),
  g(String.raw`${WRITE}${HOME}?/?Library/LaunchAgents/`),
  g(String.raw`\blaunchctl\s+(load|bootstrap)\b`),
  g(String.raw`\bschtasks(\.exe)?\s+/create\b`, "i"),
];

const CREDENTIAL_STORE = g(
  String.raw`(\.aws/credentials|\.ssh/id_(rsa|ed25519|ecdsa|dsa)\b|Login Data\b|Cookies\.binarycookies|cookies\.sqlite|logins\.json|key4\.db|Library/Keychains|login\.keychain|\bsecurity\s+(find-generic-password|find-internet-password|dump-keychain)|\.config/gcloud/(credentials|application_default)|\.docker/config\.json|\.git-credentials|\.netrc\b)`,
);
const HAS_CREDENTIAL_STORE = new RegExp(CREDENTIAL_STORE.source);
const NETWORK_CALL =
  /\b(curl|wget|ncat?|fetch\s*\(|axios|requests\.(get|post|put)|urllib|http\.client|https?\.request|Invoke-WebRequest|Invoke-RestMethod|XMLHttpRequest|socket\.connect|smtplib)\b/;

const CATCHERS = String.raw`webhook\.site|requestbin\.(net|com)|pipedream\.net|beeceptor\.com|hookbin\.com|requestcatcher\.com|interact\.sh|oast\.(fun|pro|live|site|online|me)|oastify\.com|burpcollaborator\.net|canarytokens\.(com|org)|discord(app)?\.com/api/webhooks|api\.telegram\.org/bot`;
const DROPS = String.raw`pastebin\.com|paste\.ee|hastebin\.com|ghostbin\.\w+|transfer\.sh|file\.io|0x0\.st|termbin\.com|ngrok\.io|ngrok-free\.app|ngrok\.app|trycloudflare\.com|serveo\.net|localhost\.run|loca\.lt`;

function commandRule(id: string, severity: Severity, reason: string, fix: string, patterns: readonly RegExp[], gate?: RegExp): TextRule {
  return {
    id,
    severity,
    reason,
    fix,
    applies: "all",
    ...(gate === undefined ? {} : { gate }),
    find: (view) => matches(view, patterns, commandWeight(severity)),
  };
}

const fetchExecute = commandRule(
  "exec-fetch-execute",
  "critical",
  "fetches code from the network (or decodes it) and executes it unseen",
  "Ship the script in the skill (or pin it by digest) instead of piping a download into a shell.",
  FETCH_EXECUTE,
  /curl|wget|iex|iwr|irm|invoke-|downloadstring|base64/i,
);
const reverseShell = commandRule(
  "exec-reverse-shell",
  "critical",
  "opens a reverse shell: hands a remote host a shell on the user's machine",
  "Remove the command; a skill never opens a shell to a remote host.",
  REVERSE_SHELL,
  /\/dev\/(tcp|udp)\/|\bnc\b|\bncat\b|\bnetcat\b|socat|mkfifo|os\.dup2/,
);
const persistAuthorizedKeys = commandRule(
  "exec-persistence-ssh",
  "critical",
  "writes to ~/.ssh/authorized_keys: grants someone lasting login access",
  "Remove the write; a skill never adds login keys.",
  PERSIST_KEYS,
  /authorized_keys/,
);
const persistShellRc = commandRule(
  "exec-persistence-shell-rc",
  "high",
  "writes to a shell start-up file: runs on every new shell, long after the skill",
  "Print the line for the user to add instead of writing their shell start-up file.",
  PERSIST_RC,
  /\.(bashrc|bash_profile|bash_login|zshrc|zprofile|zshenv|profile)\b/,
);
const persistSchedule = commandRule(
  "exec-persistence-schedule",
  "high",
  "installs a scheduled job or launch agent: runs long after the skill",
  "Remove the scheduled job; document it for the user to install if needed.",
  PERSIST_SCHEDULE,
  /crontab|\/etc\/cron|LaunchAgents|launchctl|schtasks/i,
);

const credentialExfil: TextRule = {
  id: "exec-credential-read",
  severity: "critical",
  reason: "reads a credential store and makes a network call in the same script",
  fix: "Remove the read of the credential store; let the tool that owns the credentials use them.",
  applies: "all",
  *find(view) {
    if (!HAS_CREDENTIAL_STORE.test(view.text)) return;
    for (const m of view.text.matchAll(CREDENTIAL_STORE)) {
      const line = lineIndexOf(view, m.index);
      if (!view.markdown) {
        if (NETWORK_CALL.test(view.text)) yield { offset: m.index, length: m[0].length, severity: "critical" };
        continue;
      }
      // Markdown: only a fenced block that both reads the store and calls out, one step milder (low when cued).
      const block = view.fence[line] as number;
      if (block === -1 || !NETWORK_CALL.test(blockText(view, block))) continue;
      yield { offset: m.index, length: m[0].length, severity: view.fenceCued[block] ? "low" : "high" };
    }
  },
};

function blockText(view: TextView, block: number): string {
  const lines: string[] = [];
  view.fence.forEach((b, n) => {
    if (b === block) lines.push(view.text.slice(view.lineStarts[n], view.lineStarts[n + 1] ?? view.text.length));
  });
  return lines.join("");
}

const exfilCatcher = commandRule(
  "exec-exfil-endpoint",
  "critical",
  "names a request catcher or chat webhook: a known place to send stolen data",
  "Remove the endpoint; a skill has no reason to post to a request catcher.",
  [g(String.raw`\b(${CATCHERS})`, "i")],
);
const exfilDrop = commandRule(
  "exec-paste-or-tunnel",
  "high",
  "names a paste site, anonymous file drop or tunnel: a common way out for stolen data",
  "Remove the endpoint, or say in the skill's description why it needs one.",
  [g(String.raw`\b(${DROPS})`, "i")],
);

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

/** The findings of every text rule on one file: one per rule and line, the gravest kept. */
export function checkText(view: TextView): FileFinding[] {
  const findings: FileFinding[] = [];
  for (const rule of TEXT_RULES) {
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
