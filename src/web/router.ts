// The page for people at `/`: libraries → folders → skills, a skill with its rendered SKILL.md, files, digests
// and prompts, a search box over the same index as `search_skills`, a connect panel and, for admins, the health
// view. Every page reads through the viewer's scope exactly as an MCP request does (`scopeOn`, the resolver's
// views, `ShelfAccess.read` and `.search`), so what lies outside it is never shown, counted or hinted: it answers
// the same 404 as what does not exist.
import express, { type NextFunction, type Request, type Response, type Router } from "express";
import {
  compareCodeUnits,
  formatSkillMdUri,
  formatSkillUri,
  libraryMarketplaceName,
  MANIFEST_FILE,
  parseSkillUri,
  pluginName,
  SCOPE_MARKETPLACE,
  SKILL_FILE,
} from "../address/index.js";
import type { Ceiling, ConfigError, ScopeSpec } from "../config/index.js";
import { buildHealth } from "../health/index.js";
import type { ShelfAccess } from "../mcp/index.js";
import type { PageClient, PendingSignIn } from "../oauth/index.js";
import {
  findSkillBySkillMd,
  type LibraryView,
  libraryView,
  NO_SCOPE,
  type ReadOutcome,
  type ScopeOn,
  scopeOn,
  type ShelfView,
  viewOf,
  visiblePrompts,
} from "../resolve/index.js";
import { MAX_QUERY_LENGTH, skillBody } from "../search/index.js";
import type { Shelf, Skill } from "../shelf/index.js";
import { connectEntries, installEntries, marketplaceEntries } from "./connect.js";
import { healthRows, renderHealth } from "./health-view.js";
import { escapeHtml, href, html, type Html, plural } from "./html.js";
import { type Crumb, type Frame, pageOf, renderPage, renderPager } from "./layout.js";
import { renderMarkdown } from "./markdown.js";
import {
  CsrfTokens,
  CSRF_FIELD,
  DOWNLOAD_POLICY,
  overTls,
  PENDING_COOKIE,
  SealedValues,
  securityHeaders,
  SESSION_COOKIE,
  setCookie,
  TOKEN_COOKIE,
  cookiesOf,
} from "./security.js";
import { ExpiringStore } from "./sessions.js";
import { STYLESHEET } from "./style.js";

/** Who may sign in, as the layer above knows it. */
export interface WebViewer {
  readonly name: string;
  /** A client's scope, or the union a signed-in user's matching rules grant. */
  readonly scope: Ceiling;
  readonly admin: boolean;
  /** Signed in with the provider (so a client connects by signing in too, never with a pasted token). */
  readonly signedIn?: boolean;
}

export interface WebAccess {
  /** The client holding `token` (compared in constant time), or undefined. */
  identify(token: string): WebViewer | undefined;
  /** Clients are declared: the page offers a sign-in form. */
  readonly signIn: boolean;
  /** An `Authorization` header (a script or a proxy): the client or the user the issuer vouches for, identified
   *  as on /mcp, or why it names nobody. */
  identifyHeader(authorization: string): Promise<WebIdentified>;
  /** Signing in with the provider (`oauth.page`): the authorization code flow with PKCE. */
  readonly provider?: PageClient | undefined;
  /** Visitors without a token may see the shelf (under `anonymousScope` when given). */
  readonly anonymous: boolean;
  readonly anonymousScope?: ScopeSpec | undefined;
  /** The health view is open to everyone (no clients and no anonymous ceiling: nothing is hidden from anyone). */
  readonly openHealth: boolean;
  /** A personal install link for a signed-in viewer: a path such as `/feeds/<token>`, carrying their scope, for
   *  installers that send no header. Absent: the server issues none. */
  readonly installLink?: ((viewer: WebViewer) => Promise<{ readonly path: string; readonly expires: Date }>) | undefined;
  /** Signs form tokens: the same for every replica of one config, secret to everyone else. */
  readonly formKey: Uint8Array;
}

export interface WebDeps {
  readonly shelf: ShelfAccess;
  readonly access: WebAccess;
  readonly version: string;
  /** What the last failed reload of the config file found wrong (the health view shows it). */
  readonly configErrors?: () => readonly ConfigError[];
  /** A refused form or token, named once (the log); never the token itself. */
  readonly onRefused?: (reason: string, fields: { readonly status: number; readonly method: string; readonly path: string }) => void;
}

/** Rows per page of every list: a page stays well under 200 KB at any shelf size. */
export const PAGE_ROWS = 100;
/** A listed description is cut to this many characters. */
const DESCRIPTION_CHARS = 160;
/** Browsers signed in with the provider at once that the page keeps track of. (A sign-in under way is kept in
 *  the browser that started it, sealed: it costs the server nothing.) */
const MAX_SESSIONS = 10_000;
/** A sign-in must come back from the provider within this time. */
const PENDING_MS = 10 * 60_000;
/** SKILL.md text rendered on its page; a longer one is cut and its whole text is a download away. */
const MARKDOWN_CHARS = 60_000;
const RENDERED_BYTES = 120_000;
/** The part of a text file shown on its page, in bytes once escaped. */
const TEXT_BYTES = 120_000;
const SEARCH_ROWS = 20;

