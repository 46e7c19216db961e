// Who is asking (§5.2) and what they may see. Tokens are compared in constant time and never logged or
// echoed; an anonymous request to a server that does not allow it is refused before any MCP processing.
import { createHash, timingSafeEqual } from "node:crypto";
import type { AuthInfo } from "@modelcontextprotocol/server";
import type { NextFunction, Request, Response } from "express";
import { memoize } from "../memo/index.js";
import type { ScopeSpec } from "../config/index.js";
import type { Identity, PageClient, Refusal, ResourceServer } from "../oauth/index.js";

/** A client with its token already read from the environment (by the CLI, the only reader of the environment). */
export interface Client extends Identity {
  readonly token: string;
  readonly scope: ScopeSpec;
}

export interface Access {
  readonly clients: readonly Client[];
  readonly anonymous: boolean;
  /** The ceiling of requests without a token; absent: the whole shelf. */
  readonly anonymousScope?: ScopeSpec;
  /** Signed-in users: a token no static client holds is checked here. */
  readonly oauth?: ResourceServer;
  /** The page for people signs users in with the issuer (`oauth.page`). */
  readonly page?: PageClient;
  /** Each refused OAuth token, for the debug log: who it claims to be and why (never the token). */
  readonly onTokenRefused?: (refusal: Refusal) => void;
}

/** The caller: a static client or a signed-in user, or anonymous (`null`). */
export type Caller = Identity | null;

/** The access a server applies now. A config reload replaces it (anonymous access, its ceiling, the clients and
 *  their ceilings); every request reads the current one, and whoever holds a session or a stream opened under the
 *  previous one hears of the change (`onReplace`). The issuer and the page's client of it stay those of the start. */
export class AccessHolder {
  private value: Access;
  private readonly listeners: ((next: Access, previous: Access) => void)[] = [];

  constructor(initial: Access) {
    this.value = initial;
  }

  get current(): Access {
    return this.value;
  }

  replace(next: Access): void {
    const previous = this.value;
    this.value = next;
    for (const listener of this.listeners) listener(next, previous);
  }

  onReplace(listener: (next: Access, previous: Access) => void): void {
    this.listeners.push(listener);
  }
}

/** A fixed access (tests, a server without reloads) or one a reload replaces. */
export function accessHolderOf(access: Access | AccessHolder): AccessHolder {
  return access instanceof AccessHolder ? access : new AccessHolder(access);
}

/** What `caller` may see under `access`, as one comparable string: `"refused"` when it may not call at all. A
 *  session or stream opened under one grant is closed when a reload changes it. A signed-in user's ceiling comes
 *  from the issuer's rules, which a reload does not change. */
export function grantLabel(access: Access, caller: Caller): string {
  if (caller === null) return access.anonymous ? JSON.stringify({ anonymous: access.anonymousScope ?? null }) : "refused";
  if (!isStaticClient(caller)) return JSON.stringify({ user: caller.scope, admin: caller.admin });
  const client = access.clients.find((candidate) => candidate.token === caller.token);
  return client === undefined ? "refused" : JSON.stringify({ client: client.name, scope: client.scope, admin: client.admin });
}

/** A caller who holds a configured client's token (rather than a user the issuer vouches for). */
export function isStaticClient(caller: Identity): caller is Client {
  return typeof (caller as Partial<Client>).token === "string";
}

const digest = (token: string): Buffer => createHash("sha256").update(token, "utf8").digest();

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

/** The token of an `Authorization: Bearer <token>` header; undefined when the header says something else. The one
 *  statement of the pattern, for /mcp, the page and the plugin routes. */
export function bearerToken(authorization: string): string | undefined {
  return /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization)?.[1];
}

/** Who a request's credential stands for: a caller (`null`: the request sent none), or why it stands for nobody. */
export type Identified =
  | { readonly kind: "caller"; readonly caller: Caller }
  /** The header is not `Bearer <token>` (or whatever else the route reads). */
  | { readonly kind: "malformed" }
  /** A token no client holds, and no issuer to ask. */
  | { readonly kind: "unknown" }
  /** The issuer refused the token. */
  | { readonly kind: "refused"; readonly refusal: Refusal };

/** Each set of clients compared once per set a reload puts in place. */
const clientHolding = memoize(tokenIdentifier);

/** The one identification of a caller, shared by /mcp, the page and the plugin routes: no header is anonymous; a
 *  token a static client holds is that client; any other goes to the issuer, when one is configured. `tokenOf`
 *  reads the token from the header (`Bearer <token>` unless a route also takes another form). Logging a refusal is
 *  the route's to do. */
export async function identifyCaller(
  access: Access,
  authorization: string | undefined,
  tokenOf: (authorization: string) => string | undefined = bearerToken,
): Promise<Identified> {
  if (authorization === undefined) return { kind: "caller", caller: null };
  const token = tokenOf(authorization);
  if (token === undefined) return { kind: "malformed" };
  const client = clientHolding(access.clients)(token);
  if (client !== undefined) return { kind: "caller", caller: client };
  if (access.oauth === undefined) return { kind: "unknown" };
  const checked = await access.oauth.authenticate(token);
  return checked.ok ? { kind: "caller", caller: checked.identity } : { kind: "refused", refusal: checked.refusal };
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
export function authenticate(source: Access | AccessHolder): (req: Request, res: Response, next: NextFunction) => void {
  const holder = accessHolderOf(source);
  return (req, res, next) => {
    const access = holder.current;
    identifyCaller(access, req.headers.authorization).then((identified) => admit(access, identified, req, res, next), next);
  };
}

function admit(access: Access, identified: Identified, req: Request, res: Response, next: NextFunction): void {
  const oauth = access.oauth;
  switch (identified.kind) {
    case "malformed":
      if (oauth === undefined) return unauthorized(res, true);
      return refuseToken(oauth, res, {
        status: 400,
        error: "invalid_request",
        description: "the Authorization header is not Bearer <token>",
      });
    case "unknown":
      return unauthorized(res, true);
    case "refused":
      access.onTokenRefused?.(identified.refusal);
      return oauth === undefined ? unauthorized(res, true) : refuseToken(oauth, res, identified.refusal);
    case "caller":
      if (identified.caller === null && !access.anonymous) return oauth === undefined ? unauthorized(res, false) : refuseToken(oauth, res);
      (req as WithCaller)[CALLER] = identified.caller;
      next();
  }
}

/** RFC 6750: the challenge names the resource metadata so a client can find where to sign in. */
function refuseToken(oauth: ResourceServer, res: Response, refusal?: Refusal): void {
  res.status(refusal?.status ?? 401).set("WWW-Authenticate", oauth.challenge(refusal));
  if (refusal?.status === 503) res.set("Retry-After", "30");
  res.json(
    refusal === undefined
      ? { error: "unauthorized", error_description: "this server requires a bearer token: its resource metadata names where to sign in" }
      : { error: refusal.error, error_description: refusal.description },
  );
}

/** The operator's routes: open when no clients and no issuer are declared and anonymous callers have no ceiling
 *  (the report and the page show the whole shelf, so they would see past it), else an admin's only (a client with
 *  `admin: true`, or a user an admin rule matches). */
export function requireAdmin(source: Access | AccessHolder): (req: Request, res: Response, next: NextFunction) => void {
  const holder = accessHolderOf(source);
  return (req, res, next) => {
    const access = holder.current;
    if (access.clients.length === 0 && access.anonymousScope === undefined && access.oauth === undefined) return next();
    const caller = callerOf(req);
    if (caller === null) return access.oauth === undefined ? unauthorized(res, false) : refuseToken(access.oauth, res);
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
