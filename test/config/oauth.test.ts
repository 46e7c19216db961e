// The `oauth:` section: what a valid one maps to, and the precise error (path, line, rule) of each mistake.
import { expect, test } from "vitest";
import { parseConfig } from "../../src/config/load.js";
import type { ConfigError } from "../../src/config/types.js";
import { tempDir } from "../support/temp.js";

// Rules written out word for word (not imported), so a changed message fails here.
const SECRET_RULE = "must be {env: NAME}: secrets are read from the environment, never written in the file";

const BASE = tempDir("skillshelf-config-oauth-");
const FILE = "conf/skillshelf.yaml";
const HEAD = [
  "plugins: [{name: kit, source: ./kit, category: eng}]",
  "libraries: [{name: eng, plugins: [kit]}, {name: oncall, plugins: [kit]}]",
  "oauth:",
];
const parse = (...lines: string[]) => parseConfig([...HEAD, ...lines].join("\n") + "\n", FILE, BASE);
const ISSUER = "  issuer: https://login.example.com/realms/eng";
const RESOURCE = "  resource: https://skills.example.com/mcp";
const ALL_ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA", "Ed25519"];

test("a full section maps to the typed config; rules expand libraries into one ceiling each", () => {
  const result = parse(
    ISSUER,
    RESOURCE,
    "  audiences: [0a1b2c3d-aaaa-bbbb-cccc-000011112222]",
    "  algorithms: [RS256, ES256]",
    "  clockSkew: 10s",
    "  scopes: [skills.read]",
    "  introspection: {clientId: skillshelf, clientSecret: {env: SKILLSHELF_INTROSPECTION_SECRET}}",
    "  rules:",
    "    - {claim: groups, includes: platform-eng, scope: {libraries: [eng, oncall], categories: [eng]}}",
    "    - {claim: realm_access.roles, includes: skills-admin, admin: true}",
    "    - {claim: tid, equals: 0000-1111, scope: {}}",
    "  default: {library: eng}",
  );
  expect(result.ok && result.config.oauth).toEqual({
    issuer: "https://login.example.com/realms/eng",
    resource: "https://skills.example.com/mcp",
    audiences: ["0a1b2c3d-aaaa-bbbb-cccc-000011112222"],
    algorithms: ["RS256", "ES256"],
    clockSkewMs: 10_000,
    scopes: ["skills.read"],
    introspection: { clientId: "skillshelf", clientSecret: { env: "SKILLSHELF_INTROSPECTION_SECRET" } },
    rules: [
      {
        claim: "groups",
        match: { includes: "platform-eng" },
        grants: [
          { library: "eng", categories: ["eng"] },
          { library: "oncall", categories: ["eng"] },
        ],
        admin: false,
      },
      { claim: "realm_access.roles", match: { includes: "skills-admin" }, grants: [], admin: true },
      { claim: "tid", match: { equals: "0000-1111" }, grants: [{}], admin: false },
    ],
    defaultScope: { library: "eng" },
  });
});

test("defaults: every asymmetric algorithm, 30 s of skew, no scopes, no rules; the server turns private", () => {
  const result = parse(ISSUER, RESOURCE);
  expect(result.ok && { oauth: result.config.oauth, anonymous: result.config.anonymous }).toEqual({
    oauth: {
      issuer: "https://login.example.com/realms/eng",
      resource: "https://skills.example.com/mcp",
      audiences: [],
      algorithms: ALL_ALGORITHMS,
      clockSkewMs: 30_000,
      scopes: [],
      rules: [],
    },
    anonymous: false,
  });
  // An operator may keep a public corner open beside sign-in; anonymous: false needs no static client now.
  const open = parseConfig([...HEAD, ISSUER, RESOURCE, "anonymous: true"].join("\n"), FILE, BASE);
  expect(open.ok && open.config.anonymous).toBe(true);
  const closed = parseConfig([...HEAD, ISSUER, RESOURCE, "anonymous: false"].join("\n"), FILE, BASE);
  expect(closed.ok).toBe(true);
});

test("the page's client: its callback defaults to the page's route at the resource's origin; a proxy's origin may be given", () => {
  const byDefault = parse(ISSUER, RESOURCE, "  page: {clientId: skillshelf-page, clientSecret: {env: SKILLSHELF_PAGE_SECRET}}");
  expect(byDefault.ok && byDefault.config.oauth?.page).toEqual({
    clientId: "skillshelf-page",
    clientSecret: { env: "SKILLSHELF_PAGE_SECRET" },
    redirect: "https://skills.example.com/signin/oidc/callback",
  });
  const given = parse(ISSUER, RESOURCE, "  page: {clientId: skillshelf-page, redirect: 'https://people.example.com/signin/oidc/callback'}");
  expect(given.ok && given.config.oauth?.page).toEqual({
    clientId: "skillshelf-page",
    redirect: "https://people.example.com/signin/oidc/callback",
  });
});

