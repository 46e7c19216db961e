// HTML built by one tagged template: every interpolated value is escaped unless it is already `Html` (made by
// this template, or by the Markdown renderer after sanitising). Nothing else in the page layer writes markup.

const ESCAPES: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);
}

/** Markup that is safe to write as it is. */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export type Interpolated = Html | string | number | null | undefined | false | readonly Interpolated[];

function render(value: Interpolated): string {
  if (value === null || value === undefined || value === false) return "";
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return (value as readonly Interpolated[]).map(render).join("");
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: Interpolated[]): Html {
  let out = strings[0] as string;
  for (let i = 0; i < values.length; i++) out += render(values[i] as Interpolated) + (strings[i + 1] as string);
  return new Html(out);
}

/** A path below the page's root from raw segments: each is percent-encoded, so `/` or `?` in a name stays a name. */
export function href(...segments: readonly string[]): string {
  return `/${segments.map(encodeURIComponent).join("/")}`;
}

/** `1 prompt`, `2 prompts`: a count with its noun. */
export function plural(count: number, word: string, many = `${word}s`): string {
  return `${count} ${count === 1 ? word : many}`;
}
