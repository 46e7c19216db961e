// Mounts the page for people (web/) with what only this layer knows: the clients and their tokens.
import { createHash } from "node:crypto";
import type { Express } from "express";
import type { ConfigError } from "../config/index.js";
import type { ServerDeps } from "../mcp/index.js";
import { StoredSessions } from "../store/index.js";
import {
  createWebRouter,
  ExpiringStore,
  MAX_SESSIONS,
  parsePageSession,
  type PageSession,
  type WebAccess,
  type WebIdentified,
} from "../web/index.js";
import { type Access, AccessHolder, accessHolderOf, identifyCaller, isStaticClient, tokenIdentifier } from "./access.js";
import type { OnRefused } from "./bad-requests.js";
import type { FeedTokens } from "./feeds.js";
import { PAGE_CLIENT, type UsageTap } from "./usage.js";

/** What the page needs of `access`, derived once per access a reload puts in place: each property reads the
 *  current one. */
export function webAccess(source: Access | AccessHolder, feeds?: FeedTokens): WebAccess {
  const holder = accessHolderOf(source);
  const derived = new WeakMap<Access, WebAccess>();
  const now = (): WebAccess => {
    const access = holder.current;
    let web = derived.get(access);
    if (web === undefined) {
      web = deriveWebAccess(access, feeds);
      derived.set(access, web);
    }
    return web;
  };
  return {
    identify: (token) => now().identify(token),
    get signIn() {
      return now().signIn;
    },
    identifyHeader: (authorization) => now().identifyHeader(authorization),
    get provider() {
      return now().provider;
    },
    get anonymous() {
      return now().anonymous;
    },
    get anonymousScope() {
      return now().anonymousScope;
    },
    get openHealth() {
      return now().openHealth;
    },
    get installLink() {
      return now().installLink;
    },
    formKeys: (sealKeys) => now().formKeys(sealKeys),
  };
}

function deriveWebAccess(access: Access, feeds: FeedTokens | undefined): WebAccess {
  const identify = tokenIdentifier(access.clients);
  // Form tokens are signed with a key derived from every client token: the same on every replica of one config,
  // and nothing anyone without a token can compute. Signing in with the provider and no client token: derived from
  // the sessions' keys (the replicas' shared key in the store, else this process's).
  const formKey = createHash("sha256").update("skillshelf page forms");
  for (const client of access.clients) formKey.update("\0").update(client.token, "utf8");
  const tokenKey = formKey.digest();
  const keyed = access.page !== undefined && access.clients.length === 0;
  const derivedKeys = new WeakMap<readonly Uint8Array[], readonly Uint8Array[]>();
  return {
    identify: (token) => {
      const client = identify(token);
      return client === undefined ? undefined : { name: client.name, scope: client.scope, admin: client.admin };
    },
    signIn: access.clients.length > 0,
    identifyHeader: (authorization) => identifyHeader(access, authorization),
    ...(access.page === undefined ? {} : { provider: access.page }),
    anonymous: access.anonymous,
    ...(access.anonymousScope === undefined ? {} : { anonymousScope: access.anonymousScope }),
    // An issuer makes the server private like clients do: its health view then needs an admin.
    openHealth: access.clients.length === 0 && access.anonymousScope === undefined && access.oauth === undefined,
    ...(feeds === undefined
      ? {}
      : {
          installLink: async (viewer) => {
            const issued = await feeds.issue({ name: viewer.name, scope: viewer.scope, user: viewer.signedIn === true });
            return { path: `/feeds/${issued.token}`, expires: issued.expires };
          },
        }),
    formKeys: (sealKeys) => {
      if (!keyed) return [tokenKey];
      let keys = derivedKeys.get(sealKeys);
      if (keys === undefined) {
        keys = sealKeys.map((key) => createHash("sha256").update("skillshelf page forms\0").update(key).digest());
        derivedKeys.set(sealKeys, keys);
      }
      return keys;
    },
  };
}

/** An `Authorization` header sent to the page, identified exactly as on /mcp. A refusal is logged once, by the page,
 *  with its reason. */
async function identifyHeader(access: Access, authorization: string): Promise<WebIdentified> {
  const identified = await identifyCaller(access, authorization);
  switch (identified.kind) {
    case "malformed":
      return { ok: false, reason: "the Authorization header is not Bearer <token>" };
    case "unknown":
      return { ok: false, reason: "the bearer token is not valid" };
    case "refused":
      return { ok: false, reason: identified.refusal.description };
    case "caller": {
      const caller = identified.caller;
      if (caller === null) return { ok: true, viewer: null };
      const viewer = isStaticClient(caller)
        ? { name: caller.name, scope: caller.scope, admin: caller.admin }
        : { ...caller, signedIn: true };
      return { ok: true, viewer };
    }
  }
}

export interface WebMount {
  readonly access: Access | AccessHolder;
  readonly configErrors?: (() => readonly ConfigError[]) | undefined;
  readonly onRefused?: OnRefused;
  readonly feeds?: FeedTokens;
  /** Counts what the page serves (surface `page`, client `page`). */
  readonly usage?: UsageTap;
}

/** The page's routes, ahead of the bearer check of the other routes: a browser signs in through a form and a cookie. */
export function mountWeb(app: Express, deps: ServerDeps, mount: WebMount): void {
  app.use(
    createWebRouter({
      shelf: mount.usage === undefined ? deps.shelf : mount.usage.counting(deps.shelf, "page", PAGE_CLIENT),
      access: webAccess(mount.access, mount.feeds),
      version: deps.version,
      ...(mount.usage === undefined
        ? {}
        : {
            usage: mount.usage.pageReader(),
            // Signed-in sessions live in the same store as the counts: kept over a restart, shared by replicas.
            sessions: new StoredSessions<PageSession>(mount.usage.store, new ExpiringStore<PageSession>(MAX_SESSIONS), {
              parse: parsePageSession,
            }),
          }),
      ...(mount.configErrors === undefined ? {} : { configErrors: mount.configErrors }),
      ...(mount.onRefused === undefined ? {} : { onRefused: mount.onRefused }),
    }),
  );
}
