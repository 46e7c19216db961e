// The frame of every page: the header (brand, navigation, search box, who is viewing), breadcrumbs, the main
// region and a footer. Landmarks, a skip link and labelled controls keep it usable with a keyboard and a screen
// reader.
import { html, type Html, type Interpolated } from "./html.js";
import { CSRF_FIELD } from "./security.js";

/** What the frame needs to know about the one viewing it. */
export interface Frame {
  /** The signed-in client's name, or null. */
  readonly viewer: string | null;
  /** Clients are declared, so signing in means something. */
  readonly signIn: boolean;
  /** The health view is open to this viewer. */
  readonly admin: boolean;
  /** The form token for this browser (sign-out). */
  readonly csrf: string;
  /** What the search box holds. */
  readonly query?: string;
  readonly version: string;
}

export interface Crumb {
  readonly label: string;
  /** Absent for the current page. */
  readonly href?: string;
}

export function renderPage(frame: Frame, title: string, crumbs: readonly Crumb[], body: Interpolated): string {
  const page = html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title} · skillshelf</title>
        <link rel="stylesheet" href="/assets/style.css" />
      </head>
      <body>
        <a class="skip" href="#content">Skip to content</a>
        <header class="site">
          <div class="bar">
            <a class="brand" href="/">skillshelf</a>
            <nav class="main" aria-label="Main">
              <ul>
                <li><a href="/">Libraries</a></li>
                <li><a href="/connect">Connect</a></li>
                ${frame.admin ? html`<li><a href="/status">Health</a></li>` : ""}
              </ul>
            </nav>
            <form class="search" role="search" method="get" action="/search">
              <label for="q" class="vh">Search skills</label>
              <input type="search" id="q" name="q" value="${frame.query ?? ""}" placeholder="Search skills" maxlength="200" />
              <button type="submit">Search</button>
            </form>
            ${renderViewer(frame)}
          </div>
        </header>
        <main id="content">${crumbs.length > 0 ? renderCrumbs(crumbs) : ""} ${body}</main>
        <footer class="site">
          <p>
            skillshelf ${frame.version} · every page shows only what ${frame.viewer === null ? "an anonymous visitor" : frame.viewer} may
            see
          </p>
        </footer>
      </body>
    </html> `;
  return page.value;
}

function renderViewer(frame: Frame): Html | string {
  if (!frame.signIn) return "";
  if (frame.viewer === null) return html`<div class="viewer"><a href="/signin">Sign in</a></div>`;
  return html`<div class="viewer">
    <span>Signed in as <strong>${frame.viewer}</strong></span>
    <form method="post" action="/signout">
      <input type="hidden" name="${CSRF_FIELD}" value="${frame.csrf}" /><button class="plain" type="submit">Sign out</button>
    </form>
  </div>`;
}

function renderCrumbs(crumbs: readonly Crumb[]): Html {
  const items = crumbs.map((crumb) =>
    crumb.href === undefined
      ? html`<li><span aria-current="page">${crumb.label}</span></li>`
      : html`<li><a href="${crumb.href}">${crumb.label}</a></li>`,
  );
  return html`<nav class="crumbs" aria-label="Breadcrumb">
    <ol>
      ${items}
    </ol>
  </nav>`;
}

/** `?page=` of a long list: 1-based, checked, with a precise message when it is not a page of this list. */
export type Paged<T> =
  | { readonly ok: true; readonly rows: readonly T[]; readonly page: number; readonly pages: number; readonly total: number }
  | { readonly ok: false; readonly message: string };

export function pageOf<T>(items: readonly T[], asked: unknown, size: number): Paged<T> {
  const pages = Math.max(1, Math.ceil(items.length / size));
  let page = 1;
  if (asked !== undefined) {
    if (typeof asked !== "string" || !/^[1-9][0-9]{0,8}$/.test(asked))
      return { ok: false, message: "'page' must be a whole number from 1 up, e.g. ?page=2" };
    page = Number(asked);
    if (page > pages) return { ok: false, message: `There is no page ${page}: this list has ${pages} ${pages === 1 ? "page" : "pages"}.` };
  }
  return { ok: true, rows: items.slice((page - 1) * size, page * size), page, pages, total: items.length };
}

/** Previous/next links of a paged list; `base` is the page's path (and query, without `page`). */
export function renderPager(paged: { readonly page: number; readonly pages: number }, base: string): Html | string {
  if (paged.pages <= 1) return "";
  const join = base.includes("?") ? "&" : "?";
  const at = (page: number): string => `${base}${join}page=${page}`;
  return html`<nav class="pager" aria-label="Pages">
    ${paged.page > 1 ? html`<a href="${at(paged.page - 1)}" rel="prev">Previous page</a>` : ""}
    <span>Page ${paged.page} of ${paged.pages}</span>
    ${paged.page < paged.pages ? html`<a href="${at(paged.page + 1)}" rel="next">Next page</a>` : ""}
  </nav>`;
}
