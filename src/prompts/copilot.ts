// The copilot dialect (VS Code prompt files): one argument per distinct `${input:name[:placeholder]}`.
import { type Compiled, type PromptArgument, type Segment, pushText } from "./types.js";

/** `${input:file}`, `${input:file:Path of the file}`: the placeholder text holds no brace and no line break
 *  (which also keeps the scan linear: a failed match stops at the next `{`, where the next attempt starts). */
const INPUT = /\$\{input:([A-Za-z_][A-Za-z0-9_-]*)(?::([^{}\r\n]*))?\}/g;

export function hasCopilotInput(body: string): boolean {
  // `.test` on the global regex would move its lastIndex, where `matchAll` below starts: use a stateless copy.
  return new RegExp(INPUT.source).test(body);
}

/** `Review ${input:file:the file}` => argument `file` (optional, described "the file"), segments text + input.
 *  Inputs are optional: VS Code runs a prompt file whose inputs were not passed, and the model asks for them, so a
 *  missing input is rendered as written and the model asks here too. The first non-empty placeholder describes it. */
export function compileCopilot(body: string): Compiled {
  const segments: Segment[] = [];
  const descriptions = new Map<string, string | undefined>();
  let last = 0;
  for (const match of body.matchAll(INPUT)) {
    // Stryker disable next-line StringLiteral: equivalent; the name group takes part in every match
    const name = match[1] ?? "";
    const placeholder = match[2]?.trim() || undefined;
    if (!descriptions.has(name) || descriptions.get(name) === undefined) descriptions.set(name, placeholder);
    pushText(segments, body.slice(last, match.index));
    segments.push({ kind: "value", name, raw: match[0] });
    last = match.index + match[0].length;
  }
  pushText(segments, body.slice(last));
  const args: PromptArgument[] = [...descriptions].map(([name, description]) =>
    description === undefined ? { name, required: false } : { name, description, required: false },
  );
  return { ok: true, arguments: args, defaults: new Map(), segments };
}
