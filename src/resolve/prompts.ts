// Prompts as one scope sees them: admitted through the plugin that ships them, like every other address.
import type { PromptDef } from "../prompts/index.js";
import { isVisible } from "./scope.js";
import { compareCodeUnits } from "../address/index.js";
import type { Scope } from "./types.js";
import type { Shelf } from "../shelf/index.js";

export function visiblePrompts(shelf: Shelf, scope: Scope): PromptDef[] {
  const out: PromptDef[] = [];
  for (const library of shelf.libraries.values()) {
    for (const prompt of library.prompts.values()) {
      // Stryker disable next-line StringLiteral: equivalent; no plugin id is empty, so no scope admits either stand-in.
      if (isVisible(scope, library.name, prompt.plugin ?? "")) out.push(prompt);
    }
  }
  return out.sort((a, b) => compareCodeUnits(a.name, b.name));
}

/** `kit_review` => the prompt `kit_review` of library `kit`, or null when absent or outside the scope. Library
 *  names never hold `_`, so the first `_` ends the library name. */
export function findPrompt(shelf: Shelf, scope: Scope, name: string): PromptDef | null {
  const cut = name.indexOf("_");
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent; a prompt's name is its library's (never empty) and "_": a name without "_", or starting with it, is no prompt's.
  const library = cut <= 0 ? undefined : shelf.libraries.get(name.slice(0, cut));
  const prompt = library?.prompts.get(name);
  // Stryker disable next-line StringLiteral: equivalent; no plugin id is empty, so no scope admits either stand-in.
  return prompt !== undefined && isVisible(scope, prompt.library, prompt.plugin ?? "") ? prompt : null;
}