interface Visit {
  readonly viewer: WebViewer | null;
  readonly admin: boolean;
  readonly scopeOn: ScopeOn;
  /** The shelf this request started on, and what the viewer's scope sees of it. */
  readonly shelf: Shelf;
  readonly view: ShelfView;
  readonly frame: Frame;
}

export type WebIdentified = { readonly ok: true; readonly viewer: WebViewer | null } | { readonly ok: false; readonly reason: string };

/** A browser signed in with the provider, as the server keeps it: the access token never leaves the server. */
interface PageSession {
  readonly accessToken: string;
  readonly displayName: string;
}

export function createWebRouter(deps: WebDeps): Router {
  const router = express.Router();
  const csrf = new CsrfTokens(() => deps.access.formKey);
  const refused = (req: Request, status: number, reason: string): void =>
    deps.onRefused?.(reason, { status, method: req.method, path: req.path });
  const forms = express.urlencoded({ extended: false, limit: "8kb", parameterLimit: 10 });
  const sessions = new ExpiringStore<PageSession>(MAX_SESSIONS);
  const pending = new SealedValues();
  const provider = deps.access.provider;
  // Clients come and go with a config reload; the provider is the one of the start.
  const offersSignIn = (): boolean => deps.access.signIn || provider !== undefined;

  /** An `Authorization: Bearer` header wins (a script or a proxy), then the provider's session, then the token
   *  cookie. A stale session or token cookie is no viewer (and is cleared by the caller). */
  const identify = async (req: Request): Promise<WebIdentified> => {
    const access = deps.access;
    const header = req.headers.authorization;
    if (header !== undefined) return access.identifyHeader(header);
    const cookies = cookiesOf(req);
    const session = provider === undefined ? undefined : sessions.get(cookies[SESSION_COOKIE]);
    if (session !== undefined && provider !== undefined) {
      // Checked again on every view, exactly as /mcp checks every request (the identity is remembered per token).
      const checked = await provider.check(session.accessToken);
      if (checked.ok) return { ok: true, viewer: { ...checked.identity, name: session.displayName, signedIn: true } };
      sessions.delete(cookies[SESSION_COOKIE]);
      refused(req, checked.refusal.status, `a signed-in session's token was refused: ${checked.refusal.description}`);
      return { ok: true, viewer: null };
    }
    const token = access.signIn ? cookies[TOKEN_COOKIE] : undefined;
    return { ok: true, viewer: token === undefined || token === "" ? null : (access.identify(token) ?? null) };
  };

  router.get("/assets/style.css", (_req, res) => {
    res.set({ "X-Content-Type-Options": "nosniff", "Cache-Control": "public, max-age=3600" }).type("text/css").send(STYLESHEET);
  });

  // Browsers ask for it on every site; there is none, and a 404 would be a JSON-RPC error.
  router.get("/favicon.ico", (_req, res) => {
    res.set("Cache-Control", "public, max-age=86400").status(204).end();
  });

  const start = (req: Request, res: Response, next: NextFunction): void => {
    identify(req).then((identified) => begin(req, res, next, identified), next);
  };
  const begin = (req: Request, res: Response, next: NextFunction, identified: WebIdentified): void => {
    if (!identified.ok) {
      // A bearer header no client holds and the issuer refuses: refused as on every other route. A stale cookie is
      // dropped instead.
      refused(req, 401, identified.reason);
      res.status(401).set("WWW-Authenticate", 'Bearer error="invalid_token"').type("text/plain").send("the bearer token is not valid");
      return;
    }
    const viewer = identified.viewer;
    const cookies = cookiesOf(req);
    if (viewer === null && cookies[TOKEN_COOKIE] !== undefined) setCookie(req, res, TOKEN_COOKIE, { value: "", maxAge: 0 });
    if (viewer === null && cookies[SESSION_COOKIE] !== undefined) clearSession(req, res);
    const shelf = deps.shelf.current;
    const ceiling = viewer?.scope ?? deps.access.anonymousScope ?? null;
    const on = viewer === null && !deps.access.anonymous ? NOTHING : scopeOn(ceiling, {});
    const visit: Visit = {
      viewer,
      admin: deps.access.openHealth || viewer?.admin === true,
      scopeOn: on,
      shelf,
      view: viewOf(shelf, on(shelf)),
      frame: {
        viewer: viewer?.name ?? null,
        signIn: offersSignIn(),
        admin: deps.access.openHealth || viewer?.admin === true,
        csrf: csrf.formToken(req, res),
        version: deps.version,
        ...(typeof req.query["q"] === "string" ? { query: req.query["q"] } : {}),
      },
    };
    res.locals["visit"] = visit;
    if (viewer === null && !deps.access.anonymous && !req.path.startsWith("/signin")) {
      sendSignIn(res, visit, 401, "This server shows its skills to signed-in clients only.", deps.access);
      return;
    }
    next();
  };

  // Each route names its path exactly: `router.use("/")` would match every path of the server.
  router.get("/", securityHeaders, start, (req, res) => libraries(req, res, visitOf(res)));
  router.get("/libraries/:library{/*segments}", securityHeaders, start, (req, res) => folder(req, res, visitOf(res)));
  router.get("/skills/:library/*segments", securityHeaders, start, (req, res, next) => skill(req, res, visitOf(res), deps).catch(next));
  router.get("/files/:library/*segments", securityHeaders, start, (req, res, next) => file(req, res, visitOf(res), deps).catch(next));
  router.get("/raw/:library/*segments", securityHeaders, start, (req, res, next) => raw(req, res, visitOf(res), deps).catch(next));
  router.get("/search", securityHeaders, start, (req, res, next) => search(req, res, visitOf(res), deps).catch(next));
  router.get("/connect", securityHeaders, start, (req, res, next) => {
    connect(req, res, visitOf(res), deps.access).catch(next);
  });
  router.get("/status", securityHeaders, start, (req, res) => status(req, res, visitOf(res), deps));

  router.get("/signin", securityHeaders, start, (_req, res) => {
    const visit = visitOf(res);
    if (!offersSignIn()) return notFound(res, visit);
    sendSignIn(res, visit, 200, null, deps.access);
  });
  router.post("/signin", securityHeaders, start, forms, (req, res) => {
    const visit = visitOf(res);
    if (!deps.access.signIn) return notFound(res, visit);
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (!csrf.check(req, body[CSRF_FIELD])) {
      refused(req, 403, "the page's form carries no valid CSRF token");
      return sendFormRefused(res, visit);
    }
    const token = typeof body["token"] === "string" ? body["token"].trim() : "";
    const viewer = token === "" ? undefined : deps.access.identify(token);
    if (viewer === undefined) {
      refused(req, 401, "sign-in with a token no client holds");
      return sendSignIn(res, visit, 401, "That token is not valid. Paste the token your operator gave you.", deps.access);
    }
    clearSession(req, res);
    setCookie(req, res, TOKEN_COOKIE, { value: token });
    res.redirect(303, "/");
  });

  // Signing in with the provider: a link sends the browser here, and here to the provider with a fresh state, nonce
  // and PKCE verifier, sealed into a cookie that only the callback path sees (nothing is kept on the server, so
  // no flood of sign-ins started elsewhere can push this browser's out). SameSite=Lax:
  // the provider's redirect back is a top-level navigation from another site, which a Strict cookie would miss.
  router.get("/signin/oidc", securityHeaders, start, (req, res, next) => {
    const visit = visitOf(res);
    if (provider === undefined) return notFound(res, visit);
    provider.begin().then((started) => {
      if (!started.ok) {
        refused(req, 503, `sign-in with the provider: ${started.reason}`);
        return sendSignInFailed(res, visit, 503, "The sign-in provider cannot be reached right now. Try again in a minute.");
      }
      const sealed = pending.seal(started.pending, Date.now() + PENDING_MS);
      setCookie(req, res, PENDING_COOKIE, { value: sealed, sameSite: "lax", path: "/signin/oidc", maxAge: PENDING_MS / 1000 });
      res.redirect(303, started.url);
    }, next);
  });
  router.get("/signin/oidc/callback", securityHeaders, start, (req, res, next) => {
    const visit = visitOf(res);
    if (provider === undefined) return notFound(res, visit);
    const started = pendingSignIn(pending.open(cookiesOf(req)[PENDING_COOKIE]));
    setCookie(req, res, PENDING_COOKIE, { value: "", sameSite: "lax", path: "/signin/oidc", maxAge: 0 });
    if (started === undefined) {
      refused(req, 400, "sign-in with the provider: no sign-in of this browser is under way (not started here, used, or expired)");
      return sendSignInFailed(
        res,
        visit,
        400,
        "This sign-in was not started in this browser, was already used, or took longer than 10 minutes.",
      );
    }
    const query = new URL(req.originalUrl, "http://page.invalid").search;
    provider.complete(new URL(`http://page.invalid/${query}`), started).then((result) => {
      if (!result.ok) {
        const status = result.refusal?.status ?? (result.unavailable === true ? 503 : 401);
        refused(req, status, `sign-in with the provider: ${result.reason}`);
        return sendSignInFailed(res, visit, status, `The sign-in did not succeed: ${result.reason}.`);
      }
      const expiresAt = (result.identity.signedIn?.expiresAt ?? 0) * 1000;
      // A new id at every sign-in: an id a browser held before never becomes a signed-in one.
      sessions.delete(cookiesOf(req)[SESSION_COOKIE]);
      const id = sessions.add({ accessToken: result.accessToken, displayName: result.displayName }, expiresAt);
      const maxAge = Math.max(0, Math.floor((expiresAt - Date.now()) / 1000));
      setCookie(req, res, SESSION_COOKIE, { value: id, sameSite: "lax", maxAge });
      if (cookiesOf(req)[TOKEN_COOKIE] !== undefined) setCookie(req, res, TOKEN_COOKIE, { value: "", maxAge: 0 });
      res.redirect(303, "/");
    }, next);
  });

  /** Drop this browser's provider session, on the server and in the browser. */
  const clearSession = (req: Request, res: Response): void => {
    const id = cookiesOf(req)[SESSION_COOKIE];
    if (id === undefined) return;
    sessions.delete(id);
    setCookie(req, res, SESSION_COOKIE, { value: "", sameSite: "lax", maxAge: 0 });
  };
  router.post("/signout", securityHeaders, start, forms, (req, res) => {
    const visit = visitOf(res);
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (!csrf.check(req, body[CSRF_FIELD])) {
      refused(req, 403, "the page's form carries no valid CSRF token");
      return sendFormRefused(res, visit);
    }
    setCookie(req, res, TOKEN_COOKIE, { value: "", maxAge: 0 });
    clearSession(req, res);
    res.redirect(303, "/");
  });

  // A page address whose `%` escapes do not decode (`/skills/lib/%E0%A4%A`) fails while its route is matched,
  // before anyone is identified: the page answers 400 itself, as a page, rather than the JSON-RPC error of a body.
  router.use((error: unknown, req: Request, res: Response, next: NextFunction) => {
    if (!(error instanceof URIError)) return next(error);
    refused(req, 400, "the page's address has a malformed % escape");
    securityHeaders(req, res, () => undefined);
    const frame: Frame = { viewer: null, signIn: offersSignIn(), admin: false, csrf: csrf.formToken(req, res), version: deps.version };
    res
      .status(400)
      .type("text/html")
      .send(
        renderPage(
          frame,
          "Bad request",
          [],
          html`<h1>Bad request</h1>
            <p>This address has a malformed % escape. <a href="/">Start from the libraries</a> or search.</p>`,
        ),
      );
  });
  return router;
}

