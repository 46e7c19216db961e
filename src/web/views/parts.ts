// What the views of the page share: the shape of a view, a description on one line, the breadcrumbs of a library's
// pages, the prompts a library or a plugin offers, and the one markup of a table (in a box that scrolls sideways on
// a narrow screen). A view is a pure function from data to HTML: it reads no request, no disk and no clock.
import { href, html, type Html, type Interpolated } from "../html.js";
import type { Crumb } from "../layout.js";

/** What a view answers: the page's title, its breadcrumbs and its body (the frame is drawn around them). */
export interface PageView {
  readonly title: string;
  readonly crumbs: readonly Crumb[];
  readonly body: Html;
}

/** Rows per page of every list: a page stays well under 200 KB at any shelf size. */
export const PAGE_ROWS = 100;
/** A listed description is cut to this many characters. */
const DESCRIPTION_CHARS = 160;

export function oneLine(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length <= DESCRIPTION_CHARS ? line : `${line.slice(0, DESCRIPTION_CHARS - 1).trimEnd()}…`;
}

/** Libraries › library › folders…: each a link, the last one too unless it is the page itself (`last`). */
export function libraryCrumbs(library: string, segments: readonly string[], last: boolean): Crumb[] {
  const crumbs: Crumb[] = [{ label: "Libraries", href: "/" }];
  const all = [library, ...segments];
  all.forEach((segment, i) => {
    const current = last && i === all.length - 1;
    crumbs.push(current ? { label: segment } : { label: segment, href: href("libraries", ...all.slice(0, i + 1)) });
  });
  return crumbs;
}

export interface PromptRow {
  readonly name: string;
  readonly description: string;
  readonly arguments: readonly { readonly name: string; readonly required: boolean }[];
}

export function renderPrompts(prompts: readonly PromptRow[]): Html | string {
  if (prompts.length === 0) return "";
  const shown = prompts.slice(0, PAGE_ROWS);
  const rows = shown.map(
    (prompt) =>
      html`<li>
        <code>${prompt.name}</code
        >${prompt.arguments.length === 0 ? "" : html` <span class="count">(${prompt.arguments.map((a) => `${a.name}${a.required ? "" : "?"}`).join(", ")})</span>`}
        <span class="what">${oneLine(prompt.description)}</span>
      </li>`,
  );
  return html`<h2>Prompts</h2>
    <ul class="rows">
      ${rows}
    </ul>
    ${prompts.length > shown.length ? html`<p>… and ${prompts.length - shown.length} more (prompts/list lists them all).</p>` : ""}`;
}

export interface Table {
  /** Said to screen readers; shown unless `hiddenCaption`. */
  readonly caption?: Interpolated;
  readonly hiddenCaption?: boolean;
  /** The column heads; absent: a table of rows headed by their first cell. */
  readonly columns?: readonly string[];
  /** `<tr>` elements. */
  readonly rows: Interpolated;
}

/** The one table markup of the page: every table scrolls in its own box, so a wide one never widens the page. */
export function renderTable(table: Table): Html {
  const caption =
    table.caption === undefined ? "" : html`<caption${table.hiddenCaption === true ? html` class="vh"` : ""}>${table.caption}</caption>`;
  const head =
    table.columns === undefined
      ? ""
      : html`<thead>
          <tr>
            ${table.columns.map((column) => html`<th scope="col">${column}</th>`)}
          </tr>
        </thead>`;
  return html`<div class="scroll" tabindex="0">
    <table>
      ${caption} ${head}
      <tbody>
        ${table.rows}
      </tbody>
    </table>
  </div>`;
}

/** `<option>`s of a library picker, the one asked for selected. */
export function libraryOptions(names: readonly string[], asked: string): Html[] {
  return names.map((name) => html`<option value="${name}" ${name === asked ? html` selected` : ""}>${name}</option>`);
}
