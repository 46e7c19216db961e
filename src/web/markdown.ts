// A skill's Markdown as HTML for the page. Skills are untrusted text: marked renders them, sanitize-html keeps only
// the tags and attributes Markdown produces (no script, no style, no event handler, no iframe, no image) and only
// http, https and mailto links. Relative links are pointed at the skill's own files on this page; headings move
// one level down so the page's own heading stays the only first-level one.
import { Marked } from "marked";
import sanitizeHtml from "sanitize-html";
import { Html } from "./html.js";

const marked = new Marked({ gfm: true, async: false });

const TAGS = [
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "p",
  "blockquote",
  "ul",
  "ol",
  "li",
  "pre",
  "code",
  "em",
  "strong",
  "del",
  "s",
  "a",
  "hr",
  "br",
  "table",
  "thead",
  "tbody",
  "tr",
  "th",
  "td",
  "dl",
  "dt",
  "dd",
  "sup",
  "sub",
  "kbd",
  "input",
];

const LOWER: Readonly<Record<string, string>> = { h1: "h2", h2: "h3", h3: "h4", h4: "h5", h5: "h6", h6: "h6" };

/** Where relative links of a skill point: `base` is the page path of the skill's directory, ending in `/`. */
export interface LinkBase {
  /** `/file/<library>/<address…>/`: a relative link `refs/a.md` becomes `/file/<library>/<address…>/refs/a.md`. */
  readonly files: string;
  /** `/file/<library>/`: a resolved link must stay below it. */
  readonly library: string;
}

const ORIGIN = "http://page.invalid";

/** A relative link resolved below the library's files, or null for a link that is not relative. */
function rebase(link: string, base: LinkBase): string | null {
  if (link.startsWith("#")) return link;
  if (/^[a-z][a-z0-9+.-]*:/i.test(link.trim()) || link.startsWith("//")) return null;
  let url: URL;
  try {
    url = new URL(link, ORIGIN + base.files);
  } catch {
    return "";
  }
  return url.origin === ORIGIN && url.pathname.startsWith(base.library) ? url.pathname + url.hash : "";
}

export function renderMarkdown(markdown: string, base: LinkBase): Html {
  const raw = marked.parse(markdown) as string;
  const clean = sanitizeHtml(raw, {
    allowedTags: TAGS,
    allowedAttributes: {
      a: ["href", "title", "rel"],
      th: ["align"],
      td: ["align"],
      input: ["type", "checked", "disabled", "aria-label"],
      code: ["class"],
    },
    allowedClasses: { code: ["language-*"] },
    allowedSchemes: ["http", "https", "mailto"],
    allowProtocolRelative: false,
    exclusiveFilter: (frame) => frame.tag === "input" && frame.attribs["type"] !== "checkbox",
    transformTags: {
      ...LOWER,
      a: (tagName, attribs) => {
        const link = attribs["href"];
        if (link === undefined) return { tagName, attribs };
        const rebased = rebase(link, base);
        if (rebased === null) return { tagName, attribs: { ...attribs, rel: "noopener noreferrer nofollow" } };
        const { href: _href, ...rest } = attribs;
        return { tagName, attribs: rebased === "" ? rest : { ...rest, href: rebased } };
      },
      // The checkbox of a task-list item, labelled; any other control is dropped by the filter below.
      input: (tagName, attribs) =>
        attribs["type"] === "checkbox"
          ? {
              tagName,
              attribs: {
                type: "checkbox",
                disabled: "",
                ...(attribs["checked"] === undefined ? { "aria-label": "to do" } : { checked: "", "aria-label": "done" }),
              },
            }
          : { tagName, attribs: {} },
    },
  });
  return new Html(clean);
}
