// The search page: the form (words, one library or all), and what it found or why it could not search.
import { MAX_QUERY_LENGTH } from "../../search/index.js";
import { href, html, type Html, plural } from "../html.js";
import { libraryOptions, oneLine, type PageView } from "./parts.js";

export interface SearchRow {
  readonly library: string;
  /** The skill's address in its library. */
  readonly address: readonly string[];
  readonly name: string;
  readonly description: string;
}

/** What the page says below the form. */
export type SearchResults =
  | { readonly kind: "asked-nothing" }
  | { readonly kind: "too-long" }
  | { readonly kind: "no-library" }
  | { readonly kind: "refused"; readonly message: string }
  | { readonly kind: "rows"; readonly rows: readonly SearchRow[] };

export interface SearchData {
  /** The words asked, trimmed. */
  readonly q: string;
  /** The library asked ("": every library). */
  readonly asked: string;
  /** The libraries the viewer sees skills in. */
  readonly libraries: readonly string[];
  readonly results: SearchResults;
}

export function searchView(data: SearchData): PageView {
  const { q, asked } = data;
  const options = libraryOptions(data.libraries, asked);
  const form = html`<form method="get" action="/search">
    <p>
      <label for="search-q">Words</label> <input type="search" id="search-q" name="q" value="${q}" maxlength="${MAX_QUERY_LENGTH}" />
      <label for="search-library">Library</label>
      <select id="search-library" name="library">
        <option value="">every library</option>
        ${options}
      </select>
      <button type="submit">Search</button>
    </p>
  </form>`;
  return {
    title: q === "" ? "Search" : `Search: ${q}`,
    crumbs: [{ label: "Libraries", href: "/" }, { label: "Search" }],
    body: html`<h1>Search</h1>
      ${form}${results(data)}`,
  };
}

function results(data: SearchData): Html {
  const found = data.results;
  switch (found.kind) {
    case "asked-nothing":
      return html`<p>Search names, descriptions, folders, tags and the text of every skill you can see.</p>`;
    case "too-long":
      return html`<p role="alert">The search is ${data.q.length} characters long; the most is ${MAX_QUERY_LENGTH}.</p>`;
    case "no-library":
      return html`<p role="alert">No library named ${data.asked} that you can see holds skills.</p>`;
    case "refused":
      return html`<p role="alert">${found.message}</p>`;
    case "rows":
      return rowsOf(found.rows);
  }
}

function rowsOf(found: readonly SearchRow[]): Html {
  const rows = found.map((row) => {
    return html`<li>
      <a href="${href("skills", row.library, ...row.address)}">${row.name}</a>
      <span class="count">${row.library}/${row.address.join("/")}</span>
      <span class="what">${oneLine(row.description)}</span>
    </li>`;
  });
  return html`<h2>${found.length === 0 ? "No skill matches" : plural(found.length, "result")}</h2>
    ${
      found.length === 0
        ? html`<p>Try fewer or other words.</p>`
        : html`<ol class="rows">
            ${rows}
          </ol>`
    }`;
}