/** A sign-in under way as sealed by this process, or undefined. */
function pendingSignIn(value: unknown): PendingSignIn | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { state, nonce, verifier } = value as Record<string, unknown>;
  return typeof state === "string" && typeof nonce === "string" && typeof verifier === "string" ? { state, nonce, verifier } : undefined;
}

/** Sees nothing: a visitor without a token where anonymous access is off. */
const NOTHING: ScopeOn = () => NO_SCOPE;

function visitOf(res: Response): Visit {
  return res.locals["visit"] as Visit;
}

function send(res: Response, status: number, visit: Visit, title: string, crumbs: readonly Crumb[], body: Html): void {
  res
    .status(status)
    .type("text/html")
    .send(renderPage(visit.frame, title, crumbs, body));
}

function notFound(res: Response, visit: Visit): void {
  send(
    res,
    404,
    visit,
    "Not found",
    [],
    html`<h1>Not found</h1>
      <p>There is nothing at this address that you can see. <a href="/">Start from the libraries</a> or search.</p>`,
  );
}

function badRequest(res: Response, visit: Visit, message: string): void {
  send(
    res,
    400,
    visit,
    "Bad request",
    [],
    html`<h1>Bad request</h1>
      <p>${message}</p>`,
  );
}

function sendFormRefused(res: Response, visit: Visit): void {
  send(
    res,
    403,
    visit,
    "Form refused",
    [],
    html`<h1>Form refused</h1>
      <p>This form did not come from this page or has expired. Reload the page and send it again.</p>`,
  );
}

