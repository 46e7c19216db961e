// skillshelf's real HTTP app on loopback as a protected resource of a test OpenID provider: the scopes fixture's
// shelf, its static clients, and an `oauth:` section parsed from YAML like any config.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { parseConfig, type Config } from "../../src/config/index.js";
import type { Client } from "../../src/http/access.js";
import { createHttpApp } from "../../src/http/app.js";
import { ContentCache, ShelfReader } from "../../src/live/index.js";
import type { ShelfService } from "../../src/live/shelf-service.js";
import { ResourceServer, type Refusal, type ResourceServerOptions } from "../../src/oauth/index.js";
import { CONFIG_YAML, TOKEN_ENV, TOKENS, type Fixture } from "../scopes/fixture.js";

export interface SignedInServer {
  /** `http://127.0.0.1:PORT` */
  readonly origin: string;
  /** The resource: `${origin}/mcp`. */
  readonly resource: string;
  readonly oauth: ResourceServer;
  readonly config: Config;
  /** Every token refused, as the debug log is told. */
  readonly refusals: Refusal[];
  close(): Promise<void>;
}

/** The `oauth:` section for `resource`, indented under the key. */
export type OAuthYaml = (resource: string) => string;

const CLIENT_TOKENS: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(TOKEN_ENV).map(([who, env]) => [env, TOKENS[who as keyof typeof TOKENS]]),
);

export async function startSignedInServer(
  service: ShelfService,
  fixture: Fixture,
  oauthYaml: OAuthYaml,
  options: ResourceServerOptions = {},
): Promise<SignedInServer> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const resource = `${origin}/mcp`;
  const parsed = parseConfig(`${CONFIG_YAML}oauth:\n${oauthYaml(resource)}`, fixture.configPath, fixture.dir);
  if (!parsed.ok) throw new Error(parsed.errors.map((e) => `${e.path}: ${e.rule}`).join("\n"));
  const config = parsed.config;
  const oauth = new ResourceServer(config.oauth as NonNullable<Config["oauth"]>, options);
  const clients: Client[] = config.clients.map((c) => ({
    name: c.name,
    token: CLIENT_TOKENS[c.token.env] as string,
    scope: c.scope,
    admin: c.admin,
  }));
  const refusals: Refusal[] = [];
  const { app, mcp } = createHttpApp(
    service.holder,
    { shelf: new ShelfReader(service.holder, new ContentCache()), version: "0.0.0-test", ttlMs: 0 },
    {
      host: "127.0.0.1",
      access: { clients, anonymous: config.anonymous, oauth, onTokenRefused: (refusal) => refusals.push(refusal) },
      reindex: () => service.rebuild(),
      onError: () => undefined,
    },
  );
  server.on("request", app);
  return {
    origin,
    resource,
    oauth,
    config,
    refusals,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await mcp.close();
    },
  };
}
