// §3.6: what a SKILL.md body cites, found once at harvest (the shelf resolves them after the build). Pure.

/** `[text](target "title")` — the target is the first token inside the parentheses. */
const MARKDOWN_LINK = /\]\(\s*<?([^)\s>]+)>?(?:\s+[^)]*)?\)/g;
/** A placeholder path runs until whitespace or a character that closes Markdown or a quoted string. */
const PLACEHOLDER_PATH = /\$\{CLAUDE_(?:SKILL_DIR|PLUGIN_ROOT)\}[^\s)\]"'`<>,;]*/g;
const FENCE = /^\s*(```|~~~)/;

/** Markdown link targets outside fenced code, then placeholder paths anywhere (code blocks included). */
export function findCitations(body: string): string[] {
  const found: string[] = [];
  let fenced = false;
  for (const line of body.split(/\r?\n/)) {
    if (FENCE.test(line)) {
      fenced = !fenced;
    } else if (!fenced) {
      for (const match of line.matchAll(MARKDOWN_LINK)) found.push(match[1] as string);
    }
    // Sentence punctuation after a path is prose, not part of it: `see ${CLAUDE_SKILL_DIR}/a.md.` cites `a.md`.
    for (const match of line.matchAll(PLACEHOLDER_PATH)) found.push(match[0].replace(/[.:!?]+$/, ""));
  }
  // Copies, not slices: a match is a view of the whole body, which it would otherwise keep alive in the shelf.
  return [...new Set(found)].map((cite) => structuredClone(cite));
}
