// Who is asking (§5.2) and what they may see. Tokens are compared in constant time and never logged or
// echoed; an anonymous request to a server that does not allow it is refused before any MCP processing.
import { createHash, timingSafeEqual } from "node:crypto";
import type { AuthInfo } from "@modelcontextprotocol/server";
import type { NextFunction, Request, Response } from "express";
import type { ScopeSpec } from "../config/index.js";

/** A client with its token already read from the environment (by the CLI, the only reader of the environment). */
export interface Client {
  readonly name: string;
  readonly token: string;
  readonly scope: ScopeSpec;
  readonly admin: boolean;
}

export interface Access {
  readonly clients: readonly Client[];
  readonly anonymous: boolean;
  /** The ceiling of requests without a token; absent: the whole shelf. */
  readonly anonymousScope?: ScopeSpec;
}

/** The caller: a client, or anonymous (`null`). */
export type Caller = Client | null;

const digest = (token: string): Buffer => createHash("sha256").update(token, "utf8").digest();

interface Authenticator {
  /** `undefined` when the header carries a token no client holds. */
  identify(authorization: string | undefined): Caller | undefined;
}

/** The client holding a token, or undefined. Every client is compared, so the time taken does not say which one
 *  (or whether any) matched. */
export function tokenIdentifier(clients: readonly Client[]): (token: string) => Client | undefined {
  const hashed = clients.map((client) => ({ client, hash: digest(client.token) }));
  return (token) => {
    const presented = digest(token);
    let found: Client | undefined;
    for (const { client, hash } of hashed) if (timingSafeEqual(hash, presented)) found = client;
    return found;
  };
}

function createAuthenticator(clients: readonly Client[]): Authenticator {
  const identify = tokenIdentifier(clients);
  return {
    identify(authorization) {
      if (authorization === undefined) return null;
      const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization);
      if (match === null) return undefined;
      return identify(match[1] as string);
    },
  };
}

const CALLER = Symbol("skillshelf.caller");
type WithCaller = Request & { [CALLER]?: Caller };

export function callerOf(req: Request): Caller {
  return (req as WithCaller)[CALLER] ?? null;
}

function unauthorized(res: Response, invalid: boolean): void {
  res
    .status(401)
    .set("WWW-Authenticate", invalid ? 'Bearer error="invalid_token"' : "Bearer")
    .json({ error: invalid ? "the bearer token is not valid" : "this server requires a bearer token" });
}

/** Identifies the caller on every route; refuses a bad token, and no token when anonymous access is off. */
export function authenticate(access: Access): (req: Request, res: Response, next: NextFunction) => void {
  const authenticator = createAuthenticator(access.clients);
  return (req, res, next) => {
    const caller = authenticator.identify(req.headers.authorization);
    if (caller === undefined) return unauthorized(res, true);
    if (caller === null && !access.anonymous) return unauthorized(res, false);
    (req as WithCaller)[CALLER] = caller;
    next();
  };
}

/** The operator's routes: open when no clients are declared and anonymous callers have no ceiling (the report
 *  and the page show the whole shelf, so they would see past it), else an admin client's only. */
export function requireAdmin(access: Access): (req: Request, res: Response, next: NextFunction) => void {
  return (req, res, next) => {
    if (access.clients.length === 0 && access.anonymousScope === undefined) return next();
    const caller = callerOf(req);
    if (caller === null) return unauthorized(res, false);
    if (!caller.admin) {
      res.status(403).json({ error: "this endpoint is for admin clients" });
      return;
    }
    next();
  };
}

/** How the compiled request view reaches the MCP server factory: through the SDK's auth pass-through. */
export function formatAuthInfo(caller: Caller, extra: Record<string, unknown>): AuthInfo {
  return { token: "", clientId: caller?.name ?? "anonymous", scopes: [], extra };
}
