// What the page is given by the layer that mounts it: the scoped shelf, and who may see what (the clients and their
// tokens, the issuer, the personal links) as functions, so the page never holds a token list of its own.
import type { Ceiling, ConfigError, ScopeSpec } from "../config/index.js";
import type { ShelfAccess } from "../mcp/index.js";
import type { PageClient } from "../oauth/index.js";
import type { PageSession, SessionKeeper } from "./sessions.js";
import type { UsageReader } from "./usage-port.js";

/** Who may sign in, as the layer above knows it. */
export interface WebViewer {
  readonly name: string;
  /** A client's scope, or the union a signed-in user's matching rules grant. */
  readonly scope: Ceiling;
  readonly admin: boolean;
  /** Signed in with the provider (so a client connects by signing in too, never with a pasted token). */
  readonly signedIn?: boolean;
}

/** Who a request names: a viewer (`null`: nobody), or why the credential it sent names nobody. */
export type WebIdentified = { readonly ok: true; readonly viewer: WebViewer | null } | { readonly ok: false; readonly reason: string };

export interface WebAccess {
  /** The client holding `token` (compared in constant time), or undefined. */
  identify(token: string): WebViewer | undefined;
  /** An `Authorization` header (a script or a proxy): the client or the user the issuer vouches for, identified
   *  as on /mcp, or why it names nobody. */
  identifyHeader(authorization: string): Promise<WebIdentified>;
  /** Clients are declared: the page offers a sign-in form. */
  readonly signIn: boolean;
  /** Signing in with the provider (`oauth.page`): the authorization code flow with PKCE. */
  readonly provider?: PageClient | undefined;
  /** Visitors without a token may see the shelf (under `anonymousScope` when given). */
  readonly anonymous: boolean;
  readonly anonymousScope?: ScopeSpec | undefined;
  /** The health view is open to everyone (no clients and no anonymous ceiling: nothing is hidden from anyone). */
  readonly openHealth: boolean;
  /** A personal install link for a signed-in viewer: a path such as `/feeds/<token>`, carrying their scope, for
   *  installers that send no header. Absent: the server issues none. */
  readonly installLink?: ((viewer: WebViewer) => Promise<{ readonly path: string; readonly expires: Date }>) | undefined;
  /** The keys that sign form tokens (the first signs, any checks): derived from the client tokens, the same for every
   *  replica of one config; with no client token, from `sealKeys` (the sessions' keys). Secret to everyone else. */
  formKeys(sealKeys: readonly Uint8Array[]): readonly Uint8Array[];
}

export interface WebDeps {
  readonly shelf: ShelfAccess;
  readonly access: WebAccess;
  readonly version: string;
  /** What the last failed reload of the config file found wrong (the health view shows it). */
  readonly configErrors?: () => readonly ConfigError[];
  /** The usage tables for the admins' usage view; absent: counting is off. */
  readonly usage?: UsageReader;
  /** Where signed-in sessions live (the store, shared by replicas); absent: this process's memory. */
  readonly sessions?: SessionKeeper<PageSession>;
  /** A refused form or token, named once (the log); never the token itself. */
  readonly onRefused?: (reason: string, fields: { readonly status: number; readonly method: string; readonly path: string }) => void;
}
