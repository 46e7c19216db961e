// §3.6: what a SKILL.md body cites, found once at harvest (the shelf resolves them after the build). Pure.
// Markdown is parsed with marked's lexer (CommonMark + GFM): a link or image inside a code span or a code block is
// text, not a citation; a reference-style link (`[a][ref]` with `[ref]: path`) cites its definition's target.
import { Lexer, type Token, type Tokens } from "marked";

/** A placeholder path runs until whitespace or a character that closes Markdown or a quoted string. `{baseDir}` is
 *  the skill's folder as `${CLAUDE_SKILL_DIR}` is (address/placeholders.ts). */
const PLACEHOLDER_PATH = /(?:\$\{CLAUDE_(?:SKILL_DIR|PLUGIN_ROOT)\}|\{baseDir\})[^\s)\]"'`<>,;]*/g;

/** What every link or image needs somewhere in the text: a bracket (inline, reference, image), an angle bracket (an
 *  autolink), or what GFM turns into a link by itself (a scheme, `www.`, an e-mail address). A body with none of them
 *  holds no link, and is not lexed; a run of text without them is not lexed inline (lexLinks). */
const MAY_LINK = /[[<@]|:\/\/|www\./;

/** Every link and image target under `tokens`, in document order; tables' cells and lists' items included. */
function collectTargets(tokens: readonly Token[], found: string[]): void {
  for (const token of tokens) {
    if (token.type === "link" || token.type === "image") found.push((token as Tokens.Link | Tokens.Image).href);
    if (token.type === "table") {
      const table = token as Tokens.Table;
      for (const cell of table.header) collectTargets(cell.tokens, found);
      for (const row of table.rows) for (const cell of row) collectTargets(cell.tokens, found);
      continue;
    }
    if (token.type === "list") {
      for (const item of (token as Tokens.List).items) collectTargets(item.tokens, found);
      continue;
    }
    const children = (token as { tokens?: Token[] }).tokens;
    if (children !== undefined) collectTargets(children, found);
  }
}

/** The tokens `new Lexer({ gfm: true }).lex(body)` makes, as far as links and images go, for less: marked lexes a
 *  body in two passes, the block structure first (paragraphs, headings, lists, quotes, table cells, and the reference
 *  definitions into `tokens.links`), queueing each run of text for the inline pass, which is most of the work. Here
 *  the inline pass skips every run that holds none of MAY_LINK's marks, and leaves its tokens empty. That loses no
 *  link and changes no other run's tokens: every link or image is found by the inline pass over the run that holds
 *  its source, and needs `[` (inline, reference, image), `<` (autolink) or `://`, `www.`, `@` (GFM bare URL and
 *  e-mail) there; and a run without `[` and `<` changes no state another run reads (`inLink` moves only on an inline
 *  `<a>` tag, `linkEmitted` only on a link, `linkParenPossible` is restored, `inRawBlock` is reset before each run,
 *  as `lex` does). The rest is `lex` itself: its line-ending rewrite, then `blockTokens` into `tokens`. */
function lexLinks(body: string): Token[] {
  const lexer = new Lexer({ gfm: true });
  const tokens = lexer.blockTokens(body.replace(/\r\n|\r/g, "\n"), lexer.tokens);
  for (const run of lexer.inlineQueue) {
    if (!MAY_LINK.test(run.src)) continue;
    // Stryker disable next-line BooleanLiteral: equivalent; raw mode only marks how a text token is escaped, never a link.
    lexer.state.inRawBlock = false;
    lexer.inlineTokens(run.src, run.tokens);
  }
  return tokens;
}

/** Markdown link and image targets (code spans and code blocks excluded), then placeholder paths anywhere (code
 *  blocks included: `python ${CLAUDE_SKILL_DIR}/scripts/x.py` or `{baseDir}/scripts/x.py` in a fence is an
 *  instruction to run that file). */
export function findCitations(body: string): string[] {
  const found: string[] = [];
  if (MAY_LINK.test(body)) collectTargets(lexLinks(body), found);
  // Sentence punctuation after a path is prose, not part of it: `see ${CLAUDE_SKILL_DIR}/a.md.` cites `a.md`.
  for (const match of body.matchAll(PLACEHOLDER_PATH)) found.push(match[0].replace(/[.:!?]+$/, ""));
  // Copies, not slices: a match is a view of the whole body, which it would otherwise keep alive in the shelf.
  return [...new Set(found)].filter((cite) => cite !== "").map((cite) => structuredClone(cite));
}
