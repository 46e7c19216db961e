// Claims to a ceiling, the one function every sign-in surface shares: rules add up as a union, the default stands in
// when none grants a ceiling, admin comes from a rule, and claims are found by name or by a dotted path.
import { expect, test } from "vitest";
import type { OAuthConfig } from "../../src/config/index.js";
import { webAccess } from "../../src/http/web.js";
import { claimAt, grantOf, identityOf, ResourceServer } from "../../src/oauth/index.js";

const POLICY: Pick<OAuthConfig, "rules" | "defaultScope"> = {
  rules: [
    { claim: "groups", match: { includes: "platform-eng" }, grants: [{ library: "eng" }, { library: "oncall" }], admin: false },
    { claim: "groups", match: { includes: "writers" }, grants: [{ library: "docs", tags: ["public"] }], admin: false },
    { claim: "realm_access.roles", match: { includes: "skills-admin" }, grants: [], admin: true },
    { claim: "https://example.com/tenant", match: { equals: "acme" }, grants: [{ categories: ["acme"] }], admin: false },
  ],
  defaultScope: { tags: ["public"] },
};

test.each([
  [
    "one group",
    { groups: ["platform-eng"] },
    { scope: { anyOf: [{ library: "eng" }, { library: "oncall" }] }, admin: false, granted: true },
  ],
  [
    "two groups add up",
    { groups: ["writers", "platform-eng", "other"] },
    { scope: { anyOf: [{ library: "eng" }, { library: "oncall" }, { library: "docs", tags: ["public"] }] }, admin: false, granted: true },
  ],
  [
    "a group given as a single string",
    { groups: "writers" },
    { scope: { anyOf: [{ library: "docs", tags: ["public"] }] }, admin: false, granted: true },
  ],
  ["no rule matches: the default", { groups: ["visitors"] }, { scope: { anyOf: [{ tags: ["public"] }] }, admin: false, granted: true }],
  [
    "admin by a nested claim, with the default as its ceiling",
    { realm_access: { roles: ["skills-admin"] } },
    { scope: { anyOf: [{ tags: ["public"] }] }, admin: true, granted: true },
  ],
  [
    "a claim name holding dots",
    { "https://example.com/tenant": "acme" },
    { scope: { anyOf: [{ categories: ["acme"] }] }, admin: false, granted: true },
  ],
  [
    "equals is exact: a list does not equal its item",
    { "https://example.com/tenant": ["acme"] },
    { scope: { anyOf: [{ tags: ["public"] }] }, admin: false, granted: true },
  ],
  ["a prefix is no match", { groups: ["platform-engineering"] }, { scope: { anyOf: [{ tags: ["public"] }] }, admin: false, granted: true }],
])("%s", (_name, claims, expected) => {
  expect(grantOf(POLICY, claims)).toEqual(expected);
});

test("without a default, a user no rule grants gets nothing", () => {
  expect(grantOf({ rules: POLICY.rules }, { groups: ["visitors"] })).toEqual({ scope: { anyOf: [] }, admin: false, granted: false });
});

test("the identity of a signed-in user has the shape a static client has", () => {
  const signedIn = { subject: "alice", clientId: "vscode", expiresAt: 1_900_000_000 };
  expect(identityOf(POLICY, { groups: ["writers"] }, signedIn)).toEqual({
    name: "alice",
    scope: { anyOf: [{ library: "docs", tags: ["public"] }] },
    admin: false,
    signedIn,
  });
});

test("claimAt walks own properties only", () => {
  expect(claimAt({ a: { b: { c: 1 } } }, "a.b.c")).toBe(1);
  expect(claimAt({ a: [{ b: 1 }] }, "a.0.b")).toBe(undefined);
  expect(claimAt({ a: {} }, "a.constructor")).toBe(undefined);
  expect(claimAt({}, "__proto__")).toBe(undefined);
});

test("an issuer keeps the page's health view closed, as clients do, even with anonymous callers served", () => {
  const oauth = new ResourceServer({
    issuer: "https://login.example.com",
    resource: "https://skills.example.com/mcp",
    audiences: [],
    algorithms: ["ES256"],
    clockSkewMs: 0,
    scopes: [],
    rules: [],
  });
  expect(webAccess({ clients: [], anonymous: true }).openHealth).toBe(true);
  expect(webAccess({ clients: [], anonymous: true, oauth }).openHealth).toBe(false);
});
