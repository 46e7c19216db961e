// Hidden text: what a reviewer does not see and an agent reads (bidirectional controls, tag characters, zero-width
// characters inside words, HTML comments that carry instructions).
import type { TextRule } from "./rule.js";
import { lineIndexOf } from "./text.js";

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

export const hiddenBidi: TextRule = {
  id: "hidden-bidi",
  severity: "high",
  reason: "bidirectional control character: the text shown differs from the text read",
  fix: "Remove the bidirectional embedding, override or isolate characters (U+202A–202E, U+2066–2069).",
  applies: "all",
  triggers: [["\u202A", "\u202B", "\u202C", "\u202D", "\u202E", "\u2066", "\u2067", "\u2068", "\u2069"]],
  *find(view) {
    for (const m of view.text.matchAll(BIDI)) yield { offset: m.index, length: 1, severity: "high" };
  },
};

export const hiddenTags: TextRule = {
  id: "hidden-tag-characters",
  severity: "critical",
  reason: "Unicode tag characters: invisible text an agent reads (ASCII smuggling)",
  fix: "Remove the tag characters (U+E0000–E007F); they are invisible to a reviewer.",
  applies: "all",
  // Every tag character (U+E0000–E007F) is written with the high surrogate U+DB40.
  triggers: [["\uDB40"]],
  *find(view) {
    if (!/[\u{E0000}-\u{E007F}]/u.test(view.text)) return;
    const masked = view.text.replace(EMOJI_TAG_SEQUENCE, (s) => " ".repeat(s.length));
    for (const m of masked.matchAll(TAG_RUN)) yield { offset: m.index, length: m[0].length, severity: "critical" };
  },
};

export const hiddenZeroWidth: TextRule = {
  id: "hidden-zero-width",
  severity: "high",
  reason: "zero-width characters inside a word: hides or splits words from a reviewer",
  fix: "Remove the zero-width characters (U+200B–200D, U+2060, U+FEFF) inside the word.",
  applies: "markdown",
  triggers: [["\u200B", "\u200C", "\u200D", "\u2060", "\uFEFF", "\u180E"]],
  *find(view) {
    for (const m of view.text.matchAll(ZERO_WIDTH_IN_WORD)) yield { offset: m.index, length: m[0].length, severity: "high" };
  },
};

export const hiddenComment: TextRule = {
  id: "hidden-comment-instructions",
  severity: "high",
  reason: "an HTML comment carries instructions: hidden when rendered, read by the agent",
  fix: "Move the instruction into visible text where a reviewer sees it, or delete the comment.",
  applies: "markdown",
  triggers: [["<!--"], ["-->"]],
  *find(view) {
    for (const m of view.text.matchAll(HTML_COMMENT)) {
      if (view.fence[lineIndexOf(view, m.index)] !== -1) continue; // HTML shown as an example
      if (COMMENT_INSTRUCTION.test(m[1] as string)) yield { offset: m.index, length: m[0].length, severity: "high" };
    }
  },
};
