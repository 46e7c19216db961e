// The skillshelf dialect: arguments declared as objects, `{{ name }}` placeholders, single braces are content.
import { type Compiled, type PromptArgument, type Segment, describeBadName, isArgumentName, pushText } from "./types.js";

/** `{{topic}}`, `{{ topic }}`; not `{{ a.b }}` (GitHub Actions, Helm), `{{#if}}` or `{single}`. */
const PLACEHOLDER = /\{\{[ \t]*([A-Za-z_][A-Za-z0-9_-]*)[ \t]*\}\}/g;

export function hasSkillshelfPlaceholder(body: string): boolean {
  // `.test` on the global regex would move its lastIndex, where `matchAll` below starts: use a stateless copy.
  return new RegExp(PLACEHOLDER.source).test(body);
}

/** `arguments: [{name: topic, required: true}]` + `Review {{ topic }}.` => one required argument, three segments. */
export function compileSkillshelf(declared: unknown, body: string): Compiled {
  const declaration = parseDeclared(declared);
  if (!declaration.ok) return declaration;
  const { args, defaults } = declaration;
  const compiled = compileBody(body, new Set(args.map((arg) => arg.name)));
  if (!compiled.ok) return compiled;
  return { ok: true, arguments: args, defaults, segments: compiled.segments };
}

type Declared =
  | { readonly ok: true; readonly args: PromptArgument[]; readonly defaults: Map<string, string> }
  | { readonly ok: false; readonly reason: string };

/** The `arguments` list: each entry an object {name, description?, required?, default?}, names unique. */
function parseDeclared(declared: unknown): Declared {
  const list = declared === undefined || declared === null ? [] : declared;
  if (!Array.isArray(list))
    return { ok: false, reason: "frontmatter 'arguments' must be a list of objects {name, description?, required?, default?}" };
  const args: PromptArgument[] = [];
  const defaults = new Map<string, string>();
  const seen = new Set<string>();
  for (const [i, entry] of list.entries()) {
    if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
      return {
        ok: false,
        reason:
          "frontmatter 'arguments' lists names, the Claude dialect, but this prompt is read as skillshelf; " +
          "declare objects {name, description?, required?, default?} or set the plugin's dialect to claude",
      };
    }
    const { name } = entry as Record<string, unknown>;
    if (typeof name !== "string" || name === "") return { ok: false, reason: `argument ${i + 1} in frontmatter 'arguments' has no name` };
    if (!isArgumentName(name)) return { ok: false, reason: describeBadName(name) };
    if (seen.has(name)) return { ok: false, reason: `argument '${name}' is declared twice in frontmatter 'arguments'` };
    seen.add(name);
    const arg = parseArgument(name, entry as Record<string, unknown>, defaults);
    if (typeof arg === "string") return { ok: false, reason: arg };
    args.push(arg);
  }
  return { ok: true, args, defaults };
}

/** One declared argument, its default recorded in `defaults`; or the rule it breaks. */
function parseArgument(name: string, entry: Record<string, unknown>, defaults: Map<string, string>): PromptArgument | string {
  const { description, required, default: fallback } = entry;
  if (description !== undefined && description !== null && typeof description !== "string") {
    return `argument '${name}' has a description that is not a string`;
  }
  if (required !== undefined && required !== null && typeof required !== "boolean") {
    return `argument '${name}' has a 'required' that is not true or false`;
  }
  if (fallback !== undefined && fallback !== null) {
    // `default: 10` and `default: true` are what a YAML author writes for "10" and "true".
    if (typeof fallback !== "string" && typeof fallback !== "number" && typeof fallback !== "boolean") {
      return `argument '${name}' has a default that is not a string, number or boolean`;
    }
    const text = String(fallback);
    if (text !== "") defaults.set(name, text);
  }
  // An argument with a default is never missing, so clients need not ask for it.
  const isRequired = required === true && !defaults.has(name);
  return typeof description === "string" && description.trim() !== ""
    ? { name, description: description.trim(), required: isRequired }
    : { name, required: isRequired };
}

/** The body as text runs and the declared placeholders between them; an undeclared placeholder is refused. */
function compileBody(
  body: string,
  declared: ReadonlySet<string>,
): { readonly ok: true; readonly segments: Segment[] } | { readonly ok: false; readonly reason: string } {
  const segments: Segment[] = [];
  const undeclared: string[] = [];
  let last = 0;
  for (const match of body.matchAll(PLACEHOLDER)) {
    // Stryker disable next-line StringLiteral: equivalent; the name group takes part in every match
    const name = match[1] ?? "";
    if (!declared.has(name)) {
      if (!undeclared.includes(name)) undeclared.push(name);
      continue;
    }
    pushText(segments, body.slice(last, match.index));
    segments.push({ kind: "value", name });
    last = match.index + match[0].length;
  }
  if (undeclared.length > 0) {
    const list = undeclared.map((n) => `{{${n}}}`).join(", ");
    return {
      ok: false,
      reason: `body uses ${list} but frontmatter 'arguments' does not declare ${undeclared.length === 1 ? "it" : "them"}`,
    };
  }
  pushText(segments, body.slice(last));
  return { ok: true, segments };
}
