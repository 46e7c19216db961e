// Prompts over MCP, for `prompts/*` and the prompt tools alike.
import { missingArguments, renderPrompt, type PromptArgs, type PromptDef } from "../prompts/index.js";
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

/** A required argument the request left out, as the prompt declares it. */
export interface MissingArgument {
  readonly name: string;
  readonly description?: string;
}

export type PromptOutcome =
  | { ok: true; library: string; name: string; description: string; text: string }
  | { ok: false; message: string; missing: readonly MissingArgument[] };

/** A prompt the scope cannot see reads exactly like one that does not exist. */
export function getPrompt(shelf: Shelf, scope: Scope, name: string, args: PromptArgs): PromptOutcome {
  const prompt = findPrompt(shelf, scope, name);
  if (prompt === null)
    return {
      ok: false,
      message: `Prompt not found: ${name}. List the prompts (prompts/list, or the list_prompts tool) to see what this server serves.`,
      missing: [],
    };
  const rendered = renderPrompt(prompt, args);
  if (rendered.ok) return { ok: true, library: prompt.library, name: prompt.name, description: prompt.description, text: rendered.text };
  return { ok: false, message: rendered.message, missing: missingArguments(prompt, args) };
}

/** The one form elicitation that asks for the missing arguments of prompt `name`: a string property per argument,
 *  described by the argument's own description, all required. */
export function formatArgumentsRequest(
  name: string,
  missing: readonly MissingArgument[],
): {
  message: string;
  requestedSchema: {
    type: "object";
    properties: Record<string, { type: "string"; description?: string }>;
    required: string[];
  };
} {
  const names = missing.map((arg) => arg.name);
  const listed = names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
  return {
    message: `The ${name} prompt needs ${listed}.`,
    requestedSchema: {
      type: "object",
      properties: Object.fromEntries(
        missing.map((arg) => [
          arg.name,
          arg.description === undefined || arg.description === "" ? { type: "string" } : { type: "string", description: arg.description },
        ]),
      ),
      required: names,
    },
  };
}

/** The string values of an accepted answer for the arguments that were asked for; anything else is dropped. */
export function answeredArguments(
  content: Readonly<Record<string, unknown>> | undefined,
  asked: readonly string[],
): Record<string, string> {
  const answered: Record<string, string> = {};
  if (content === undefined) return answered;
  for (const name of asked) {
    const value = Object.hasOwn(content, name) ? content[name] : undefined;
    if (typeof value === "string") answered[name] = value;
  }
  return answered;
}
