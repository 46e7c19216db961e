// Signing in with an OAuth 2.1 / OpenID provider: its URLs (https, or http on a loopback host), the leeway on token
// times, the page's client and its callback, and the rules that map claims to ceilings.
import { buildGrant, type LibraryNames } from "./build-access.js";
import { DEFAULT_CLOCK_SKEW_MS, PAGE_CALLBACK_PATH } from "./defaults.js";
import type { RawOAuth } from "./raw.js";
import type { Report, Where } from "./report.js";
import { RULE } from "./rules.js";
import { OAUTH_ALGORITHMS } from "./schema-oauth.js";
import type { ClaimRule, OAuthConfig } from "./types.js";
import { parseDuration } from "./units.js";

/** Leeway on exp and nbf beyond this would accept tokens long expired. */
const MAX_CLOCK_SKEW_MS = 5 * 60_000;

export function buildOAuth(o: RawOAuth, libraries: LibraryNames, report: Report): OAuthConfig {
  const at = (...rest: (string | number)[]): Where => ["oauth", ...rest];
  const issuer = checkServerUrl(o.issuer, "issuer");
  if (issuer !== undefined) report(at("issuer"), issuer);
  const resource = checkServerUrl(o.resource, "resource");
  if (resource !== undefined) report(at("resource"), resource);
  const clockSkewMs = parseDuration(o.clockSkew ?? DEFAULT_CLOCK_SKEW_MS) ?? DEFAULT_CLOCK_SKEW_MS;
  if (clockSkewMs > MAX_CLOCK_SKEW_MS) report(at("clockSkew"), RULE.clockSkewMax);
  const endpoint = o.introspection?.endpoint;
  if (endpoint !== undefined) {
    const bad = checkServerUrl(endpoint, "endpoint");
    if (bad !== undefined) report(at("introspection", "endpoint"), bad);
  }
  const page = o.page === undefined || resource !== undefined ? undefined : buildPage(o.resource, o.page, report);
  const rules: ClaimRule[] = [];
  for (const [i, r] of (o.rules ?? []).entries()) {
    const where = at("rules", i);
    if ((r.includes === undefined) === (r.equals === undefined)) report(where, RULE.includesOrEquals);
    if (r.scope === undefined && r.admin !== true) report(where, RULE.grantsNothing);
    const grants = r.scope === undefined ? [] : buildGrant(r.scope, libraries, [...where, "scope"], report);
    // Stryker disable next-line StringLiteral: equivalent; with neither key the rule was reported above, and a config with problems is never used.
    const match = r.includes !== undefined ? { includes: r.includes } : { equals: r.equals ?? "" };
    rules.push({ claim: r.claim, match, grants, admin: r.admin ?? false });
  }
  const defaults = o.default === undefined ? undefined : buildGrant(o.default, libraries, at("default"), report);
  if (defaults !== undefined && defaults.length > 1) report(at("default", "libraries"), RULE.defaultOneLibrary);
  const defaultScope = defaults?.[0];
  return {
    issuer: o.issuer,
    resource: o.resource,
    audiences: o.audiences ?? [],
    algorithms: o.algorithms ?? OAUTH_ALGORITHMS,
    clockSkewMs,
    scopes: o.scopes ?? [],
    ...(o.introspection === undefined
      ? {}
      : {
          introspection: {
            ...(endpoint === undefined ? {} : { endpoint }),
            clientId: o.introspection.clientId,
            clientSecret: { env: o.introspection.clientSecret.env },
          },
        }),
    ...(page === undefined ? {} : { page }),
    rules,
    ...(defaultScope === undefined ? {} : { defaultScope }),
  };
}

/** The page's client: its callback defaults to the page's route at the origin of `resource`. */
function buildPage(resource: string, p: NonNullable<RawOAuth["page"]>, report: Report): NonNullable<OAuthConfig["page"]> {
  const at = ["oauth", "page", "redirect"];
  let redirect = new URL(PAGE_CALLBACK_PATH, resource).href;
  if (p.redirect !== undefined) {
    const bad = checkServerUrl(p.redirect, "redirect");
    if (bad !== undefined) report(at, bad);
    else if (new URL(p.redirect).pathname !== PAGE_CALLBACK_PATH) report(at, RULE.redirectPath(PAGE_CALLBACK_PATH));
    else redirect = p.redirect;
  }
  return {
    clientId: p.clientId,
    ...(p.clientSecret === undefined ? {} : { clientSecret: { env: p.clientSecret.env } }),
    redirect,
  };
}

/** An issuer, a resource or an endpoint: an absolute https URL (http only on a loopback host), no query or fragment. */
function checkServerUrl(written: string, what: string): string | undefined {
  const rule = RULE.serverUrl(what);
  let url: URL;
  try {
    url = new URL(written);
  } catch {
    return rule.absolute;
  }
  const loopback = url.hostname === "localhost" || url.hostname === "127.0.0.1" || url.hostname === "[::1]";
  if (url.protocol !== "https:" && !(url.protocol === "http:" && loopback)) return rule.https;
  if (url.username !== "" || url.password !== "") return rule.userinfo;
  if (url.search !== "" || url.hash !== "") return rule.query;
  return undefined;
}
