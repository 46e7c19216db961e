// Every rule a config file can break, as the error states it: one table for the schema check (schema-check.ts) and
// the builder (build*.ts). The plugin-address grammar (address.ts) and globs (globs.ts) state their own rules, as
// marketplace files and plugin manifests share them. A rule never quotes a value (a misplaced secret must not reach
// a log); it may quote a key, a name, a limit or a JSON Pointer.
import { MAX_DURATION_MS } from "./units.js";
import { listWords } from "./source-kinds.js";

const list = (what: string, names: Iterable<string>): string => {
  const all = [...names];
  return all.length === 0 ? `no ${what} are declared` : `the ${what} are: ${all.join(", ")}`;
};
/** JSON types in the words of a rule. */
const TYPE_WORDS: Readonly<Record<string, string>> = {
  string: "a string",
  integer: "an integer",
  number: "a number",
  boolean: "true or false",
  array: "a list",
  object: "a mapping",
  null: "null",
};
const serverUrl = (what: string) => ({
  absolute: `the ${what} must be an absolute URL`,
  https: `the ${what} must be an https:// URL (http:// only on localhost, 127.0.0.1 or [::1])`,
  userinfo: `the ${what} must not carry userinfo (user:password@)`,
  query: `the ${what} takes no query (?) or fragment (#)`,
});

export const RULE = {
  // Formats of the schema: schema-check.ts states one of these wherever the value breaks its definition.
  name: "must be a name: 1-64 characters of a-z, 0-9 and '-', not starting or ending with '-'",
  pluginRef: "must be a plugin name, or <entry>@<library> for a marketplace entry",
  secret: "must be {env: NAME}: secrets are read from the environment, never written in the file",
  env: "must be an environment variable name: letters, digits and '_', not starting with a digit",
  username: "must be a user name, or {env: NAME}",
  duration: "must be a duration: a number of milliseconds, or a number with a unit ms, s, m, h or d (500ms, 60s, 1h)",
  size: "must be a size: a number of bytes, or a number with a unit B, KiB, MiB, GiB, kB, MB or GB (512KiB, 8MiB)",
  tag: "must be a tag: no comma, no leading or trailing space",
  tagSelector: "must be tags separated by commas (a plugin must carry all of them), none empty",
  version: 'must be a non-empty string; quote a number-like version ("1.0")',
  oauthScope: "must be an OAuth scope: printable ASCII without spaces, quotes or backslashes",
  anonymous: "must be true, false, or {scope: {library, categories, tags}} (a ceiling for requests without a token)",

  // Keywords of the schema, where no format rule applies.
  unknownKey: (key: string, known: readonly string[]) => `unknown key '${key}'; the keys here are: ${known.join(", ")}`,
  missingKey: (key: string) => `missing required key '${key}'`,
  type: (types: readonly string[]) =>
    // Stryker disable next-line StringLiteral: equivalent; every union type of the schema has a rule of its own, so one type reaches here.
    `must be ${types.map((t) => TYPE_WORDS[t] ?? t).join(" or ")}`,
  oneOf: (values: readonly string[]) => `must be one of: ${values.join(", ")}`,
  notEmpty: "must not be empty",
  minItems: (limit: string) => `must list at least ${limit}`,
  minimum: (limit: string) => `must be at least ${limit}`,
  keyword: (keyword: string) => `breaks the schema keyword ${keyword}`,

  // Names: unique in their list, and declared where they are used.
  duplicateName: (what: string, name: string, first: string) => `duplicate ${what} name '${name}'; the first is ${first}`,
  noLibrary: (library: string, names: Iterable<string>) => `no library named '${library}' is declared; ${list("libraries", names)}`,
  noPlugin: (plugin: string, names: Iterable<string>) => `no plugin named '${plugin}' is declared; ${list("plugins", names)}`,

  // Sources.
  reservedSource: (name: string) => `'${name}' is reserved: file:// addresses are local folders`,
  remoteOnly: "applies to git and WebDAV sources only",
  webdavOnly: (name: string, kind: string) => `applies to WebDAV sources only, and '${name}' is a ${kind} source`,
  refreshZero: "must be more than 0",
  durationMax: `must be at most ${MAX_DURATION_MS} ms (about 24.8 days)`,
  usageRetentionMin: "must be at least 1d: counts are kept as daily rows",
  usageFlushMin: "must be at least 100ms",
  webdavAuth: (name: string) => `source '${name}' is a WebDAV source and needs auth: {username, password: {env: NAME}}`,
  webdavUsername: (name: string) => `source '${name}' is a WebDAV source and needs auth.username`,
  webdavPassword: (name: string) => `source '${name}' is a WebDAV source and needs auth.password as {env: NAME}`,
  sourceUrlScheme: (schemes: readonly string[]) => `a source URL starts with ${listWords(schemes)}`,
  sourceUrlUserinfo: "a source URL must not carry userinfo (user:password@); give credentials in auth as {env: NAME}",
  sourceUrlQuery: "a source URL takes no query (?) or fragment (#)",
  sourceUrlControl: "a source URL must not contain spaces or control characters",
  sourceUrlPath: (scheme: string) => `a ${scheme} URL is an absolute path, as ${scheme}:///path`,
  sourceUrlHost: (scheme: string) => `a ${scheme} URL names a host, as ${scheme}://host`,

  // Libraries.
  emptyLibrary: "a library needs at least one of source, plugins (not empty) or pluginSelector",
  listedTwice: (plugin: string, first: string) => `plugin '${plugin}' is already listed at ${first}`,
  noMarketplaceLibrary: (library: string, entry: string) =>
    `no library named '${library}' is declared, so '${entry}@${library}' names no marketplace entry`,
  noMarketplace: (library: string, entry: string) =>
    `library '${library}' has no source (marketplace), so '${entry}@${library}' names no entry`,

  // Who may read: clients, requests without a token, grants.
  sharedToken: (owner: string) => `client '${owner}' already uses this variable: a token identifies one client`,
  nobodyServed: "must not be false when no clients and no oauth issuer are declared: every request would be refused",
  libraryOrLibraries: "give library or libraries, not both",
  noGrantedLibrary: "must list at least 1 (leave it out to grant every library)",

  // Signing in with a provider.
  serverUrl,
  clockSkewMax: "must be at most 5m: a longer leeway accepts tokens long expired",
  includesOrEquals: "a rule needs exactly one of includes or equals",
  grantsNothing: "the rule grants nothing: give it a scope, admin: true, or both",
  defaultOneLibrary: "the default ceiling names one library at most",
  redirectPath: (path: string) => `the redirect's path must be ${path}, the page's route that receives the provider's answer`,

  // Personal install links.
  feedLifetimeMax: "must be at most 3650d: a link that never expires is revoked only by rotating the secret",
  feedLifetimeMin: "must be at least 1s: a link must outlive the install it is made for",

  // The supply-chain guard's policy.
  guardSeverities: "must be a list of severities, each at most once: critical, high, medium, low",
  allowFile: "must be the skill:// URI of a file, as /health names it (skill://<library>/<path>)",
  allowOtherLibrary: (named: string, library: string) =>
    `names a file of library '${named}', and library '${library}' releases only its own files: move the entry to library '${named}' or to the top-level guard`,

  scannerTimeoutMin: "must be at least 100ms",
  scannerTimeoutMax: "must be at most 1h: a scan holds up the build it is part of",

  // Limits.
  fileBytesTooLarge: "is too large",
  fileBytesMin: "must be at least 1 byte",
} as const;
