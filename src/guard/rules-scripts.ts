// Scripts: fetch and execute, reverse shells, persistence, credential stores read with a network call, and known
// exfiltration endpoints.
import type { Triggers } from "./prefilter.js";
import { commandWeight, g, matches, type TextRule } from "./rule.js";
import { lineIndexOf, type TextView } from "./text.js";
import type { Severity } from "./types.js";

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

function commandRule(
  id: string,
  severity: Severity,
  reason: string,
  fix: string,
  patterns: readonly RegExp[],
  triggers: Triggers,
  gate?: RegExp,
): TextRule {
  return {
    id,
    severity,
    reason,
    fix,
    applies: "all",
    triggers,
    ...(gate === undefined ? {} : { gate }),
    find: (view) => matches(view, patterns, commandWeight(severity)),
  };
}

export const fetchExecute = commandRule(
  "exec-fetch-execute",
  "critical",
  "fetches code from the network (or decodes it) and executes it unseen",
  "Ship the script in the skill (or pin it by digest) instead of piping a download into a shell.",
  FETCH_EXECUTE,
  [
    ["curl", "wget", "iex", "iwr", "irm", "invoke-", "downloadstring", "base64"],
    // What the patterns hold, word boundaries kept (`irm` alone is in "confirm").
    [
      ...["\\bcurl\\b", "\\bwget\\b", "\\biex\\b", "invoke-expression", "\\biwr\\b", "\\birm\\b", "invoke-webrequest"],
      ...["invoke-restmethod", "downloadstring(", "\\bbase64\\b", "b64decode", "atob", "buffer.from(", "frombase64string"],
    ],
  ],
  /curl|wget|iex|iwr|irm|invoke-|downloadstring|base64/i,
);
export const reverseShell = commandRule(
  "exec-reverse-shell",
  "critical",
  "opens a reverse shell: hands a remote host a shell on the user's machine",
  "Remove the command; a skill never opens a shell to a remote host.",
  REVERSE_SHELL,
  [
    // The gate's literals, its word boundaries kept.
    ["/dev/tcp/", "/dev/udp/", "\\bnc\\b", "\\bncat\\b", "\\bnetcat\\b", "socat", "mkfifo", "os.dup2"],
    // What each pattern holds besides: a shell (`-e /bin/sh`), `exec:`, or its own literal above.
    ["/dev/tcp/", "/dev/udp/", "sh", "exec:", "mkfifo", "os.dup2("],
  ],
  /\/dev\/(tcp|udp)\/|\bnc\b|\bncat\b|\bnetcat\b|socat|mkfifo|os\.dup2/,
);
export const persistAuthorizedKeys = commandRule(
  "exec-persistence-ssh",
  "critical",
  "writes to ~/.ssh/authorized_keys: grants someone lasting login access",
  "Remove the write; a skill never adds login keys.",
  PERSIST_KEYS,
  [["authorized_keys"]],
  /authorized_keys/,
);
export const persistShellRc = commandRule(
  "exec-persistence-shell-rc",
  "high",
  "writes to a shell start-up file: runs on every new shell, long after the skill",
  "Print the line for the user to add instead of writing their shell start-up file.",
  PERSIST_RC,
  [[".bashrc", ".bash_profile", ".bash_login", ".zshrc", ".zprofile", ".zshenv", ".profile"]],
  /\.(bashrc|bash_profile|bash_login|zshrc|zprofile|zshenv|profile)\b/,
);
export const persistSchedule = commandRule(
  "exec-persistence-schedule",
  "high",
  "installs a scheduled job or launch agent: runs long after the skill",
  "Remove the scheduled job; document it for the user to install if needed.",
  PERSIST_SCHEDULE,
  [["crontab", "/etc/cron", "launchagents", "launchctl", "schtasks"]],
  /crontab|\/etc\/cron|LaunchAgents|launchctl|schtasks/i,
);

export const credentialExfil: TextRule = {
  id: "exec-credential-read",
  severity: "critical",
  reason: "reads a credential store and makes a network call in the same script",
  fix: "Remove the read of the credential store; let the tool that owns the credentials use them.",
  applies: "all",
  triggers: [
    [
      ".aws/credentials",
      ".ssh/id_",
      "login data",
      "cookies.binarycookies",
      "cookies.sqlite",
      "logins.json",
      "key4.db",
      "library/keychains",
      "login.keychain",
      "find-generic-password",
      "find-internet-password",
      "dump-keychain",
      ".config/gcloud/",
      ".docker/config.json",
      ".git-credentials",
      ".netrc",
    ],
    // NETWORK_CALL's words (a fenced block's text is part of the file's).
    ["curl", "wget", "\\bnc\\b", "\\bncat\\b", "fetch", "axios", "requests.", "urllib", "http", "invoke-", "socket.connect", "smtplib"],
  ],
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

export const exfilCatcher = commandRule(
  "exec-exfil-endpoint",
  "critical",
  "names a request catcher or chat webhook: a known place to send stolen data",
  "Remove the endpoint; a skill has no reason to post to a request catcher.",
  [g(String.raw`\b(${CATCHERS})`, "i")],
  [
    [
      "webhook.site",
      "requestbin.",
      "pipedream.net",
      "beeceptor.com",
      "hookbin.com",
      "requestcatcher.com",
      "interact.sh",
      "oast.",
      "oastify.com",
      "burpcollaborator.net",
      "canarytokens.",
      "discord.com/api/webhooks",
      "discordapp.com/api/webhooks",
      "api.telegram.org/bot",
    ],
  ],
);
export const exfilDrop = commandRule(
  "exec-paste-or-tunnel",
  "high",
  "names a paste site, anonymous file drop or tunnel: a common way out for stolen data",
  "Remove the endpoint, or say in the skill's description why it needs one.",
  [g(String.raw`\b(${DROPS})`, "i")],
  [
    [
      "pastebin.com",
      "paste.ee",
      "hastebin.com",
      "ghostbin.",
      "transfer.sh",
      "file.io",
      "0x0.st",
      "termbin.com",
      "ngrok.io",
      "ngrok-free.app",
      "ngrok.app",
      "trycloudflare.com",
      "serveo.net",
      "localhost.run",
      "loca.lt",
    ],
  ],
);