function sendSignIn(res: Response, visit: Visit, status: number, message: string | null, access: WebAccess): void {
  if (status === 401) res.set("WWW-Authenticate", "Bearer");
  const provider = access.provider;
  const withProvider =
    provider === undefined
      ? ""
      : html`<p>
            Sign in with your account at ${provider.providerName} to see what your groups may see. This browser then holds only a random
            session id, in a cookie no page script can read; your token stays on this server until it expires or you sign out.
          </p>
          <p><a class="button" href="/signin/oidc">Sign in with ${provider.providerName}</a></p>`;
  const withToken = !access.signIn
    ? ""
    : html`${provider === undefined ? "" : html`<h2>With a client token</h2>`}
        <p>
          Sign in with the token of your client to see what it may see. The token is kept in a cookie of this browser that no page script
          can read, until you sign out or close the browser.
        </p>
        <form class="signin" method="post" action="/signin">
          <input type="hidden" name="${CSRF_FIELD}" value="${visit.frame.csrf}" />
          <label for="token">Token</label>
          <input type="password" id="token" name="token" autocomplete="off" required />
          <p><button type="submit">Sign in</button></p>
        </form>`;
  const body = html`<h1>Sign in</h1>
    ${message === null ? "" : html`<p class="note" role="alert">${message}</p>`} ${withProvider} ${withToken}`;
  send(res, status, visit, "Sign in", [], body);
}

function sendSignInFailed(res: Response, visit: Visit, status: number, message: string): void {
  send(
    res,
    status,
    visit,
    "Sign-in failed",
    [],
    html`<h1>Sign-in failed</h1>
      <p role="alert">${message}</p>
      <p><a href="/signin">Sign in again</a></p>`,
  );
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length <= DESCRIPTION_CHARS ? line : `${line.slice(0, DESCRIPTION_CHARS - 1).trimEnd()}…`;
}

/** A library the viewer sees anything of: one of its served plugins is admitted. */
function shownLibrary(visit: Visit, name: string): LibraryView | null {
  const lib = libraryView(visit.view, name);
  return lib !== null && lib.plugins.length > 0 ? lib : null;
}

function segmentsOf(req: Request): string[] {
  const segments = (req.params as { segments?: string[] }).segments;
  return segments ?? [];
}

