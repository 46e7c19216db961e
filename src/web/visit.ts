// The frame of one request to a page, typed from start to end: who is viewing — identified once, by an
// `Authorization` header exactly as on /mcp, else by the provider's session, else by the token cookie — what their
// scope sees of the shelf the request started on, and what the page's frame shows. A route's handler is given it as
// an argument (`PageCall`); nothing is stored on the response to be read back.
import type { Request, Response } from "express";
import type { PageClient } from "../oauth/index.js";
import { NO_SCOPE, type ScopeOn, scopeOn, type ShelfView, viewOf } from "../resolve/index.js";
import type { Shelf } from "../shelf/index.js";
import type { WebDeps, WebIdentified, WebViewer } from "./deps.js";
import { type Frame, renderPage } from "./layout.js";
import { cookiesOf, CsrfTokens, SealedValues, SESSION_COOKIE, setCookie, TOKEN_COOKIE } from "./security.js";
import { MAX_SESSIONS, MemorySessions, type PageSession, type SessionKeeper } from "./sessions.js";
import { badRequestView, notFoundView } from "./views/messages.js";
import type { PageView } from "./views/parts.js";
import { signInView } from "./views/signin.js";

export interface Visit {
  readonly viewer: WebViewer | null;
  readonly admin: boolean;
  readonly scopeOn: ScopeOn;
  /** The shelf this request started on, and what the viewer's scope sees of it. */
  readonly shelf: Shelf;
  readonly view: ShelfView;
  readonly frame: Frame;
}

/** What every route of one router shares. */
export interface PageContext {
  readonly deps: WebDeps;
  readonly csrf: CsrfTokens;
  readonly sessions: SessionKeeper<PageSession>;
  /** Seals what a browser carries for the server (a sign-in under way) under the sessions' keys. */
  readonly sealed: SealedValues;
  /** The provider of the start (clients come and go with a config reload; the provider does not). */
  readonly provider: PageClient | undefined;
  /** Clients are declared, or a provider is: the page offers to sign in. */
  offersSignIn(): boolean;
  /** Names a refused request once (the log). */
  refused(req: Request, status: number, reason: string): void;
}

/** One request to a page route, as its handler is given it. */
export interface PageCall {
  readonly req: Request;
  readonly res: Response;
  readonly visit: Visit;
  readonly context: PageContext;
}

export function pageContext(deps: WebDeps): PageContext {
  const provider = deps.access.provider;
  const sessions = deps.sessions ?? new MemorySessions<PageSession>(MAX_SESSIONS);
  return {
    deps,
    csrf: new CsrfTokens(() => deps.access.formKeys(sessions.sealKeys())),
    sessions,
    sealed: new SealedValues(() => sessions.sealKeys()),
    provider,
    offersSignIn: () => deps.access.signIn || provider !== undefined,
    refused: (req, status, reason) => deps.onRefused?.(reason, { status, method: req.method, path: req.path }),
  };
}

/** An `Authorization` header wins (a script or a proxy), then the provider's session, then the token cookie. A stale
 *  session or token cookie is no viewer (and is cleared by `visitOf`). */
export async function identify(context: PageContext, req: Request): Promise<WebIdentified> {
  const access = context.deps.access;
  const header = req.headers.authorization;
  if (header !== undefined) return access.identifyHeader(header);
  const cookies = cookiesOf(req);
  const provider = context.provider;
  const session = provider === undefined ? undefined : await context.sessions.get(cookies[SESSION_COOKIE]);
  if (session !== undefined && provider !== undefined) {
    // Checked again on every view, exactly as /mcp checks every request (the identity is remembered per token).
    const checked = await provider.check(session.accessToken);
    if (checked.ok) return { ok: true, viewer: { ...checked.identity, name: session.displayName, signedIn: true } };
    await context.sessions.delete(cookies[SESSION_COOKIE]);
    context.refused(req, checked.refusal.status, `a signed-in session's token was refused: ${checked.refusal.description}`);
    return { ok: true, viewer: null };
  }
  const token = access.signIn ? cookies[TOKEN_COOKIE] : undefined;
  return { ok: true, viewer: token === undefined || token === "" ? null : (access.identify(token) ?? null) };
}

