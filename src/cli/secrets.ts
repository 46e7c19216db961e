// The one reader of what the environment holds for the config: client tokens and the secrets the config names by
// variable (install links, the issuer's introspection and the page's client). An unset variable is named, never a
// value.
import type { Config, SecretRef } from "../config/index.js";
import type { Logger } from "../log/index.js";
import type { Client, FeedTokens } from "../http/index.js";
import type { PageClient, ResourceServer } from "../oauth/index.js";
import { UsageError } from "../settings.js";

/** A client token shorter than this is refused: a bearer token is the whole credential, and a short one can be
 *  guessed (`openssl rand -base64 24` makes one of 32 characters). */
export const MIN_TOKEN_LENGTH = 16;

/** Tokens come from the environment when the server starts; every unset or too short one is named (its variable,
 *  never a value), all at once. */
export function readClients(config: Config): Client[] {
  const { clients, refused } = readClientsNow(config);
  if (refused.length > 0) throw new UsageError(refused.map(({ client, why }) => `client '${client.name}': ${why}`));
  return clients;
}

/** The clients whose token variable holds a usable token in this process's environment, and those refused, each with
 *  why (unset, or too short: its length is said, never its value). */
export function readClientsNow(config: Config): {
  clients: Client[];
  refused: { readonly client: Config["clients"][number]; readonly why: string }[];
} {
  const clients: Client[] = [];
  const refused: { client: Config["clients"][number]; why: string }[] = [];
  for (const client of config.clients) {
    const token = process.env[client.token.env] ?? "";
    if (token === "") refused.push({ client, why: `the environment variable ${client.token.env} that holds its token is not set` });
    else if (token.length < MIN_TOKEN_LENGTH)
      refused.push({
        client,
        why: `the token in ${client.token.env} is ${token.length} characters; use at least ${MIN_TOKEN_LENGTH} (openssl rand -base64 24 makes one)`,
      });
    else clients.push({ name: client.name, token, scope: client.scope, admin: client.admin });
  }
  return { clients, refused };
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
export function createResourceServer(config: Config, log: Logger, face: typeof import("../oauth/index.js")): ResourceServer | undefined {
  const oauth = config.oauth;
  if (oauth === undefined) return undefined;
  const secret = readSecret(oauth.introspection?.clientSecret, "oauth.introspection", "its client secret");
  const server = new face.ResourceServer(oauth, {
    ...(secret === undefined ? {} : { introspectionSecret: secret }),
    onChange: (level, message, fields) => log.log(level, message, fields),
  });
  void server.start();
  return server;
}

/** The page's client of the issuer (`oauth.page`): its secret is read here, like the introspection secret. */
export function createPageClient(server: ResourceServer, face: typeof import("../oauth/index.js")): PageClient | undefined {
  const page = server.config.page;
  if (page === undefined) return undefined;
  const secret = readSecret(page.clientSecret, "oauth.page", "its client secret");
  return new face.PageClient(server, secret === undefined ? {} : { clientSecret: secret });
}
