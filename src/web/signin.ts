// Signing in and out of the page: with a client's token (a form, kept in an HttpOnly cookie), or with the provider
// (the authorization code flow with PKCE: a link sends the browser here, and here to the provider with a fresh
// state, nonce and PKCE verifier, sealed into a cookie that only the callback path sees — nothing is kept on the
// server, so no flood of sign-ins started elsewhere can push this browser's out; sealed under the replicas' shared
// key when the server has a store, so the provider's redirect back may reach any replica). SameSite=Lax for the provider's
// cookies: its redirect back is a top-level navigation from another site, which a Strict cookie would miss.
import type { PendingSignIn } from "../oauth/index.js";
import { cookiesOf, CSRF_FIELD, PENDING_COOKIE, SESSION_COOKIE, setCookie, TOKEN_COOKIE } from "./security.js";
import { clearSession, formField, notFound, type PageCall, send, sendSignIn } from "./visit.js";
import { formRefusedView, signInFailedView } from "./views/messages.js";

/** A sign-in must come back from the provider within this time. */
const PENDING_MS = 10 * 60_000;

export interface SignIn {
  show(call: PageCall): void;
  withToken(call: PageCall): Promise<void>;
  withProvider(call: PageCall): Promise<void>;
  callback(call: PageCall): Promise<void>;
  signOut(call: PageCall): Promise<void>;
}

export function signIn(): SignIn {
  return {
    show: (call) => {
      if (!call.context.offersSignIn()) return notFound(call);
      sendSignIn(call, 200, null);
    },
    withToken: async (call) => {
      const { req, res, context } = call;
      const access = context.deps.access;
      if (!access.signIn) return notFound(call);
      if (!context.csrf.check(req, formField(req, CSRF_FIELD))) return refuseForm(call);
      const field = formField(req, "token");
      const token = typeof field === "string" ? field.trim() : "";
      const viewer = token === "" ? undefined : access.identify(token);
      if (viewer === undefined) {
        context.refused(req, 401, "sign-in with a token no client holds");
        return sendSignIn(call, 401, "That token is not valid. Paste the token your operator gave you.");
      }
      await clearSession(context, req, res);
      setCookie(req, res, TOKEN_COOKIE, { value: token });
      res.redirect(303, "/");
    },
    withProvider: async (call) => {
      const { req, res, context } = call;
      const provider = context.provider;
      if (provider === undefined) return notFound(call);
      const started = await provider.begin();
      if (!started.ok) {
        context.refused(req, 503, `sign-in with the provider: ${started.reason}`);
        return send(res, 503, call.visit, signInFailedView("The sign-in provider cannot be reached right now. Try again in a minute."));
      }
      // Sealed under the replicas' shared key when there is one, so the provider's redirect back may reach any.
      await context.sessions.ready();
      const sealed = context.sealed.seal(started.pending, Date.now() + PENDING_MS);
      setCookie(req, res, PENDING_COOKIE, { value: sealed, sameSite: "lax", path: "/signin/oidc", maxAge: PENDING_MS / 1000 });
      res.redirect(303, started.url);
    },
    callback: async (call) => {
      const { req, res, context } = call;
      const provider = context.provider;
      if (provider === undefined) return notFound(call);
      await context.sessions.ready();
      const started = pendingSignIn(context.sealed.open(cookiesOf(req)[PENDING_COOKIE]));
      setCookie(req, res, PENDING_COOKIE, { value: "", sameSite: "lax", path: "/signin/oidc", maxAge: 0 });
      if (started === undefined) {
        context.refused(
          req,
          400,
          "sign-in with the provider: no sign-in of this browser is under way (not started here, used, or expired)",
        );
        const message = "This sign-in was not started in this browser, was already used, or took longer than 10 minutes.";
        return send(res, 400, call.visit, signInFailedView(message));
      }
      const query = new URL(req.originalUrl, "http://page.invalid").search;
      const result = await provider.complete(new URL(`http://page.invalid/${query}`), started);
      if (!result.ok) {
        const status = result.refusal?.status ?? (result.unavailable === true ? 503 : 401);
        context.refused(req, status, `sign-in with the provider: ${result.reason}`);
        return send(res, status, call.visit, signInFailedView(`The sign-in did not succeed: ${result.reason}.`));
      }
      const expiresAt = (result.identity.signedIn?.expiresAt ?? 0) * 1000;
      // A new id at every sign-in: an id a browser held before never becomes a signed-in one.
      await context.sessions.delete(cookiesOf(req)[SESSION_COOKIE]);
      const id = await context.sessions.add({ accessToken: result.accessToken, displayName: result.displayName }, expiresAt);
      const maxAge = Math.max(0, Math.floor((expiresAt - Date.now()) / 1000));
      setCookie(req, res, SESSION_COOKIE, { value: id, sameSite: "lax", maxAge });
      if (cookiesOf(req)[TOKEN_COOKIE] !== undefined) setCookie(req, res, TOKEN_COOKIE, { value: "", maxAge: 0 });
      res.redirect(303, "/");
    },
    signOut: async (call) => {
      const { req, res, context } = call;
      if (!context.csrf.check(req, formField(req, CSRF_FIELD))) return refuseForm(call);
      setCookie(req, res, TOKEN_COOKIE, { value: "", maxAge: 0 });
      await clearSession(context, req, res);
      res.redirect(303, "/");
    },
  };
}

function refuseForm(call: PageCall): void {
  call.context.refused(call.req, 403, "the page's form carries no valid CSRF token");
  send(call.res, 403, call.visit, formRefusedView());
}

/** A sign-in under way as sealed by this process, or undefined. */
function pendingSignIn(value: unknown): PendingSignIn | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const state: unknown = Reflect.get(value, "state");
  const nonce: unknown = Reflect.get(value, "nonce");
  const verifier: unknown = Reflect.get(value, "verifier");
  return typeof state === "string" && typeof nonce === "string" && typeof verifier === "string" ? { state, nonce, verifier } : undefined;
}
