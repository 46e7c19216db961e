// A skill's page: its address, library and SKILL.md digest, its SKILL.md rendered, the files its manifest lists
// (paged) and the prompts of its plugin.
import { MANIFEST_FILE, SKILL_FILE } from "../../address/index.js";
import type { ManifestEntry } from "../../resolve/index.js";
import { skillBody } from "../../search/index.js";
import type { Skill } from "../../shelf/index.js";
import { href, html, type Html, plural } from "../html.js";
import { renderPager } from "../layout.js";
import { renderMarkdown } from "../markdown.js";
import type { PageOf } from "./library.js";
import { libraryCrumbs, type PageView, type PromptRow, renderPrompts, renderTable } from "./parts.js";

/** SKILL.md text rendered on its page; a longer one is cut and its whole text is a download away. */
const MARKDOWN_CHARS = 60_000;
const RENDERED_BYTES = 120_000;

export interface SkillData {
  readonly library: string;
  readonly skill: Skill;
  /** The address of its SKILL.md, and the text a read of it answers. */
  readonly skillMd: string;
  readonly text: string;
  /** What the skill's manifest lists, and the page of it shown. */
  readonly files: readonly ManifestEntry[];
  readonly paged: PageOf<ManifestEntry>;
  /** Skills below this one (it is a folder too), if any. */
  readonly below: number | undefined;
  readonly prompts: readonly PromptRow[];
}

export function skillView(data: SkillData): PageView {
  const { library, skill: found, skillMd, files, paged, below } = data;
  const filesBase = href("files", library, ...found.address);
  const fileRows = paged.rows.map(
    (entry) =>
      html`<tr>
        <th scope="row"><a href="${`${filesBase}${href(...entry.path.split("/"))}`}">${entry.path}</a></th>
        <td>${entry.size}</td>
        <td><code class="digest">${entry.hash}</code></td>
      </tr>`,
  );
  const about = renderTable({
    caption: "About this skill",
    hiddenCaption: true,
    rows: html`<tr>
        <th scope="row">Address</th>
        <td><code>${skillMd}</code></td>
      </tr>
      <tr>
        <th scope="row">Library</th>
        <td><a href="${href("libraries", library)}">${library}</a></td>
      </tr>
      <tr>
        <th scope="row">SKILL.md digest</th>
        <td><code class="digest">${found.files.get(SKILL_FILE)?.digest ?? ""}</code></td>
      </tr>`,
  });
  const listed = renderTable({
    caption: html`${plural(files.length, "file")} from the skill's manifest (<a href="${`${filesBase}/${MANIFEST_FILE}`}"
        >${MANIFEST_FILE}</a
      >)`,
    columns: ["Path", "Bytes", "Digest"],
    rows: fileRows,
  });
  const body = html`<h1>${found.name}</h1>
    <p class="lede">${found.description}</p>
    ${about}
    ${below === undefined ? "" : html`<p>${plural(below, "skill")} below this one: <a href="${href("libraries", library, ...found.address)}">browse them</a>.</p>`}
    <article class="skill" aria-label="SKILL.md">${renderSkillMd(data.text, library, found)}</article>
    <h2 id="files">Files</h2>
    ${listed} ${renderPager(paged, href("skills", library, ...found.address))} ${renderPrompts(data.prompts)}`;
  return { title: found.name, crumbs: [...libraryCrumbs(library, found.address.slice(0, -1), false), { label: found.name }], body };
}

function renderSkillMd(text: string, library: string, found: Skill): Html {
  const base = { files: `${href("files", library, ...found.address)}/`, library: `${href("files", library)}/` };
  let source = skillBody(text);
  const cut = source.length > MARKDOWN_CHARS;
  if (cut) source = source.slice(0, MARKDOWN_CHARS);
  let rendered = renderMarkdown(source, base);
  for (let bytes = Buffer.byteLength(rendered.value); bytes > RENDERED_BYTES; bytes = Buffer.byteLength(rendered.value)) {
    source = source.slice(0, Math.floor((source.length * RENDERED_BYTES * 0.9) / bytes));
    rendered = renderMarkdown(source, base);
  }
  const shortened = source.length < skillBody(text).length;
  return html`${rendered}${shortened ? html`<p class="note">The rest of this SKILL.md is too long to show here: <a href="${`${base.files}${SKILL_FILE}`}">read it whole</a>.</p>` : ""}`;
}
