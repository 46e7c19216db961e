// The one reader of what the environment holds for the config: client tokens and the secrets the config names by
// variable (install links, the issuer's introspection and the page's client). An unset variable is named, never a
// value.
import type { Config, SecretRef } from "../config/index.js";
import type { Logger } from "../address/index.js";
import type { Client, FeedTokens } from "../http/index.js";
import { PageClient, ResourceServer } from "../oauth/index.js";
import { UsageError } from "../settings.js";

/** Tokens come from the environment when the server starts; every unset one is named (its variable, never a
 *  value), all at once. */
export function readClients(config: Config): Client[] {
  const { clients, unset } = readClientsNow(config);
  if (unset.length > 0) {
    throw new UsageError(
      unset.map((client) => `client '${client.name}': the environment variable ${client.token.env} that holds its token is not set`),
    );
  }
  return clients;
}

/** The clients whose token variable is set in this process's environment, and those whose is not. */
export function readClientsNow(config: Config): { clients: Client[]; unset: Config["clients"] } {
  const unset = config.clients.filter((client) => (process.env[client.token.env] ?? "") === "");
  const clients = config.clients
    .filter((client) => !unset.includes(client))
    .map((client) => ({ name: client.name, token: process.env[client.token.env] as string, scope: client.scope, admin: client.admin }));
  return { clients, unset };
}

/** The one reader of secrets: a variable the config names and the environment leaves unset (or empty) stops the
 *  start, named, never a value. */
export function readSecret(ref: SecretRef | undefined, where: string, what: string): string | undefined {
  if (ref === undefined) return undefined;
  const value = process.env[ref.env] ?? "";
  if (value === "") throw new UsageError([`${where}: the environment variable ${ref.env} that holds ${what} is not set`]);
  return value;
}

/** Install links (`feeds`): their secret is read like a token, and must be long enough to sign with. */
export function createFeeds(
  config: Config,
  clients: readonly Pick<Client, "name" | "scope">[] | (() => readonly Pick<Client, "name" | "scope">[]),
  face: typeof import("../http/index.js"),
): FeedTokens | undefined {
  const feeds = config.feeds;
  if (feeds === undefined) return undefined;
  const secret = Buffer.from(readSecret(feeds.secret, "feeds", "the secret that signs install links") as string, "utf8");
  if (secret.byteLength < face.MIN_FEED_SECRET_BYTES) {
    throw new UsageError([
      `feeds: the secret in ${feeds.secret.env} is ${secret.byteLength} bytes; it must be at least ${face.MIN_FEED_SECRET_BYTES} (openssl rand -base64 48 makes one)`,
    ]);
  }
  return new face.FeedTokens({ secret, lifetimeSeconds: Math.floor(feeds.lifetimeMs / 1000), revoked: new Set(feeds.revoked) }, clients);
}

/** Signing in with the config's issuer: its introspection secret is read here (an unset variable stops the start,
 *  named, never a value), and its metadata and keys are read in the background from now on. */
export function createResourceServer(config: Config, log: Logger): ResourceServer | undefined {
  const oauth = config.oauth;
  if (oauth === undefined) return undefined;
  const secret = readSecret(oauth.introspection?.clientSecret, "oauth.introspection", "its client secret");
  const server = new ResourceServer(oauth, {
    ...(secret === undefined ? {} : { introspectionSecret: secret }),
    onChange: (level, message, fields) => log.log(level, message, fields),
  });
  void server.start();
  return server;
}

/** The page's client of the issuer (`oauth.page`): its secret is read here, like the introspection secret. */
export function createPageClient(server: ResourceServer): PageClient | undefined {
  const page = server.config.page;
  if (page === undefined) return undefined;
  const secret = readSecret(page.clientSecret, "oauth.page", "its client secret");
  return new PageClient(server, secret === undefined ? {} : { clientSecret: secret });
}