function libraryCrumbs(library: string, segments: readonly string[], last: boolean): Crumb[] {
  const crumbs: Crumb[] = [{ label: "Libraries", href: "/" }];
  const all = [library, ...segments];
  all.forEach((segment, i) => {
    const current = last && i === all.length - 1;
    crumbs.push(current ? { label: segment } : { label: segment, href: href("libraries", ...all.slice(0, i + 1)) });
  });
  return crumbs;
}

function libraries(req: Request, res: Response, visit: Visit): void {
  const names = [...visit.shelf.libraries.keys()].sort(compareCodeUnits).filter((name) => shownLibrary(visit, name) !== null);
  const paged = pageOf(names, req.query["page"], PAGE_ROWS);
  if (!paged.ok) return badRequest(res, visit, paged.message);
  let skills = 0;
  for (const name of names) skills += (shownLibrary(visit, name) as LibraryView).skills.size;
  const rows = paged.rows.map((name) => {
    const lib = shownLibrary(visit, name) as LibraryView;
    return html`<li>
      <a href="${href("libraries", name)}">${name}</a> <span class="count">${plural(lib.skills.size, "skill")}</span>
      <span class="what">${oneLine(lib.library.description)}</span>
    </li>`;
  });
  const body = html`<h1>Libraries</h1>
    <p class="lede">
      ${plural(names.length, "library", "libraries")},
      ${plural(skills, "skill")}${visit.viewer === null ? "" : html` visible to <strong>${visit.viewer.name}</strong>`}.
    </p>
    ${
      names.length === 0
        ? html`<p>Nothing is shown here.</p>`
        : html`<ul class="rows">
            ${rows}
          </ul>`
    }
    ${renderPager(paged, "/")}`;
  send(res, 200, visit, "Libraries", [], body);
}

type FolderRow =
  | { readonly kind: "folder"; readonly name: string; readonly count: number }
  | { readonly kind: "skill"; readonly skill: Skill }
  | { readonly kind: "file"; readonly path: string; readonly size: number };

