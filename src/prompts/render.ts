// Render a prompt for `prompts/get`: check the arguments, substitute, then the plugin root. Nothing is executed.
import { substitutePlaceholders } from "../address/index.js";
import { splitArgumentWords } from "./claude.js";
import { FREE_TEXT_ARGUMENT, type PromptArgs, type PromptArgument, type PromptDef, type RenderResult } from "./types.js";

/** `(kit_review, {topic: "auth"})` => `{ok: true, text: "Review auth."}`; a missing required argument or an unknown
 *  one is `{ok: false, message}` (the MCP layer answers -32602). `${CLAUDE_SKILL_DIR}` and `` !`cmd` `` stay text. */
export function renderPrompt(def: PromptDef, args: PromptArgs): RenderResult {
  const checked = checkArguments(def, args);
  if (!checked.ok) return { ok: false, message: checked.message };
  const values = checked.values;

  const free = values.get(FREE_TEXT_ARGUMENT) ?? "";
  let words: readonly string[] | null = null;
  let placed = false;
  let text = "";
  for (const segment of def.segments) {
    if (segment.kind === "text") {
      text += segment.text;
    } else if (segment.kind === "value") {
      const value = values.get(segment.name);
      placed ||= value !== undefined;
      text += value ?? segment.raw ?? "";
    } else if (segment.kind === "all") {
      placed ||= free !== "";
      text += free;
    } else {
      words ??= splitArgumentWords(free);
      const word = words[segment.index];
      placed ||= word !== undefined;
      text += word ?? segment.raw;
    }
  }
  if (def.dialect === "claude" && !placed) {
    // As Claude Code does for a command that places no argument: what the user typed still reaches the model.
    // `$500 ACV` with three words given places nothing, so the three words are appended rather than lost.
    const given = def.arguments.map((a) => values.get(a.name)).filter((v): v is string => v !== undefined);
    if (given.length > 0) text += `${text === "" ? "" : "\n\n"}ARGUMENTS: ${given.join(" ")}`;
  }
  // A plain scan after substitution (§2.3, §7): no pattern is ever built from content. A path into one of the
  // plugin's served skills is read at that skill's address.
  const bases = { libraryUri: `skill://${def.library}`, ...(def.skills === undefined ? {} : { skills: def.skills }) };
  return { ok: true, text: substitutePlaceholders(text, bases) };
}

type Checked =
  | { readonly ok: true; readonly values: ReadonlyMap<string, string> }
  | { readonly ok: false; readonly message: string; readonly missing: readonly PromptArgument[] };

/** The values to substitute (given, else defaults), or why there are none: an unknown argument (nothing missing
 *  then: the request itself is wrong) or required arguments missing. */
function checkArguments(def: PromptDef, args: PromptArgs): Checked {
  const declared = new Set(def.arguments.map((a) => a.name));
  const values = new Map<string, string>();
  // Object.entries reads own keys only, so `__proto__` or `constructor` in a request are ordinary unknown names.
  for (const [name, value] of Object.entries(args)) {
    if (typeof value !== "string" || value === "") continue; // null, undefined and "" mean "not given"
    if (!declared.has(name)) return { ok: false, message: describeUnknown(def, name), missing: [] };
    values.set(name, value);
  }
  for (const [name, fallback] of def.defaults) if (!values.has(name)) values.set(name, fallback);

  const missing = def.arguments.filter((a) => a.required && !values.has(a.name));
  if (missing.length > 0) {
    const noun = missing.length === 1 ? "argument" : "arguments";
    const names = missing.map((a) => `'${a.name}'`).join(", ");
    return { ok: false, message: `Missing required ${noun} ${names} for prompt '${def.name}'`, missing };
  }
  return { ok: true, values };
}

/** The required arguments `args` leaves out (given as absent, null or ""), in declaration order; none when an
 *  unknown argument is given, since asking for more would not make that request right. */
export function missingArguments(def: PromptDef, args: PromptArgs): readonly PromptArgument[] {
  const checked = checkArguments(def, args);
  return checked.ok ? [] : checked.missing;
}

function describeUnknown(def: PromptDef, name: string): string {
  const known = def.arguments.map((a) => a.name);
  const takes = known.length === 0 ? "it takes no arguments" : `its arguments are: ${known.join(", ")}`;
  return `Unknown argument '${name}' for prompt '${def.name}'; ${takes}`;
}
