// Where a match sits in a text file: its line, and for Markdown whether it is in a fenced block, in quotes, or
// next to words that say the text is about an attack rather than asking for one.

/** Markdown is read for its prose and fences; every other text file is a script or data, taken at face value. */
export function isMarkdown(path: string): boolean {
  return /\.(md|mdx|markdown)$/i.test(path);
}

/** Words that mark a passage as about, detecting or explaining an attack, not making one. */
const TOPIC =
  /\b(dangerous|malicious|attackers?|attacks?|insecure|unsafe|vulnerab\w*|anti-?pattern|red flags?|detect\w*|flag(s|ged)?|exploit\w*|phishing|prompt injection|suspicious)\b/i;
/** The topic words, or a warning against doing it ("never", "avoid"). Not for instructions to the agent, whose
 *  own voice is negative ("do not tell the user"). */
const CUE = new RegExp(`${TOPIC.source}|\\b(never|don'?t|do not|avoid)\\b`, "i");

export interface TextView {
  readonly text: string;
  readonly markdown: boolean;
  /** Offset of each line's first character. */
  readonly lineStarts: readonly number[];
  /** Per 0-based line: the index of the fenced block it lies in (opening and closing fence lines included), or -1. */
  readonly fence: readonly number[];
  /** Per fenced block: whether the few lines of prose before it (or its info string) carry a cue. */
  readonly fenceCued: readonly boolean[];
}

/** A fence line, found by one pass over the text (not a test of every line): a candidate counts only when it is a
 *  whole line, between two line feeds (a `.` stops at a carriage return, so a CRLF fence line is not one). */
const FENCE_LINE = /^ {0,3}(`{3,}|~{3,})(.*)$/gm;

/** A text's view, its lines and fences worked out on first use: most texts meet no rule's triggers and never
 *  need them. */
export function viewOf(text: string, path: string): TextView {
  return new LazyView(text, isMarkdown(path));
}

class LazyView implements TextView {
  private lines: { lineStarts: readonly number[]; fence: readonly number[]; fenceCued: readonly boolean[] } | undefined;

  constructor(
    readonly text: string,
    readonly markdown: boolean,
  ) {}

  get lineStarts(): readonly number[] {
    this.lines ??= linesOf(this.text, this.markdown);
    return this.lines.lineStarts;
  }

  get fence(): readonly number[] {
    this.lines ??= linesOf(this.text, this.markdown);
    return this.lines.fence;
  }

  get fenceCued(): readonly boolean[] {
    this.lines ??= linesOf(this.text, this.markdown);
    return this.lines.fenceCued;
  }
}

function linesOf(
  text: string,
  markdown: boolean,
): { lineStarts: readonly number[]; fence: readonly number[]; fenceCued: readonly boolean[] } {
  const lineStarts = [0];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) lineStarts.push(i + 1);
  const fence: number[] = new Array<number>(lineStarts.length).fill(-1);
  const fenceCued: boolean[] = [];
  if (markdown) {
    let open: { marker: string; index: number; line: number } | null = null;
    let line = 0;
    for (const m of text.matchAll(FENCE_LINE)) {
      const end = m.index + m[0].length;
      if ((m.index !== 0 && text[m.index - 1] !== "\n") || (end !== text.length && text[end] !== "\n")) continue;
      while ((lineStarts[line + 1] ?? Infinity) <= m.index) line++;
      if (open === null) {
        const index = fenceCued.length;
        const first = lineStarts[Math.max(0, line - 3)] as number;
        const before = text.slice(first, Math.max(first, (lineStarts[line] as number) - 1)).replaceAll("\n", " ");
        fenceCued.push(CUE.test(before) || CUE.test(m[2] ?? ""));
        open = { marker: (m[1] as string).slice(0, 3), index, line };
        fence[line] = index;
        continue;
      }
      if ((m[1] as string).startsWith(open.marker) && (m[2] ?? "").trim() === "") {
        fence.fill(open.index, open.line + 1, line + 1);
        open = null;
      }
    }
    if (open !== null) fence.fill(open.index, open.line + 1);
  }
  return { lineStarts, fence, fenceCued };
}

/** The 0-based line holding `offset`. */
export function lineIndexOf(view: TextView, offset: number): number {
  let lo = 0;
  let hi = view.lineStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if ((view.lineStarts[mid] as number) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

export function lineText(view: TextView, index: number): string {
  const start = view.lineStarts[index] as number;
  const next = view.lineStarts[index + 1];
  return view.text.slice(start, next === undefined ? view.text.length : next - 1);
}

/** Where a match in Markdown sits: `script` for any non-Markdown file. */
export type Placement = "script" | "fenced" | "prose";

export interface MatchContext {
  readonly placement: Placement;
  /** The passage warns about, detects or explains what matched. */
  readonly cued: boolean;
  /** The passage is about attacks (detection, explanation): the topic words alone, without "never" or "avoid". */
  readonly topical: boolean;
  /** The match is quoted on its line (between quotes or backticks): named, not said. */
  readonly quoted: boolean;
}

export function contextOf(view: TextView, offset: number, length: number): MatchContext {
  const index = lineIndexOf(view, offset);
  const line = lineText(view, index);
  const start = offset - (view.lineStarts[index] as number);
  const quoted = isQuoted(line, start, start + length);
  const topical = TOPIC.test(line);
  if (!view.markdown) return { placement: "script", cued: false, topical, quoted };
  const block = view.fence[index] as number;
  if (block !== -1)
    return { placement: "fenced", cued: view.fenceCued[block] as boolean, topical: topical || (view.fenceCued[block] as boolean), quoted };
  return { placement: "prose", cued: CUE.test(line), topical, quoted };
}

/** Whether [start, end) lies between a pair of the same quote mark on the line. */
function isQuoted(line: string, start: number, end: number): boolean {
  for (const [open, close] of [
    ['"', '"'],
    ["`", "`"],
    ["“", "”"],
  ] as const) {
    const before = line.lastIndexOf(open, start - 1);
    if (before === -1) continue;
    const after = line.indexOf(close, end);
    if (after !== -1) return true;
  }
  return false;
}
