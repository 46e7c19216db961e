// A file's page: a text file shown (up to a bound) with a download link, a binary file named with its size.
import { escapeHtml, href, html, type Html, plural } from "../html.js";
import { libraryCrumbs, type PageView } from "./parts.js";

/** The part of a text file shown on its page, in bytes once escaped. */
const TEXT_BYTES = 120_000;

export interface FileData {
  readonly library: string;
  /** The file's path below the library. */
  readonly segments: readonly string[];
  readonly uri: string;
  readonly mimeType: string;
  /** The text of a text file, or the bytes of any other. */
  readonly content: { readonly text: string } | { readonly bytes: number };
}

export function fileView(data: FileData): PageView {
  const { library, segments } = data;
  const name = segments.join("/");
  const download = href("raw", library, ...segments);
  let content: Html;
  if ("text" in data.content) {
    const text = data.content.text;
    const shown = fitText(text);
    content = html`<p>${data.mimeType}, ${plural(Buffer.byteLength(text, "utf8"), "byte")} · <a href="${download}">Download</a></p>
      ${shown.length < text.length ? html`<p class="note">Only the first ${plural(shown.length, "character")} are shown; download the file for the rest.</p>` : ""}
      <pre><code>${shown}</code></pre>`;
  } else {
    content = html`<p>A binary file: ${data.mimeType}, ${plural(data.content.bytes, "byte")}.</p>
      <p><a href="${download}">Download ${segments[segments.length - 1] ?? ""}</a></p>`;
  }
  const body = html`<h1>${name}</h1>
    <p><code>${data.uri}</code></p>
    ${content}`;
  return { title: name, crumbs: [...libraryCrumbs(library, [], false), { label: name }], body };
}

/** The longest start of `text` whose escaped form stays within TEXT_BYTES. */
function fitText(text: string): string {
  let shown = text;
  for (let bytes = Buffer.byteLength(escapeHtml(shown)); bytes > TEXT_BYTES; bytes = Buffer.byteLength(escapeHtml(shown))) {
    shown = shown.slice(0, Math.floor((shown.length * TEXT_BYTES * 0.9) / bytes));
  }
  return shown;
}