function folder(req: Request, res: Response, visit: Visit): void {
  const library = (req.params as { library: string }).library;
  const segments = segmentsOf(req);
  const lib = shownLibrary(visit, library);
  const key = segments.join("/");
  const node = lib?.folders.get(key);
  if (lib === null || (node === undefined && key !== "")) return notFound(res, visit);
  const rows: FolderRow[] = [];
  for (const child of [...(node?.folders ?? [])].sort(compareCodeUnits)) {
    rows.push({ kind: "folder", name: child, count: lib.folders.get(key === "" ? child : `${key}/${child}`)?.count ?? 0 });
  }
  const skills = [...(node?.skills ?? [])].sort((a, b) => compareCodeUnits(a.address.join("/"), b.address.join("/")));
  for (const skill of skills) rows.push({ kind: "skill", skill });
  if (key === "") for (const file of lib.files) rows.push({ kind: "file", path: file.path, size: file.file.size });
  const paged = pageOf(rows, req.query["page"], PAGE_ROWS);
  if (!paged.ok) return badRequest(res, visit, paged.message);
  const items = paged.rows.map((row) => {
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
  const prompts =
    key === "" && paged.page === 1 ? renderPrompts(visiblePrompts(visit.shelf, visit.view.scope).filter((p) => p.library === library)) : "";
  const body = html`<h1>${title}</h1>
    ${key === "" ? html`<p class="lede">${lib.library.description}</p>` : ""}
    <p>${plural(node?.count ?? 0, "skill")}${key === "" && lib.files.length > 0 ? `, ${plural(lib.files.length, "library file")}` : ""}.</p>
    ${
      rows.length === 0
        ? ""
        : html`<ul class="rows">
            ${items}
          </ul>`
    }
    ${renderPager(paged, href("libraries", library, ...segments))} ${prompts}`;
  send(res, 200, visit, title, libraryCrumbs(library, segments, true), body);
}

function renderPrompts(
  prompts: readonly { name: string; description: string; arguments: readonly { name: string; required: boolean }[] }[],
): Html | string {
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

interface ManifestEntry {
  readonly path: string;
  readonly size: number;
  readonly hash: string;
}

async function skill(req: Request, res: Response, visit: Visit, deps: WebDeps): Promise<void> {
  const library = (req.params as { library: string }).library;
  const segments = segmentsOf(req);
  const lib = shownLibrary(visit, library);
  const found = lib?.skills.get(segments.join("/"));
  if (lib === null || found === undefined) return notFound(res, visit);
  const skillMd = formatSkillMdUri(library, found.address);
  const [text, manifest] = await Promise.all([
    deps.shelf.read(skillMd, visit.scopeOn),
    deps.shelf.read(formatSkillUri(library, [...found.address, MANIFEST_FILE]), visit.scopeOn),
  ]);
  if (!text.ok || !("text" in text) || !manifest.ok || !("text" in manifest)) return notFound(res, visit);
  const files = (JSON.parse(manifest.text) as { files: ManifestEntry[] }).files;
  const paged = pageOf(files, req.query["page"], PAGE_ROWS);
  if (!paged.ok) return badRequest(res, visit, paged.message);
  const filesBase = href("files", library, ...found.address);
  const below = lib.folders.get(found.address.join("/"));
  const fileRows = paged.rows.map(
    (entry) =>
      html`<tr>
        <th scope="row"><a href="${`${filesBase}${href(...entry.path.split("/"))}`}">${entry.path}</a></th>
        <td>${entry.size}</td>
        <td><code class="digest">${entry.hash}</code></td>
      </tr>`,
  );
  const prompts = visiblePrompts(visit.shelf, visit.view.scope).filter((p) => p.library === library && p.plugin === found.plugin);
  const body = html`<h1>${found.name}</h1>
    <p class="lede">${found.description}</p>
    <div class="scroll" tabindex="0">
      <table>
        <caption class="vh">
          About this skill
        </caption>
        <tbody>
          <tr>
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
          </tr>
        </tbody>
      </table>
    </div>
    ${below === undefined ? "" : html`<p>${plural(below.count, "skill")} below this one: <a href="${href("libraries", library, ...found.address)}">browse them</a>.</p>`}
    <article class="skill" aria-label="SKILL.md">${renderSkillMd(text.text, library, found)}</article>
    <h2 id="files">Files</h2>
    <div class="scroll" tabindex="0">
      <table>
        <caption>
          ${plural(files.length, "file")} from the skill's manifest (<a href="${`${filesBase}/${MANIFEST_FILE}`}">${MANIFEST_FILE}</a
          >)
        </caption>
        <thead>
          <tr>
            <th scope="col">Path</th>
            <th scope="col">Bytes</th>
            <th scope="col">Digest</th>
          </tr>
        </thead>
        <tbody>
          ${fileRows}
        </tbody>
      </table>
    </div>
    ${renderPager(paged, href("skills", library, ...found.address))} ${renderPrompts(prompts)}`;
  send(res, 200, visit, found.name, [...libraryCrumbs(library, found.address.slice(0, -1), false), { label: found.name }], body);
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

async function readFile(
  req: Request,
  visit: Visit,
  deps: WebDeps,
): Promise<{ library: string; segments: string[]; outcome: ReadOutcome } | null> {
  const library = (req.params as { library: string }).library;
  const segments = segmentsOf(req);
  if (shownLibrary(visit, library) === null) return null;
  const outcome = await deps.shelf.read(formatSkillUri(library, segments), visit.scopeOn);
  return outcome.ok ? { library, segments, outcome } : null;
}

async function file(req: Request, res: Response, visit: Visit, deps: WebDeps): Promise<void> {
  const read = await readFile(req, visit, deps);
  if (read === null || !read.outcome.ok) return notFound(res, visit);
  const { library, segments, outcome } = read;
  const name = segments.join("/");
  const download = href("raw", library, ...segments);
  let content: Html;
  if ("text" in outcome) {
    const shown = fitText(outcome.text);
    content = html`<p>
        ${outcome.mimeType}, ${plural(Buffer.byteLength(outcome.text, "utf8"), "byte")} · <a href="${download}">Download</a>
      </p>
      ${shown.length < outcome.text.length ? html`<p class="note">Only the first ${plural(shown.length, "character")} are shown; download the file for the rest.</p>` : ""}
      <pre><code>${shown}</code></pre>`;
  } else {
    content = html`<p>A binary file: ${outcome.mimeType}, ${plural(Buffer.from(outcome.blob, "base64").length, "byte")}.</p>
      <p><a href="${download}">Download ${segments[segments.length - 1] ?? ""}</a></p>`;
  }
  const body = html`<h1>${name}</h1>
    <p><code>${outcome.uri}</code></p>
    ${content}`;
  send(res, 200, visit, name, [...libraryCrumbs(library, [], false), { label: name }], body);
}

/** The longest start of `text` whose escaped form stays within TEXT_BYTES. */
function fitText(text: string): string {
  let shown = text;
  for (let bytes = Buffer.byteLength(escapeHtml(shown)); bytes > TEXT_BYTES; bytes = Buffer.byteLength(escapeHtml(shown))) {
    shown = shown.slice(0, Math.floor((shown.length * TEXT_BYTES * 0.9) / bytes));
  }
  return shown;
}

async function raw(req: Request, res: Response, visit: Visit, deps: WebDeps): Promise<void> {
  const read = await readFile(req, visit, deps);
  if (read === null || !read.outcome.ok) return notFound(res, visit);
  const { segments, outcome } = read;
  const bytes = "text" in outcome ? Buffer.from(outcome.text, "utf8") : Buffer.from(outcome.blob, "base64");
  res.attachment(segments[segments.length - 1] ?? "file");
  res.set("Content-Security-Policy", DOWNLOAD_POLICY);
  res.type("text" in outcome ? `${outcome.mimeType}; charset=utf-8` : outcome.mimeType).send(bytes);
}

async function search(req: Request, res: Response, visit: Visit, deps: WebDeps): Promise<void> {
  const q = typeof req.query["q"] === "string" ? req.query["q"].trim() : "";
  const asked = typeof req.query["library"] === "string" ? req.query["library"] : "";
  const names = [...visit.shelf.libraries.keys()]
    .sort(compareCodeUnits)
    .filter((name) => (shownLibrary(visit, name)?.skills.size ?? 0) > 0);
  const options = names.map((name) => html`<option value="${name}" ${name === asked ? html` selected` : ""}>${name}</option>`);
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
  const page = (status: number, results: Html | string): void =>
    send(
      res,
      status,
      visit,
      q === "" ? "Search" : `Search: ${q}`,
      [{ label: "Libraries", href: "/" }, { label: "Search" }],
      html`<h1>Search</h1>
        ${form}${results}`,
    );
  if (q === "") return page(200, html`<p>Search names, descriptions, folders, tags and the text of every skill you can see.</p>`);
  if (q.length > MAX_QUERY_LENGTH)
    return page(400, html`<p role="alert">The search is ${q.length} characters long; the most is ${MAX_QUERY_LENGTH}.</p>`);
  if (asked !== "" && !names.includes(asked))
    return page(400, html`<p role="alert">No library named ${asked} that you can see holds skills.</p>`);
  const outcome = await deps.shelf.search({ query: q, library: asked === "" ? null : asked, limit: SEARCH_ROWS }, visit.scopeOn);
  if (!outcome.ok) return page(400, html`<p role="alert">${outcome.message}</p>`);
  const rows = outcome.rows.map((row) => {
    const parsed = parseSkillUri(row.uri);
    const address = parsed === null ? [] : parsed.segments.slice(0, -1);
    const full = findSkillBySkillMd(visit.shelf, visit.view.scope, row.uri);
    return html`<li>
      <a href="${href("skills", parsed?.library ?? "", ...address)}">${row.name}</a>
      <span class="count">${parsed?.library ?? ""}/${address.join("/")}</span>
      <span class="what">${oneLine(full?.description ?? row.description)}</span>
    </li>`;
  });
  page(
    200,
    html`<h2>${outcome.rows.length === 0 ? "No skill matches" : plural(outcome.rows.length, "result")}</h2>
      ${
        outcome.rows.length === 0
          ? html`<p>Try fewer or other words.</p>`
          : html`<ol class="rows">
              ${rows}
            </ol>`
      }`,
  );
}

function describeScope(ceiling: Ceiling | null): string {
  if (ceiling === null) return "the whole shelf";
  if ("anyOf" in ceiling) {
    if (ceiling.anyOf.length === 0) return "nothing";
    return ceiling.anyOf.some((scope) => describeSpec(scope) === "the whole shelf")
      ? "the whole shelf"
      : ceiling.anyOf.map(describeSpec).join("; and ");
  }
  return describeSpec(ceiling);
}

function describeSpec(scope: ScopeSpec): string {
  const parts = [
    ...(scope.library === undefined ? [] : [`library ${scope.library}`]),
    ...(scope.categories === undefined || scope.categories.length === 0 ? [] : [`categories ${scope.categories.join(" or ")}`]),
    ...(scope.tags === undefined || scope.tags.length === 0 ? [] : [`tags ${scope.tags.join(" or ")}`]),
  ];
  return parts.length === 0 ? "the whole shelf" : parts.join(", ");
}

/** The install section of the connect panel: the skills installer's commands for a base that carries the viewer's
 *  scope — their personal link when signed in, the server itself for anonymous visitors — or why there is none. */
async function installSection(res: Response, visit: Visit, access: WebAccess, origin: string, library: string): Promise<Html> {
  const narrowing = library === "" ? "" : `/libraries/${encodeURIComponent(library)}`;
  const viewer = visit.viewer;
  let base: string | undefined;
  let note: Html;
  if (viewer !== null && access.installLink !== undefined) {
    const link = await access.installLink(viewer);
    base = `${origin}${link.path}${narrowing}`;
    // The link is a credential: no page opened from here learns it, and no cache keeps it.
    res.set("Referrer-Policy", "no-referrer");
    res.set("Cache-Control", "no-store");
    note = html`This link is yours: it installs what <strong>${viewer.name}</strong> may read, without a token, until
      ${link.expires.toISOString().slice(0, 10)}. Keep it private like a token; an admin can revoke it.`;
  } else if (viewer === null) {
    // (The page is open to a visitor without a token only when anonymous callers may read.)
    base = `${origin}${narrowing}`;
    note = html`Installers send no token: these commands install what anonymous callers may read.`;
  } else {
    note = html`Installers send no token, and this server issues no personal install links (the config has no <code>feeds</code>): ask an
      admin for one.`;
  }
  const entries = (base === undefined ? [] : installEntries(base)).map(
    (entry) =>
      html`<section aria-labelledby="${`i-${entry.client.replace(/\W+/g, "-")}`}">
        <h3 id="${`i-${entry.client.replace(/\W+/g, "-")}`}">${entry.client}</h3>
        <p>In ${entry.where}:</p>
        <pre><code>${entry.text}</code></pre>
      </section>`,
  );
  return html`<h2 id="install">Install the skills into your agent</h2>
    <p>
      Most agents load skills from their own folders. The <code>skills</code> installer copies every skill you can
      see${library === "" ? "" : html` in ${library}`} into them, and updates them later. ${note}
    </p>
    ${entries}`;
}

/** The plugin section of the connect panel: the marketplace of the viewer's scope (or of the library asked), with
 *  the plugins they see, and how their credential reaches git. */
async function pluginSection(visit: Visit, access: WebAccess, origin: string, library: string): Promise<Html> {
  const viewer = visit.viewer;
  const link = viewer !== null && access.installLink !== undefined ? await access.installLink(viewer) : undefined;
  const credential = link !== undefined ? "link" : viewer !== null && viewer.signedIn !== true ? "token" : "none";
  const where = `${origin}${link?.path ?? ""}/plugins${library === "" ? "" : `/libraries/${encodeURIComponent(library)}`}/marketplace.json`;
  const ids = new Set<string>();
  for (const name of visit.shelf.libraries.keys()) {
    if (library !== "" && name !== library) continue;
    for (const skill of libraryView(visit.view, name)?.skills.values() ?? []) ids.add(skill.plugin);
  }
  const names = [...new Set([...ids].map(pluginName))].sort(compareCodeUnits);
  const entries = marketplaceEntries(where, library === "" ? SCOPE_MARKETPLACE : libraryMarketplaceName(library), names, credential).map(
    (entry) =>
      html`<section aria-labelledby="${`p-${entry.client.replace(/\W+/g, "-")}`}">
        <h3 id="${`p-${entry.client.replace(/\W+/g, "-")}`}">${entry.client}</h3>
        <p>In ${entry.where}:</p>
        <pre><code>${entry.text}</code></pre>
      </section>`,
  );
  return html`<h2 id="plugins">Install the plugins</h2>
    <p>Each plugin you can see is a read-only git repository on this server, listed by a plugin marketplace.</p>
    ${entries}`;
}

async function connect(req: Request, res: Response, visit: Visit, access: WebAccess): Promise<void> {
  const names = [...visit.shelf.libraries.keys()].sort(compareCodeUnits).filter((name) => shownLibrary(visit, name) !== null);
  const asked = typeof req.query["library"] === "string" ? req.query["library"] : "";
  if (asked !== "" && !names.includes(asked)) return notFound(res, visit);
  const url = new URL("/mcp", `${overTls(req) ? "https" : "http"}://${req.get("host") ?? "localhost"}`);
  if (asked !== "") url.searchParams.set("library", asked);
  const signedIn = visit.viewer !== null;
  // A user signed in with the provider connects by signing in again from the client: no token to paste.
  const withProvider = visit.viewer?.signedIn === true;
  const entries = connectEntries(url.href, signedIn && !withProvider).map(
    (entry) =>
      html`<section aria-labelledby="${`c-${entry.client.replace(/\W+/g, "-")}`}">
        <h2 id="${`c-${entry.client.replace(/\W+/g, "-")}`}">${entry.client}</h2>
        <p>In ${entry.where}:</p>
        <pre><code>${entry.text}</code></pre>
      </section>`,
  );
  const options = names.map((name) => html`<option value="${name}" ${name === asked ? html` selected` : ""}>${name}</option>`);
  const ceiling = visit.viewer?.scope ?? access.anonymousScope ?? null;
  // One personal link per page, for the installer and the plugin marketplace alike.
  const issued = new Map<WebViewer, ReturnType<NonNullable<WebAccess["installLink"]>>>();
  const issue = access.installLink;
  const once: WebAccess =
    issue === undefined
      ? access
      : { ...access, installLink: (viewer) => issued.get(viewer) ?? issued.set(viewer, issue(viewer)).get(viewer)! };
  const body = html`<h1>Connect a client</h1>
    <p>
      This server's MCP endpoint is <code>${url.href}</code>.
      ${
        withProvider
          ? html`You are signed in as <strong>${visit.viewer?.name ?? ""}</strong>, whose ceiling is ${describeScope(ceiling)}. The entries
              send no token: your client meets this server's sign-in challenge and opens the browser to sign you in with the same provider,
              and then sees what you see here.`
          : signedIn
            ? html`You are signed in as <strong>${visit.viewer?.name ?? ""}</strong>, whose ceiling is ${describeScope(ceiling)}; the
                entries send your token, read from the environment variable <code>SKILLSHELF_TOKEN</code> (VS Code asks for it once).`
            : html`You are not signed in, so the entries send no token and see
              ${describeScope(ceiling)}${visit.frame.signIn ? html`; <a href="/signin">sign in</a> for your client's entries` : ""}.`
      }
    </p>
    <form method="get" action="/connect">
      <p>
        <label for="connect-library">Narrow to one library</label>
        <select id="connect-library" name="library">
          <option value="">every library you can see</option>
          ${options}
        </select>
        <button type="submit">Update</button>
      </p>
    </form>
    ${entries} ${await installSection(res, visit, once, url.origin, asked)} ${await pluginSection(visit, once, url.origin, asked)}`;
  send(res, 200, visit, "Connect a client", [{ label: "Libraries", href: "/" }, { label: "Connect" }], body);
}

function status(req: Request, res: Response, visit: Visit, deps: WebDeps): void {
  if (!visit.admin) {
    send(
      res,
      403,
      visit,
      "For admins",
      [],
      html`<h1>For admins</h1>
        <p>The health view is for admin clients.</p>`,
    );
    return;
  }
  const report = buildHealth(visit.shelf);
  const rows = healthRows(report, deps.configErrors?.() ?? []);
  const paged = pageOf(rows, req.query["page"], PAGE_ROWS * 2);
  if (!paged.ok) return badRequest(res, visit, paged.message);
  send(res, 200, visit, "Health", [{ label: "Libraries", href: "/" }, { label: "Health" }], renderHealth(report, paged, rows.length));
}
