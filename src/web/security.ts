// What every response of the page carries, and the two cookies it sets. The policy allows no script at all and
// only this server's stylesheet; no page may be framed. Forms that change state carry a token that must match the
// browser's CSRF cookie (a signed double submit): a page of another site can neither read that cookie nor
// compute the token, and the Origin check of every POST comes on top.
import { createCipheriv, createDecipheriv, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { parseCookie, stringifySetCookie } from "cookie";
import type { NextFunction, Request, Response } from "express";

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

/** Signs and checks form tokens. The key is given by the layer above (derived from the configured tokens, so every
 *  replica of one config accepts the same forms), and read at each use: a config reload that changes the clients
 *  changes it. */
export class CsrfTokens {
  constructor(private readonly key: () => Uint8Array) {}

  /** The browser's CSRF cookie, set on this response when it has none yet; the form token that goes with it. */
  formToken(req: Request, res: Response): string {
    let nonce = cookiesOf(req)[CSRF_COOKIE];
    if (nonce === undefined || !/^[A-Za-z0-9_-]{43}$/.test(nonce)) {
      nonce = randomBytes(32).toString("base64url");
      setCookie(req, res, CSRF_COOKIE, { value: nonce });
    }
    return this.sign(nonce);
  }

  /** True when the form's token was made for this browser's CSRF cookie. */
  check(req: Request, submitted: unknown): boolean {
    const nonce = cookiesOf(req)[CSRF_COOKIE];
    if (nonce === undefined || typeof submitted !== "string") return false;
    const expected = Buffer.from(this.sign(nonce), "utf8");
    const given = Buffer.from(submitted, "utf8");
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  private sign(nonce: string): string {
    return createHmac("sha256", this.key()).update(nonce, "utf8").digest("base64url");
  }
}

/** What only this process can read or make: a value sealed (AES-256-GCM) into a cookie with the time it expires.
 *  A sign-in under way keeps its state, nonce and PKCE verifier this way, in the browser that started it, so no
 *  number of sign-ins started by anyone costs the server memory or pushes out another browser's. */
export class SealedValues {
  private readonly key = randomBytes(32);

  constructor(private readonly now: () => number = Date.now) {}

  seal(value: unknown, until: number): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    const sealed = Buffer.concat([cipher.update(JSON.stringify({ value, until }), "utf8"), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64url");
  }

  /** The value sealed in `text` while it lives; undefined when it was not sealed here, was changed, or expired. */
  open(text: string | undefined): unknown {
    if (text === undefined || !/^[A-Za-z0-9_-]{40,4096}$/.test(text)) return undefined;
    const bytes = Buffer.from(text, "base64url");
    try {
      const decipher = createDecipheriv("aes-256-gcm", this.key, bytes.subarray(0, 12));
      decipher.setAuthTag(bytes.subarray(12, 28));
      const plain = Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString("utf8");
      const { value, until } = JSON.parse(plain) as { value: unknown; until: unknown };
      return typeof until === "number" && until > this.now() ? value : undefined;
    } catch {
      return undefined;
    }
  }
}
