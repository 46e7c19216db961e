// The page for people at `/`: every route it answers is listed once, in ROUTES, with its method and handler. A page
// route identifies its viewer first (visit.ts) and hands its handler a typed `PageCall`; each handler gathers what
// its view needs through the viewer's scope, and a view (views/) turns that data into HTML.
import express, { type NextFunction, type Request, type RequestHandler, type Response, type Router } from "express";
import { file, folder, libraries, raw, skill } from "./browse.js";
import type { WebDeps } from "./deps.js";
import type { Frame } from "./layout.js";
import { renderPage } from "./layout.js";
import { connect, search, status } from "./panels.js";
import { securityHeaders } from "./security.js";
import { signIn } from "./signin.js";
import { STYLESHEET } from "./style.js";
import { usage } from "./usage.js";
import { identify, type PageCall, type PageContext, pageContext, visitOf } from "./visit.js";
import { malformedAddressView } from "./views/messages.js";

/** A route of the page: a page (the viewer identified, the page's headers set; `form`: a posted form is read after
 *  the viewer is known), or a static asset (no viewer). */
type PageRoute =
  | {
      readonly method: "get" | "post";
      readonly path: string;
      readonly form?: true;
      readonly page: (call: PageCall) => void | Promise<void>;
    }
  | { readonly method: "get"; readonly path: string; readonly asset: (res: Response) => void };

function routes(): readonly PageRoute[] {
  const signin = signIn();
  // Each route names its path exactly: `router.use("/")` would match every path of the server.
  return [
    { method: "get", path: "/assets/style.css", asset: stylesheet },
    // Browsers ask for it on every site; there is none, and a 404 would be a JSON-RPC error.
    { method: "get", path: "/favicon.ico", asset: (res) => void res.set("Cache-Control", "public, max-age=86400").status(204).end() },
    { method: "get", path: "/", page: libraries },
    { method: "get", path: "/libraries/:library{/*segments}", page: folder },
    { method: "get", path: "/skills/:library/*segments", page: skill },
    { method: "get", path: "/files/:library/*segments", page: file },
    { method: "get", path: "/raw/:library/*segments", page: raw },
    { method: "get", path: "/search", page: search },
    { method: "get", path: "/connect", page: connect },
    { method: "get", path: "/status", page: status },
    { method: "get", path: "/status/usage", page: usage },
    { method: "get", path: "/signin", page: signin.show },
    { method: "post", path: "/signin", form: true, page: signin.withToken },
    { method: "get", path: "/signin/oidc", page: signin.withProvider },
    { method: "get", path: "/signin/oidc/callback", page: signin.callback },
    { method: "post", path: "/signout", form: true, page: signin.signOut },
  ];
}

function stylesheet(res: Response): void {
  res.set({ "X-Content-Type-Options": "nosniff", "Cache-Control": "public, max-age=3600" }).type("text/css").send(STYLESHEET);
}

export function createWebRouter(deps: WebDeps): Router {
  const router = express.Router();
  const context = pageContext(deps);
  const forms = express.urlencoded({ extended: false, limit: "8kb", parameterLimit: 10 });
  for (const route of routes()) {
    const handlers: RequestHandler[] =
      "asset" in route
        ? [(_req, res) => route.asset(res)]
        : [securityHeaders, pageHandler(context, route.form === true ? forms : null, route.page)];
    if (route.method === "get") router.get(route.path, ...handlers);
    else router.post(route.path, ...handlers);
  }
  // A page address whose `%` escapes do not decode (`/skills/lib/%E0%A4%A`) fails while its route is matched,
  // before anyone is identified: the page answers 400 itself, as a page, rather than the JSON-RPC error of a body.
  router.use((error: unknown, req: Request, res: Response, next: NextFunction) => {
    if (!(error instanceof URIError)) return next(error);
    context.refused(req, 400, "the page's address has a malformed % escape");
    securityHeaders(req, res, () => undefined);
    const frame: Frame = {
      viewer: null,
      signIn: context.offersSignIn(),
      admin: false,
      csrf: context.csrf.formToken(req, res),
      version: deps.version,
    };
    const view = malformedAddressView();
    res
      .status(400)
      .type("text/html")
      .send(renderPage(frame, view.title, view.crumbs, view.body));
  });
  return router;
}

/** Identifies the viewer, reads the posted form when the route takes one, and hands the handler its call. */
function pageHandler(context: PageContext, forms: RequestHandler | null, page: (call: PageCall) => void | Promise<void>): RequestHandler {
  return (req, res, next) => {
    identify(context, req)
      .then(async (identified) => {
        const visit = visitOf(context, req, res, identified);
        if (visit === null) return;
        if (forms !== null) {
          const failed = await new Promise<unknown>((resolve) => void forms(req, res, resolve));
          if (failed !== undefined) throw failed;
        }
        await page({ req, res, visit, context });
      })
      .catch(next);
  };
}