/** Sees nothing: a visitor without a token where anonymous access is off. */
const NOTHING: ScopeOn = () => NO_SCOPE;

/** The visit of a request identified as `identified`, or null when it has been answered already: a credential that
 *  names nobody, or a visitor without one where the server shows nothing to anonymous callers (the sign-in page). */
export function visitOf(context: PageContext, req: Request, res: Response, identified: WebIdentified): Visit | null {
  const deps = context.deps;
  if (!identified.ok) {
    // A bearer header no client holds and the issuer refuses: refused as on every other route. A stale cookie is
    // dropped instead.
    context.refused(req, 401, identified.reason);
    res.status(401).set("WWW-Authenticate", 'Bearer error="invalid_token"').type("text/plain").send("the bearer token is not valid");
    return null;
  }
  const viewer = identified.viewer;
  const cookies = cookiesOf(req);
  if (viewer === null && cookies[TOKEN_COOKIE] !== undefined) setCookie(req, res, TOKEN_COOKIE, { value: "", maxAge: 0 });
  if (viewer === null && cookies[SESSION_COOKIE] !== undefined) void clearSession(context, req, res);
  const shelf = deps.shelf.current;
  const ceiling = viewer?.scope ?? deps.access.anonymousScope ?? null;
  const on = viewer === null && !deps.access.anonymous ? NOTHING : scopeOn(ceiling, {});
  const query = queryText(req, "q");
  const visit: Visit = {
    viewer,
    admin: deps.access.openHealth || viewer?.admin === true,
    scopeOn: on,
    shelf,
    view: viewOf(shelf, on(shelf)),
    frame: {
      viewer: viewer?.name ?? null,
      signIn: context.offersSignIn(),
      admin: deps.access.openHealth || viewer?.admin === true,
      csrf: context.csrf.formToken(req, res),
      version: deps.version,
      ...(query === undefined ? {} : { query }),
    },
  };
  if (viewer === null && !deps.access.anonymous && !req.path.startsWith("/signin")) {
    sendSignIn({ req, res, visit, context }, 401, "This server shows its skills to signed-in clients only.");
    return null;
  }
  return visit;
}

/** Drop this browser's provider session, on the server and in the browser. */
export async function clearSession(context: PageContext, req: Request, res: Response): Promise<void> {
  const id = cookiesOf(req)[SESSION_COOKIE];
  if (id === undefined) return;
  setCookie(req, res, SESSION_COOKIE, { value: "", sameSite: "lax", maxAge: 0 });
  await context.sessions.delete(id);
}

/** A query parameter given once, as text. */
export function queryText(req: Request, name: string): string | undefined {
  const value: unknown = req.query[name];
  return typeof value === "string" ? value : undefined;
}

/** The library named in the page's address. */
export function libraryParam(req: Request): string {
  const value = req.params["library"];
  return typeof value === "string" ? value : "";
}

/** The path segments after the library in the page's address (none for a library's own page). */
export function segmentsParam(req: Request): string[] {
  const value = req.params["segments"];
  return Array.isArray(value) ? value : [];
}

/** A field of the form posted to this route (undefined when absent, or when the body is no form). */
export function formField(req: Request, name: string): unknown {
  const body: unknown = req.body;
  return typeof body === "object" && body !== null ? Reflect.get(body, name) : undefined;
}

export function send(res: Response, status: number, visit: Visit, view: PageView): void {
  res
    .status(status)
    .type("text/html")
    .send(renderPage(visit.frame, view.title, view.crumbs, view.body));
}

export function notFound(call: PageCall): void {
  send(call.res, 404, call.visit, notFoundView());
}

export function badRequest(call: PageCall, message: string): void {
  send(call.res, 400, call.visit, badRequestView(message));
}

export function sendSignIn(call: PageCall, status: number, message: string | null): void {
  if (status === 401) call.res.set("WWW-Authenticate", "Bearer");
  const access = call.context.deps.access;
  const view = signInView({ message, providerName: access.provider?.providerName, tokenForm: access.signIn, csrf: call.visit.frame.csrf });
  send(call.res, status, call.visit, view);
}
