// Prompts over MCP, for `prompts/*` and the prompt tools alike.
import { renderPrompt, type PromptArgs, type PromptDef } from "../prompts/index.js";
import { findPrompt, type Scope } from "../resolve/index.js";
import type { Shelf } from "../shelf/index.js";

export function formatPromptListing(prompt: PromptDef): {
  name: string;
  title?: string;
  description: string;
  arguments: { name: string; description?: string; required: boolean }[];
} {
  return {
    name: prompt.name,
    ...(prompt.title === undefined ? {} : { title: prompt.title }),
    description: prompt.description,
    arguments: prompt.arguments.map((arg) => ({ ...arg })),
  };
}

export type PromptOutcome = { ok: true; description: string; text: string } | { ok: false; message: string };

/** A prompt the scope cannot see reads exactly like one that does not exist. */
export function getPrompt(shelf: Shelf, scope: Scope, name: string, args: PromptArgs): PromptOutcome {
  const prompt = findPrompt(shelf, scope, name);
  if (prompt === null)
    return {
      ok: false,
      message: `Prompt not found: ${name}. List the prompts (prompts/list, or the list_prompts tool) to see what this server serves.`,
    };
  const rendered = renderPrompt(prompt, args);
  return rendered.ok ? { ok: true, description: prompt.description, text: rendered.text } : { ok: false, message: rendered.message };
}
