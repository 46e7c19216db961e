// Render a prompt for `prompts/get`: check the arguments, substitute, then the plugin root. Nothing is executed.
import { splitArgumentWords } from "./claude.js";
import { FREE_TEXT_ARGUMENT, type PromptArgs, type PromptDef, type RenderResult } from "./types.js";

const PLUGIN_ROOT = "${CLAUDE_PLUGIN_ROOT}";

/** `(kit_review, {topic: "auth"})` => `{ok: true, text: "Review auth."}`; a missing required argument or an unknown
 *  one is `{ok: false, message}` (the MCP layer answers -32602). `${CLAUDE_SKILL_DIR}` and `` !`cmd` `` stay text. */
export function renderPrompt(def: PromptDef, args: PromptArgs): RenderResult {
  const declared = new Set(def.arguments.map((a) => a.name));
  const values = new Map<string, string>();
  // Object.entries reads own keys only, so `__proto__` or `constructor` in a request are ordinary unknown names.
  for (const [name, value] of Object.entries(args)) {
    if (typeof value !== "string" || value === "") continue; // null, undefined and "" mean "not given"
    if (!declared.has(name)) return { ok: false, message: describeUnknown(def, name) };
    values.set(name, value);
  }
  for (const [name, fallback] of def.defaults) if (!values.has(name)) values.set(name, fallback);

  const missing = def.arguments.filter((a) => a.required && !values.has(a.name)).map((a) => `'${a.name}'`);
  if (missing.length > 0) {
    const noun = missing.length === 1 ? "argument" : "arguments";
    return { ok: false, message: `Missing required ${noun} ${missing.join(", ")} for prompt '${def.name}'` };
  }

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
  // A plain replacement after substitution (SPEC §2.3, §7): no pattern is ever built from content.
  return { ok: true, text: text.split(PLUGIN_ROOT).join(`skill://${def.library}`) };
}

function describeUnknown(def: PromptDef, name: string): string {
  const known = def.arguments.map((a) => a.name);
  const takes = known.length === 0 ? "it takes no arguments" : `its arguments are: ${known.join(", ")}`;
  return `Unknown argument '${name}' for prompt '${def.name}'; ${takes}`;
}
