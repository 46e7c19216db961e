// The claude dialect (Claude Code commands): `$name` for declared names, `$ARGUMENTS`, `$ARGUMENTS[N]`, `$N`.
import {
  type Compiled,
  FREE_TEXT_ARGUMENT,
  type PromptArgument,
  type Segment,
  describeBadName,
  isArgumentName,
  isWordChar,
  pushText,
} from "./types.js";

const ALL = "$ARGUMENTS";
/** `$ARGUMENTS[2]`. */
const INDEXED = /\$ARGUMENTS\[(\d+)\]/y;
/** `$0`, `$12`; not `$5.00` or `$1,000`: digits followed by `.` or `,` and a digit are an amount, not a placeholder. */
const POSITIONAL = /\$(\d+)(?![\d]|[.,]\d)/y;

type Placeholder = { readonly segment: Segment; readonly length: number };

/** The built-in placeholder starting at `at` (a `$`), longest form first, or null. */
function builtinAt(body: string, at: number): Placeholder | null {
  INDEXED.lastIndex = at;
  const indexed = INDEXED.exec(body);
  if (indexed) return { segment: { kind: "word", index: Number(indexed[1]), raw: indexed[0] }, length: indexed[0].length };
  if (body.startsWith(ALL, at) && !isWordChar(body.charAt(at + ALL.length))) return { segment: { kind: "all" }, length: ALL.length };
  POSITIONAL.lastIndex = at;
  const positional = POSITIONAL.exec(body);
  if (positional) return { segment: { kind: "word", index: Number(positional[1]), raw: positional[0] }, length: positional[0].length };
  return null;
}

/** The declared name placed at `at` (a `$`), or null. `names` is sorted longest first, so `$file-name` wins over
 *  `$file` (a dash does not continue a name's word); `$filename` is neither. */
function namedAt(body: string, at: number, names: readonly string[]): Placeholder | null {
  for (const name of names) {
    if (body.startsWith(name, at + 1) && !isWordChar(body.charAt(at + 1 + name.length))) {
      const segment: Segment = name === FREE_TEXT_ARGUMENT ? { kind: "all" } : { kind: "value", name, raw: `$${name}` };
      return { segment, length: 1 + name.length };
    }
  }
  return null;
}

/** `Fix $ARGUMENTS now` => text, all, text. Only declared names are placeholders: `$HOME` stays text. */
function compileBody(body: string, names: readonly string[]): Segment[] {
  const byLength = [...names].sort((a, b) => b.length - a.length);
  const segments: Segment[] = [];
  let last = 0;
  for (let at = body.indexOf("$"); at !== -1; at = body.indexOf("$", at + 1)) {
    const found = builtinAt(body, at) ?? namedAt(body, at, byLength);
    if (found === null) continue;
    pushText(segments, body.slice(last, at));
    segments.push(found.segment);
    last = at + found.length;
    at = last - 1;
  }
  pushText(segments, body.slice(last));
  return segments;
}

/** Which Claude markers the body holds, for auto-detection: `$ARGUMENTS` / `$ARGUMENTS[N]` (strong) and `$N`
 *  (weak: prices and shell snippets use it too). */
export function findClaudeMarkers(body: string): { readonly all: boolean; readonly positional: boolean } {
  let all = false;
  let positional = false;
  // Stryker disable next-line StringLiteral: equivalent; every marker starts with '$', so a scan of every position finds the same
  for (let at = body.indexOf("$"); at !== -1; at = body.indexOf("$", at + 1)) {
    const found = builtinAt(body, at);
    if (found === null) continue;
    if (body.startsWith(ALL, at)) all = true;
    else positional = true;
  }
  return { all, positional };
}

/** `arguments: [issue, branch]` or `arguments: "issue branch"` + `argument-hint` + body => arguments and segments. */
export function compileClaude(declared: unknown, hint: unknown, body: string): Compiled {
  let names: string[];
  if (declared === undefined || declared === null) names = [];
  else if (typeof declared === "string") names = declared.split(/\s+/).filter((n) => n !== "");
  else if (Array.isArray(declared)) {
    if (declared.some((n) => typeof n !== "string")) {
      return {
        ok: false,
        reason:
          "frontmatter 'arguments' lists objects, the skillshelf dialect, but this prompt is read as a Claude command; " +
          "list argument names, or set the plugin's dialect to skillshelf",
      };
    }
    names = declared as string[];
  } else {
    return { ok: false, reason: "frontmatter 'arguments' must be a list of names or a space-separated string of names" };
  }
  const seen = new Set<string>();
  for (const name of names) {
    if (!isArgumentName(name)) return { ok: false, reason: describeBadName(name) };
    if (seen.has(name)) return { ok: false, reason: `argument '${name}' is declared twice in frontmatter 'arguments'` };
    seen.add(name);
  }

  const segments = compileBody(body, names);
  const usesFreeText = segments.some((s) => s.kind === "all" || s.kind === "word");
  // Declared names are optional, as in Claude Code; a name not given stays as written (`$issue`).
  const args: PromptArgument[] = names.filter((n) => n !== FREE_TEXT_ARGUMENT).map((name) => ({ name, required: false }));
  if (usesFreeText || names.length === 0 || seen.has(FREE_TEXT_ARGUMENT)) {
    const description = formatHint(hint) ?? "Free-text arguments, as typed after the command";
    args.push({ name: FREE_TEXT_ARGUMENT, description, required: false });
  }
  return { ok: true, arguments: args, defaults: new Map(), segments };
}

/** `"<file> [--fix]"` => itself; `[message]` (YAML reads a list) => `"[message]"`; anything else => undefined. */
function formatHint(hint: unknown): string | undefined {
  if (typeof hint === "string") return hint.trim() === "" ? undefined : hint.trim();
  if (Array.isArray(hint) && hint.length > 0 && hint.every((h) => typeof h === "string" || typeof h === "number")) {
    return hint.map((h) => `[${String(h)}]`).join(" ");
  }
  return undefined;
}

/** `'hello world' second don't` => `["hello world", "second", "don't"]`.
 *  Words split on whitespace. A word that starts with `'` or `"` runs to the same quote followed by whitespace or
 *  the end, and loses both quotes; without such a closing quote the quote is an ordinary character. No escapes.
 *  Linear in the text (it comes from clients): a quote with no closing quote is remembered, never searched again. */
export function splitArgumentWords(text: string): string[] {
  const words: string[] = [];
  const unclosed = new Set<string>();
  // Past the end charAt gives "", which is no space: the scans below stop there.
  const isSpace = (at: number) => /\s/.test(text.charAt(at));
  const n = text.length;
  let i = 0;
  for (;;) {
    while (isSpace(i)) i++;
    if (i >= n) break;
    const quote = text.charAt(i);
    if ((quote === "'" || quote === '"') && !unclosed.has(quote)) {
      let close = text.indexOf(quote, i + 1);
      while (close !== -1 && close + 1 < n && !isSpace(close + 1)) close = text.indexOf(quote, close + 1);
      if (close !== -1) {
        words.push(text.slice(i + 1, close));
        i = close + 1;
        continue;
      }
      unclosed.add(quote);
    }
    let j = i;
    while (j < n && !isSpace(j)) j++;
    words.push(text.slice(i, j));
    i = j;
  }
  return words;
}
