// The libraries a viewer sees, and a library's folders: its subfolders, the skills right there, its library files
// and (on its first page) its prompts.
import type { Skill } from "../../shelf/index.js";
import { href, html, plural } from "../html.js";
import { renderPager } from "../layout.js";
import { libraryCrumbs, oneLine, type PageView, type PromptRow, renderPrompts } from "./parts.js";

/** One page of a paged list. */
export interface PageOf<T> {
  readonly rows: readonly T[];
  readonly page: number;
  readonly pages: number;
}

export interface LibraryRow {
  readonly name: string;
  readonly skills: number;
  readonly description: string;
}

export interface LibrariesData {
  /** Every library the viewer sees anything of, in order. */
  readonly libraries: readonly LibraryRow[];
  readonly paged: PageOf<LibraryRow>;
  /** The signed-in viewer's name. */
  readonly viewer: string | null;
}

export function librariesView(data: LibrariesData): PageView {
  const names = data.libraries;
  let skills = 0;
  for (const lib of names) skills += lib.skills;
  const rows = data.paged.rows.map((lib) => {
    return html`<li>
      <a href="${href("libraries", lib.name)}">${lib.name}</a> <span class="count">${plural(lib.skills, "skill")}</span>
      <span class="what">${oneLine(lib.description)}</span>
    </li>`;
  });
  const body = html`<h1>Libraries</h1>
    <p class="lede">
      ${plural(names.length, "library", "libraries")},
      ${plural(skills, "skill")}${data.viewer === null ? "" : html` visible to <strong>${data.viewer}</strong>`}.
    </p>
    ${
      names.length === 0
        ? html`<p>Nothing is shown here.</p>`
        : html`<ul class="rows">
            ${rows}
          </ul>`
    }
    ${renderPager(data.paged, "/")}`;
  return { title: "Libraries", crumbs: [], body };
}

export type FolderRow =
  | { readonly kind: "folder"; readonly name: string; readonly count: number }
  | { readonly kind: "skill"; readonly skill: Skill }
  | { readonly kind: "file"; readonly path: string; readonly size: number };

export interface FolderData {
  readonly library: string;
  /** The folder below the library; none for the library itself. */
  readonly segments: readonly string[];
  readonly description: string;
  /** Skills at and below the folder. */
  readonly skills: number;
  /** The library's own files (counted on its own page only). */
  readonly libraryFiles: number;
  /** Every row of the folder, and the page of them shown. */
  readonly total: number;
  readonly paged: PageOf<FolderRow>;
  /** The library's prompts, on its own first page. */
  readonly prompts: readonly PromptRow[];
}

export function folderView(data: FolderData): PageView {
  const { library, segments } = data;
  const key = segments.join("/");
  const items = data.paged.rows.map((row) => {
    switch (row.kind) {
      case "folder":
        return html`<li>
          <a href="${href("libraries", library, ...segments, row.name)}">${row.name}/</a>
          <span class="count">folder, ${plural(row.count, "skill")}</span>
        </li>`;
      case "skill":
        return html`<li>
          <a href="${href("skills", library, ...row.skill.address)}">${row.skill.name}</a> <span class="count">skill</span>
          <span class="what">${oneLine(row.skill.description)}</span>
        </li>`;
      case "file":
        return html`<li>
          <a href="${href("files", library, ...row.path.split("/"))}">${row.path}</a>
          <span class="count">library file, ${plural(row.size, "byte")}</span>
        </li>`;
    }
  });
  const title = key === "" ? library : `${library}/${key}`;
  const prompts = key === "" && data.paged.page === 1 ? renderPrompts(data.prompts) : "";
  const body = html`<h1>${title}</h1>
    ${key === "" ? html`<p class="lede">${data.description}</p>` : ""}
    <p>${plural(data.skills, "skill")}${key === "" && data.libraryFiles > 0 ? `, ${plural(data.libraryFiles, "library file")}` : ""}.</p>
    ${
      data.total === 0
        ? ""
        : html`<ul class="rows">
            ${items}
          </ul>`
    }
    ${renderPager(data.paged, href("libraries", library, ...segments))} ${prompts}`;
  return { title, crumbs: libraryCrumbs(library, segments, true), body };
}
