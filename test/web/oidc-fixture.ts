// The page's sign-in against a real OpenID provider (oidc-provider on loopback): the web fixture's shelf served by the
// real HTTP app with its static clients and an `oauth:` section whose page client the provider registers, users whose
// groups map to `pub` (alice), `secret` (bob), everything and admin (root), and nothing (eve).
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { loadConfig, type Config } from "../../src/config/index.js";
import { createHttpApp } from "../../src/http/app.js";
import type { SessionOptions } from "../../src/http/sessions.js";
import { UsageTap } from "../../src/http/usage.js";
import { ContentCache, ShelfReader, ShelfService } from "../../src/live/index.js";
import { PageClient, ResourceServer, type Refusal } from "../../src/oauth/index.js";
import type { UsageStore } from "../../src/store/index.js";
import { PAGE_CLIENT, startProvider, type OpenIdProvider } from "../support/oidc.js";
import { CLIENTS, writeWebShelf } from "./fixture.js";

export const USERS = {
  alice: { groups: ["readers"] },
  bob: { groups: ["keepers"] },
  root: { groups: ["ops"] },
  eve: { groups: ["visitors"] },
} as const;

export interface OidcPage {
  /** `http://<host>:PORT`, the origin the page is configured for. */
  readonly origin: string;
  readonly resource: string;
  readonly provider: OpenIdProvider;
  /** What the page's log is told, one line per refusal. */
  readonly refusals: string[];
  readonly tokenRefusals: Refusal[];
  close(): Promise<void>;
}

/** `host` names the page's origin (`localhost` makes it another site than the provider at 127.0.0.1). */
export interface OidcPageOptions {
  /** 2025-era sessions with these bounds (absent: stateless). */
  readonly sessions?: SessionOptions;
  /** Rewrites the config's text before it is loaded (tags on a plugin, say). */
  readonly config?: (text: string) => string;
  /** Replicas of one config behind the one origin, each on a port of its own (the first is `origin`). */
  readonly replicas?: number;
  /** The store each replica counts into and keeps its page sessions in (made per replica); absent: none. */
  readonly store?: () => UsageStore;
}

/** Replicas of one page: the origin of each (the first is the configured one); the rest as `OidcPage`. */
export interface OidcReplicas extends OidcPage {
  readonly origins: readonly string[];
  /** Stops replica `index` (its server, shelf and store) as a restart would. */
  stopReplica(index: number): Promise<void>;
}

export async function startOidcPage(host: "127.0.0.1" | "localhost" = "127.0.0.1", options: OidcPageOptions = {}): Promise<OidcReplicas> {
  const servers: Server[] = [];
  for (let i = 0; i < (options.replicas ?? 1); i++) {
    const server: Server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    servers.push(server);
  }
  const origins = servers.map((server) => `http://${host}:${(server.address() as AddressInfo).port}`);
  const origin = origins[0] as string;
  const resource = `${origin}/mcp`;
  const provider = await startProvider({
    users: USERS,
    clients: [
      {
        client_id: PAGE_CLIENT.id,
        client_secret: PAGE_CLIENT.secret,
        redirect_uris: [`${origin}/signin/oidc/callback`],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        id_token_signed_response_alg: "ES256",
      },
    ],
  });
  const shelf = writeWebShelf();
  appendFileSync(
    shelf.configPath,
    [
      "oauth:",
      `  issuer: ${provider.issuer}`,
      `  resource: ${resource}`,
      "  scopes: [skills]",
      `  page: {clientId: ${PAGE_CLIENT.id}, clientSecret: {env: SKILLSHELF_PAGE_SECRET}}`,
      "  rules:",
      "    - {claim: groups, includes: readers, scope: {library: pub}}",
      "    - {claim: groups, includes: keepers, scope: {library: secret}}",
      "    - {claim: groups, includes: ops, scope: {}, admin: true}",
      "",
    ].join("\n"),
  );
  if (options.config !== undefined) writeFileSync(shelf.configPath, options.config(readFileSync(shelf.configPath, "utf8")));
  const config = await loadConfig(shelf.configPath);
  const oauth = new ResourceServer(config.oauth as NonNullable<Config["oauth"]>);
  const page = new PageClient(oauth, { clientSecret: PAGE_CLIENT.secret });
  const refusals: string[] = [];
  const tokenRefusals: Refusal[] = [];
  const replicas: { close(): Promise<void> }[] = [];
  for (const server of servers) {
    const service = await ShelfService.start(config, () => new Date(0));
    const store = options.store?.();
    store?.start();
    const usage =
      store === undefined
        ? undefined
        : new UsageTap({ store, shelf: () => service.holder.current, claim: "groups", now: () => new Date() });
    const { app, mcp } = createHttpApp(
      service.holder,
      { shelf: new ShelfReader(service.holder, new ContentCache()), version: "0.0.0-test", ttlMs: 0 },
      {
        host: "127.0.0.1",
        ...(options.sessions === undefined ? {} : { sessions: options.sessions }),
        ...(usage === undefined ? {} : { usage }),
        access: { clients: CLIENTS, anonymous: false, oauth, page, onTokenRefused: (refusal) => tokenRefusals.push(refusal) },
        reindex: () => service.rebuild(),
        onError: () => undefined,
        onRefused: (reason, fields) => refusals.push(`${fields.status} ${fields.method} ${fields.path}: ${reason}`),
      },
    );
    server.on("request", app);
    let closed = false;
    replicas.push({
      close: async () => {
        if (closed) return;
        closed = true;
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        await mcp.close();
        await service.close();
        await store?.close();
      },
    });
  }
  return {
    origin,
    origins,
    resource,
    provider,
    refusals,
    tokenRefusals,
    stopReplica: (index) => (replicas[index] as { close(): Promise<void> }).close(),
    close: async () => {
      for (const replica of replicas) await replica.close();
      await provider.stop();
    },
  };
}
