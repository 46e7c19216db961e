// Personal install links: a base URL `/feeds/<token>` under which the discovery index and its artifacts answer
// exactly as for one person or client, for installers that send no Authorization header. A feed token is a JWT
// (HS256, jose) signed with the configured feed secret, so any replica of one config verifies it without shared
// state. It names a static client (whose current ceiling applies) or carries a signed-in user's ceiling as it was
// when the link was made; it expires (`exp`), rotating the secret revokes every link, and a listed id (`jti`)
// revokes one. A token that fails any check is treated as no feed at all: the same 404 as an unknown address.
import { randomBytes } from "node:crypto";
import { jwtVerify, SignJWT } from "jose";
import type { Ceiling } from "../config/index.js";
import type { Identity } from "../oauth/index.js";
import type { Client } from "./access.js";

/** What a link needs of a static client: its name and its ceiling now (never its token). */
export type FeedClient = Pick<Client, "name" | "scope">;

const AUDIENCE = "skillshelf-feed";
const ALGORITHM = "HS256";

export interface FeedOptions {
  /** The signing secret (at least 32 bytes). */
  readonly secret: Uint8Array;
  /** How long a link lives, in seconds. */
  readonly lifetimeSeconds: number;
  /** Ids of links revoked one by one. */
  readonly revoked: ReadonlySet<string>;
}

export interface IssuedFeed {
  readonly token: string;
  /** The link's id, to revoke it alone. */
  readonly id: string;
  readonly expires: Date;
}

/** Whom a link is for. */
export interface FeedHolder {
  readonly name: string;
  readonly scope: Ceiling;
  /** A signed-in user (the link keeps their ceiling), not a static client (the link names the client). */
  readonly user: boolean;
}

interface FeedClaims {
  /** `client`: a static client by name; `user`: a signed-in user with the ceiling they had. */
  readonly kind: "client" | "user";
  readonly scope?: Ceiling;
}

/** Minimum length of a feed secret, in bytes: HS256 wants a key as long as its hash. */
export const MIN_FEED_SECRET_BYTES = 32;

export class FeedTokens {
  private readonly clients: () => readonly FeedClient[];
  private revoked: ReadonlySet<string>;

  /** `clients`: the static clients, or a function answering the current ones (a reload may change them). */
  constructor(
    private readonly options: FeedOptions,
    clients: readonly FeedClient[] | (() => readonly FeedClient[]),
    private readonly now: () => Date = () => new Date(),
  ) {
    if (options.secret.byteLength < MIN_FEED_SECRET_BYTES) {
      throw new Error(`the feed secret must be at least ${MIN_FEED_SECRET_BYTES} bytes long`);
    }
    this.clients = typeof clients === "function" ? clients : () => clients;
    this.revoked = options.revoked;
  }

  /** The ids revoked from now on (a config reload's `feeds.revoked`): a link among them stops working at once. */
  setRevoked(ids: ReadonlySet<string>): void {
    this.revoked = ids;
  }

  /** A link for `holder`: a static client by name (its ceiling as the config says it when the link is used), or a
   *  signed-in user with the ceiling they have now. */
  async issue(holder: FeedHolder): Promise<IssuedFeed> {
    const id = randomBytes(12).toString("base64url");
    const issuedAt = Math.floor(this.now().getTime() / 1000);
    const expires = issuedAt + this.options.lifetimeSeconds;
    const claims: FeedClaims = holder.user ? { kind: "user", scope: holder.scope } : { kind: "client" };
    const token = await new SignJWT({ ...claims })
      .setProtectedHeader({ alg: ALGORITHM })
      .setSubject(holder.name)
      .setAudience(AUDIENCE)
      .setJti(id)
      .setIssuedAt(issuedAt)
      .setExpirationTime(expires)
      .sign(this.options.secret);
    return { token, id, expires: new Date(expires * 1000) };
  }

  /** The caller a feed token stands for, or null when it is not one (forged, expired, revoked, or naming a client
   *  the config no longer holds). Never says which. */
  async verify(token: string): Promise<Identity | null> {
    let payload;
    try {
      ({ payload } = await jwtVerify(token, this.options.secret, {
        algorithms: [ALGORITHM],
        audience: AUDIENCE,
        currentDate: this.now(),
        requiredClaims: ["sub", "exp", "jti"],
      }));
    } catch {
      return null;
    }
    if (this.revoked.has(payload.jti as string)) return null;
    const name = payload.sub as string;
    if (payload["kind"] === "client") {
      const client = this.clients().find((candidate) => candidate.name === name);
      return client === undefined ? null : { name: client.name, scope: client.scope, admin: false };
    }
    if (payload["kind"] === "user" && typeof payload["scope"] === "object" && payload["scope"] !== null) {
      return { name, scope: payload["scope"] as Ceiling, admin: false };
    }
    return null;
  }
}
