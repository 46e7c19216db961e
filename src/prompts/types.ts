// The shapes of the prompts module: a parsed prompt (per plugin, library-independent), a served prompt
// definition (per library) and the compiled body both render from.

import type { SkillFolders } from "../address/index.js";

/** A prompt file as harvest read it; the prompts module decides the dialect and arguments. */
export interface HarvestedPromptFile {
  /** Relative to the plugin root. */
  readonly path: string;
  readonly text: string;
  /** True when the file was picked as a Claude command (under `commands/` or declared as commands). */
  readonly command: boolean;
}

export type PromptDialect = "skillshelf" | "claude" | "copilot";

/** An argument as MCP `prompts/list` publishes it. */
export interface PromptArgument {
  readonly name: string;
  readonly description?: string;
  readonly required: boolean;
}

/** A prompt body compiled once at harvest: text runs and the placeholders between them. */
export type Segment =
  /** Served as written. */
  | { readonly kind: "text"; readonly text: string }
  /** skillshelf `{{ name }}`, claude `$name`, copilot `${input:name[:placeholder]}`: the argument's value; when it is
   *  not given, `raw` (the placeholder as written, so the model sees what is missing and can ask) or else `""`. */
  | { readonly kind: "value"; readonly name: string; readonly raw?: string }
  /** claude `$ARGUMENTS`: the free-text arguments as given, `""` when not given. */
  | { readonly kind: "all" }
  /** claude `$N` / `$ARGUMENTS[N]`: word N (0-based) of the free-text arguments; `raw` when there is no word N. */
  | { readonly kind: "word"; readonly index: number; readonly raw: string };

/** One prompt file after parsing: everything but its name, which depends on the library serving it. */
export interface ParsedPrompt {
  /** `review.prompt.md` => `review`; the served name is `<library>_<stem>`. */
  readonly stem: string;
  /** The file, relative to the plugin root. */
  readonly path: string;
  readonly dialect: PromptDialect;
  /** Frontmatter `title`, else `name`, when a string. */
  readonly title?: string;
  readonly description: string;
  readonly arguments: readonly PromptArgument[];
  /** Declared defaults (skillshelf only), applied when an argument is not given. */
  readonly defaults: ReadonlyMap<string, string>;
  readonly segments: readonly Segment[];
}

/** A prompt as one library serves it. */
export interface PromptDef extends ParsedPrompt {
  /** `<library>_<stem>`. */
  readonly name: string;
  readonly library: string;
  readonly plugin?: string;
  /** The plugin's served skill folders in this library: `${CLAUDE_PLUGIN_ROOT}/skills/pdf/x.md` renders as the
   *  address the skill is served at (absent: none). */
  readonly skills?: SkillFolders;
}

export type ParseResult = { readonly ok: true; readonly prompt: ParsedPrompt } | { readonly ok: false; readonly reason: string };

export type RenderResult = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly message: string };

/** What a client passes to `prompts/get`; `null`, `undefined` and `""` all mean "not given". */
export type PromptArgs = Readonly<Record<string, string | null | undefined>>;

/** The name of the claude dialect's free-text argument (what a user types after a slash command). */
export const FREE_TEXT_ARGUMENT = "arguments";

/** One name rule for every dialect: `topic`, `file_name`, `source-lang`; not `2nd`, `a b`, `a.b`. */
const ARGUMENT_NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;

export function isArgumentName(name: string): boolean {
  return ARGUMENT_NAME.test(name);
}

/** What a dialect makes of a prompt's declared arguments and body. */
export type Compiled =
  | {
      readonly ok: true;
      readonly arguments: readonly PromptArgument[];
      readonly defaults: ReadonlyMap<string, string>;
      readonly segments: readonly Segment[];
    }
  | { readonly ok: false; readonly reason: string };

export function describeBadName(name: string): string {
  return `argument name '${name}' is not valid; a name is letters, digits, '_' and '-', starting with a letter or '_'`;
}

/** Appends a text run to compiled segments; an empty run adds nothing. Each dialect pushes a placeholder between two
 *  runs, so two runs never meet. */
export function pushText(segments: Segment[], text: string): void {
  if (text !== "") segments.push({ kind: "text", text });
}

/** A character that continues a `$name` / `$ARGUMENTS` word, so `$ARGUMENTS_FILE` is not `$ARGUMENTS`. */
export function isWordChar(ch: string): boolean {
  return /^[A-Za-z0-9_]$/.test(ch);
}
