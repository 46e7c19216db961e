// Who a request comes from, once its token is checked: a static client or a signed-in user, each with a ceiling and
// an admin flag. Claims become a ceiling here, in one pure function that every surface signing users in shares.
import type { Ceiling, ClaimRule, OAuthConfig, ScopeSpec } from "../config/index.js";

/** A caller the server knows: what static tokens and signed-in users both become. */
export interface Identity {
  /** A static client's name, or a signed-in user's subject. */
  readonly name: string;
  readonly scope: Ceiling;
  readonly admin: boolean;
  /** Present for a signed-in user. */
  readonly signedIn?: SignedIn;
  /** A signed-in user's checked claims: what usage counting records the user as (its configured claim). */
  readonly claims?: Claims;
}

export interface SignedIn {
  readonly subject: string;
  /** The OAuth client the user signed in with (`client_id`, else `azp`), when the token names one. */
  readonly clientId?: string;
  /** Seconds since the epoch. */
  readonly expiresAt: number;
}

export type Claims = Readonly<Record<string, unknown>>;

/** What the claims of one token are granted: the union of every matching rule, else the default ceiling. */
export interface Grant {
  readonly scope: Ceiling;
  readonly admin: boolean;
  /** False when no rule grants a ceiling and there is no default: the user sees nothing. */
  readonly granted: boolean;
}

export function grantOf(policy: Pick<OAuthConfig, "rules" | "defaultScope">, claims: Claims): Grant {
  const grants: ScopeSpec[] = [];
  let admin = false;
  for (const rule of policy.rules) {
    if (!matches(rule, claims)) continue;
    grants.push(...rule.grants);
    admin ||= rule.admin;
  }
  if (grants.length === 0 && policy.defaultScope !== undefined) grants.push(policy.defaultScope);
  return { scope: { anyOf: grants }, admin, granted: grants.length > 0 };
}

/** The identity a validated token stands for: the same shape a static client has. */
export function identityOf(policy: Pick<OAuthConfig, "rules" | "defaultScope">, claims: Claims, signedIn: SignedIn): Identity {
  const { scope, admin } = grantOf(policy, claims);
  return { name: signedIn.subject, scope, admin, signedIn };
}

function matches(rule: ClaimRule, claims: Claims): boolean {
  const value = claimAt(claims, rule.claim);
  if ("equals" in rule.match) return value === rule.match.equals;
  const wanted = rule.match.includes;
  return Array.isArray(value) ? value.includes(wanted) : value === wanted;
}

/** `groups`, or a dotted path into nested claims (`realm_access.roles`); a claim whose own name holds dots
 *  (`https://example.com/groups`) is found as it is first. */
export function claimAt(claims: Claims, path: string): unknown {
  if (Object.hasOwn(claims, path)) return claims[path];
  let at: unknown = claims;
  for (const part of path.split(".")) {
    if (typeof at !== "object" || at === null || Array.isArray(at) || !Object.hasOwn(at, part)) return undefined;
    at = (at as Record<string, unknown>)[part];
  }
  return at;
}
