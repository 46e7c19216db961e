// What a text rule is, and the helpers the rule families share: every match of a list of patterns, weighed by
// where it sits (a script, a fenced block, prose) and what surrounds it.
import type { Triggers } from "./prefilter.js";
import { contextOf, type MatchContext, type TextView } from "./text.js";
import { milder, type Severity } from "./types.js";

export interface Hit {
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
  /** Groups of literals, each met by any text the rule finds something in (see prefilter.ts): a text that misses
   *  a group is not read by the rule at all. Without, the rule reads every text it applies to. */
  readonly triggers?: Triggers;
  find(view: TextView): Iterable<Hit>;
}

/** Every match of `patterns` with the severity its context leaves. */
export function* matches(view: TextView, patterns: readonly RegExp[], weigh: (context: MatchContext) => Severity): Iterable<Hit> {
  for (const pattern of patterns) {
    for (const m of view.text.matchAll(pattern)) {
      yield { offset: m.index, length: m[0].length, severity: weigh(contextOf(view, m.index, m[0].length)) };
    }
  }
}

/** What a command in a file says: a script runs it (full weight); Markdown shows it to an agent that may run it
 *  (one step milder); a passage that warns about or detects it only names it (low). */
export function commandWeight(base: Severity): (context: MatchContext) => Severity {
  return (context) => {
    if (context.placement === "script") return base;
    if (context.cued) return "low";
    return milder(base);
  };
}

/** An instruction to the agent: said in the file's own voice it stands; quoted or in a passage about attacks it
 *  is named, not given (low). */
export function instructionWeight(base: Severity): (context: MatchContext) => Severity {
  return (context) => (context.quoted || context.topical ? "low" : base);
}

export const g = (source: string, flags = ""): RegExp => new RegExp(source, `g${flags}`);
