import { parse, YAMLParseError } from "yaml";

export type FrontmatterResult =
  | { readonly ok: true; readonly data: Readonly<Record<string, unknown>>; readonly body: string }
  | { readonly ok: false; readonly reason: string; readonly absent?: true };

const OPEN = /^---[ \t]*(\r?\n|$)/;
const CLOSE = /^---[ \t]*(\r?\n|$)/m;

/** `---\ndescription: x\n---\n\nBody\n` => `{data: {description: "x"}, body: "Body"}`.
 *  The body loses its leading blank lines and trailing whitespace, so every dialect renders the same text. */
export function parseFrontmatter(text: string): FrontmatterResult {
  const source = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const open = OPEN.exec(source);
  if (open === null) {
    return {
      ok: false,
      absent: true,
      reason: "prompt has no frontmatter; outside commands/, a prompt file must start with a YAML block between '---' lines",
    };
  }
  const afterOpen = open[0].length;
  const rest = source.slice(afterOpen);
  const close = CLOSE.exec(rest);
  if (close === null) return { ok: false, reason: "prompt frontmatter is not closed; it needs a '---' line after the YAML" };
  const yamlText = rest.slice(0, close.index);
  const body = trimBody(rest.slice(close.index + close[0].length));

  let data: unknown;
  try {
    data = parse(yamlText);
  } catch (error) {
    return { ok: false, reason: `prompt frontmatter is not valid YAML: ${describeYamlError(error)}` };
  }
  // An empty block (`---\n---`) is an empty mapping: the author marked the file as a prompt and declared nothing.
  if (data === null) return { ok: true, data: {}, body };
  if (typeof data !== "object" || Array.isArray(data)) {
    return { ok: false, reason: "prompt frontmatter is not a mapping of keys to values" };
  }
  return { ok: true, data: data as Record<string, unknown>, body };
}

/** `"\n\n  Body\n\n"` => `"  Body"`: whole blank lines go at the start, all whitespace at the end. */
export function trimBody(body: string): string {
  return body.replace(/^(?:[ \t]*\r?\n)+/, "").trimEnd();
}

/** The yaml message's first line with the line number counted in the file (the `---` line is line 1). */
function describeYamlError(error: unknown): string {
  if (!(error instanceof YAMLParseError)) return "the YAML could not be read";
  const [first] = error.message.split("\n", 1) as [string];
  const what = first.replace(/ at line \d+, column \d+:?$/, "");
  // Stryker disable next-line OptionalChaining: defence in depth; yaml's parse sets linePos on each error it throws
  const line = error.linePos?.[0]?.line;
  return line === undefined ? what : `${what} (line ${line + 1} of the file)`;
}