const rows: { name: string; lines: string[]; errors: Omit<ConfigError, "file">[] }[] = [
  {
    name: "missing resource",
    lines: [ISSUER],
    errors: [{ path: "/oauth", line: 3, rule: "missing required key 'resource'" }],
  },
  {
    name: "an unknown key",
    lines: [ISSUER, RESOURCE, "  audience: x"],
    errors: [
      {
        path: "/oauth/audience",
        line: 6,
        rule: "unknown key 'audience'; the keys here are: issuer, resource, audiences, algorithms, clockSkew, scopes, introspection, page, rules, default",
      },
    ],
  },
  {
    name: "an http issuer off loopback",
    lines: ["  issuer: http://login.example.com", RESOURCE],
    errors: [
      { path: "/oauth/issuer", line: 4, rule: "the issuer must be an https:// URL (http:// only on localhost, 127.0.0.1 or [::1])" },
    ],
  },
  {
    name: "a resource with a fragment, an issuer that is no URL",
    lines: ["  issuer: login.example.com", "  resource: https://skills.example.com/mcp#top"],
    errors: [
      { path: "/oauth/issuer", line: 4, rule: "the issuer must be an absolute URL" },
      { path: "/oauth/resource", line: 5, rule: "the resource takes no query (?) or fragment (#)" },
    ],
  },
  {
    name: "HMAC and none are not algorithms a token may use",
    lines: [ISSUER, RESOURCE, "  algorithms: [HS256, none]"],
    errors: [
      { path: "/oauth/algorithms/0", line: 6, rule: `must be one of: ${ALL_ALGORITHMS.join(", ")}` },
      { path: "/oauth/algorithms/1", line: 6, rule: `must be one of: ${ALL_ALGORITHMS.join(", ")}` },
    ],
  },
  {
    name: "a scope with a space",
    lines: [ISSUER, RESOURCE, '  scopes: ["skills read"]'],
    errors: [{ path: "/oauth/scopes/0", line: 6, rule: "must be an OAuth scope: printable ASCII without spaces, quotes or backslashes" }],
  },
  {
    name: "a clock skew beyond 5 minutes",
    lines: [ISSUER, RESOURCE, "  clockSkew: 10m"],
    errors: [{ path: "/oauth/clockSkew", line: 6, rule: "must be at most 5m: a longer leeway accepts tokens long expired" }],
  },
  {
    name: "a page client without its id, its secret written in the file",
    lines: [ISSUER, RESOURCE, "  page:", "    clientSecret: hunter2"],
    errors: [
      { path: "/oauth/page", line: 6, rule: "missing required key 'clientId'" },
      { path: "/oauth/page/clientSecret", line: 7, rule: SECRET_RULE },
    ],
  },
  {
    name: "a page redirect off loopback over http, and one on another route",
    lines: [ISSUER, RESOURCE, "  page: {clientId: page, redirect: 'http://skills.example.com/signin/oidc/callback'}"],
    errors: [
      {
        path: "/oauth/page/redirect",
        line: 6,
        rule: "the redirect must be an https:// URL (http:// only on localhost, 127.0.0.1 or [::1])",
      },
    ],
  },
  {
    name: "a page redirect to another route than the page's callback",
    lines: [ISSUER, RESOURCE, "  page:", "    clientId: page", "    redirect: https://skills.example.com/callback"],
    errors: [
      {
        path: "/oauth/page/redirect",
        line: 8,
        rule: "the redirect's path must be /signin/oidc/callback, the page's route that receives the provider's answer",
      },
    ],
  },
  {
    name: "an introspection secret written in the file",
    lines: [ISSUER, RESOURCE, "  introspection: {clientId: rs, clientSecret: hunter2}"],
    errors: [{ path: "/oauth/introspection/clientSecret", line: 6, rule: SECRET_RULE }],
  },
  {
    name: "rules: both or neither of includes and equals, a rule granting nothing, unknown libraries",
    lines: [
      ISSUER,
      RESOURCE,
      "  rules:",
      "    - {claim: groups, includes: a, equals: b, scope: {library: eng}}",
      "    - {claim: groups, admin: true}",
      "    - {claim: groups, includes: c}",
      "    - {claim: groups, includes: d, scope: {libraries: [eng, nope]}}",
      "    - {claim: groups, includes: e, scope: {library: eng, libraries: [oncall]}}",
      "  default: {library: gone}",
    ],
    errors: [
      { path: "/oauth/rules/0", line: 7, rule: "a rule needs exactly one of includes or equals" },
      { path: "/oauth/rules/1", line: 8, rule: "a rule needs exactly one of includes or equals" },
      { path: "/oauth/rules/2", line: 9, rule: "the rule grants nothing: give it a scope, admin: true, or both" },
      { path: "/oauth/rules/3/scope/libraries/1", line: 10, rule: "no library named 'nope' is declared; the libraries are: eng, oncall" },
      { path: "/oauth/rules/4/scope", line: 11, rule: "give library or libraries, not both" },
      { path: "/oauth/default/library", line: 12, rule: "no library named 'gone' is declared; the libraries are: eng, oncall" },
    ],
  },
];

test.each(rows)("$name", ({ lines, errors }) => {
  expect(parse(...lines)).toStrictEqual({ ok: false, errors: errors.map((e) => ({ file: FILE, ...e })) });
});
