// What every response of the page carries, and the two cookies it sets. The policy allows no script at all and
// only this server's stylesheet; no page may be framed. Forms that change state carry a token that must match the
// browser's CSRF cookie (a signed double submit): a page of another site can neither read that cookie nor
// compute the token, and the Origin check of every POST comes on top.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { parseCookie, stringifySetCookie } from "cookie";
import type { NextFunction, Request, Response } from "express";
import { seal, unseal } from "../seal/index.js";

export const CONTENT_SECURITY_POLICY =
  "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** Bytes of a file are served under this policy too: even an HTML or SVG file never runs anything here. */
export const DOWNLOAD_POLICY = `${CONTENT_SECURITY_POLICY}; sandbox`;

export const TOKEN_COOKIE = "skillshelf_token";
/** A browser signed in with the provider: the id of its session on the server. */
export const SESSION_COOKIE = "skillshelf_session";
/** A sign-in with the provider under way: the id of what the callback needs (state, nonce, PKCE verifier). */
export const PENDING_COOKIE = "skillshelf_signin";
export const CSRF_COOKIE = "skillshelf_csrf";
export const CSRF_FIELD = "csrf";

export function securityHeaders(_req: Request, res: Response, next: NextFunction): void {
  res.set({
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    // Not `no-referrer`: under it a browser sends `Origin: null` with the page's own forms, which the Origin check
    // of every POST refuses. `same-origin` still sends nothing to other sites.
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Cache-Control": "no-store",
  });
  next();
}

export function cookiesOf(req: Request): Readonly<Record<string, string | undefined>> {
  const header = req.headers.cookie;
  return header === undefined ? {} : parseCookie(header);
}

interface CookieOptions {
  readonly value: string;
  /** 0 deletes the cookie; absent, it lasts as long as the browser session. */
  readonly maxAge?: number;
  /** `lax` for the cookies the provider's redirect back to this server must carry; else `strict`. */
  readonly sameSite?: "strict" | "lax";
  /** Absent: the whole site. */
  readonly path?: string;
}

/** The request reached us over TLS, or through a proxy that says it did (`X-Forwarded-Proto: https`). Trusting the
 *  header can only add the Secure flag (a cookie a plain-HTTP client then does not send back), never remove it. */
export function overTls(req: Request): boolean {
  const forwarded = req.headers["x-forwarded-proto"];
  const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(",")[0]?.trim().toLowerCase();
  return req.secure || first === "https";
}

/** HttpOnly, SameSite=Strict (unless told Lax), for the whole site (unless told a path); Secure when the request
 *  came over TLS. */
export function setCookie(req: Request, res: Response, name: string, options: CookieOptions): void {
  res.append(
    "Set-Cookie",
    stringifySetCookie({
      name,
      value: options.value,
      httpOnly: true,
      sameSite: options.sameSite ?? "strict",
      path: options.path ?? "/",
      secure: overTls(req),
      ...(options.maxAge === undefined ? {} : { maxAge: options.maxAge }),
    }),
  );
}

/** Signs and checks form tokens. The keys are given by the layer above (derived from the configured tokens, so every
 *  replica of one config accepts the same forms; or the replicas' shared key), and read at each use: a config
 *  reload that changes the clients changes them. The first signs; a token signed by any of them is accepted. */
export class CsrfTokens {
  constructor(private readonly keys: () => readonly Uint8Array[]) {}

  /** The browser's CSRF cookie, set on this response when it has none yet; the form token that goes with it. */
  formToken(req: Request, res: Response): string {
    let nonce = cookiesOf(req)[CSRF_COOKIE];
    if (nonce === undefined || !/^[A-Za-z0-9_-]{43}$/.test(nonce)) {
      nonce = randomBytes(32).toString("base64url");
      setCookie(req, res, CSRF_COOKIE, { value: nonce });
    }
    return sign(this.keys()[0] as Uint8Array, nonce);
  }

  /** True when the form's token was made for this browser's CSRF cookie. */
  check(req: Request, submitted: unknown): boolean {
    const nonce = cookiesOf(req)[CSRF_COOKIE];
    if (nonce === undefined || typeof submitted !== "string") return false;
    const given = Buffer.from(submitted, "utf8");
    return this.keys().some((key) => {
      const expected = Buffer.from(sign(key, nonce), "utf8");
      return expected.length === given.length && timingSafeEqual(expected, given);
    });
  }
}

function sign(key: Uint8Array, nonce: string): string {
  return createHmac("sha256", key).update(nonce, "utf8").digest("base64url");
}

/** What only this server can read or make: a value sealed (AES-256-GCM) into a cookie with the time it expires,
 *  under the first of `keys` (the replicas' shared key when the server has a store, else this process's) and opened
 *  under any of them. A sign-in under way keeps its state, nonce and PKCE verifier this way, in the browser that
 *  started it, so no number of sign-ins started by anyone costs the server memory or pushes out another browser's. */
export class SealedValues {
  constructor(
    private readonly keys: () => readonly Uint8Array[],
    private readonly now: () => number = Date.now,
  ) {}

  seal(value: unknown, until: number): string {
    return seal(this.keys()[0] as Uint8Array, JSON.stringify({ value, until }));
  }

  /** The value sealed in `text` while it lives; undefined when it was not sealed here, was changed, or expired. */
  open(text: string | undefined): unknown {
    if (text === undefined || !/^[A-Za-z0-9_-]{40,4096}$/.test(text)) return undefined;
    for (const key of this.keys()) {
      const plain = unseal(key, text);
      if (plain === undefined) continue;
      try {
        const { value, until } = JSON.parse(plain) as { value: unknown; until: unknown };
        return typeof until === "number" && until > this.now() ? value : undefined;
      } catch {
        return undefined;
      }
    }
    return undefined;
  }
}
