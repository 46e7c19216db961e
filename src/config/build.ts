// Schema-valid data → typed Config, checking what a schema cannot say: names that must exist or be unique,
// addresses, globs, source URLs, and the values sizes and durations stand for.
import { parsePluginAddress } from "./address.js";
import { checkGlob } from "./globs.js";
import type {
  ClaimRule,
  ClientConfig,
  FeedsConfig,
  GuardConfig,
  Config,
  ConflictRule,
  Dialect,
  Naming,
  LibraryConfig,
  OAuthConfig,
  PluginAddress,
  PluginConfig,
  PluginSelector,
  ScopeSpec,
  SecretRef,
  SourceConfig,
} from "./types.js";
import { MAX_DURATION_MS, parseDuration, parseSize } from "./units.js";
import { formatPointer, type Problem } from "./yaml-doc.js";
import { normaliseTagItem } from "./tags.js";
import { OAUTH_ALGORITHMS } from "./schema.js";

/** The shape CONFIG_SCHEMA admits (only ever built from data ajv accepted). */
export interface RawConfig {
  readonly sources?: readonly RawSource[];
  readonly plugins?: readonly RawPlugin[];
  readonly libraries: readonly RawLibrary[];
  readonly clients?: readonly RawClient[];
  readonly anonymous?: boolean | { readonly scope: RawScope };
  readonly oauth?: RawOAuth;
  readonly feeds?: { readonly secret: SecretRef; readonly lifetime?: string | number; readonly revoked?: readonly string[] };
  readonly guard?: { readonly quarantine?: GuardConfig["quarantine"]; readonly allow?: GuardConfig["allow"] };
  readonly ttl?: string | number;
  readonly limits?: { readonly fileBytes?: string | number };
}
interface RawSource {
  readonly name: string;
  readonly url: string;
  readonly refresh?: string | number;
  readonly auth?: { readonly username?: string | SecretRef; readonly password?: SecretRef };
  readonly watch?: boolean;
  readonly cache?: "snapshot" | "live";
}
interface RawPlugin {
  readonly name: string;
  readonly source: string;
  readonly description?: string;
  readonly category?: string;
  readonly tags?: readonly string[];
  readonly keywords?: readonly string[];
  readonly version?: string;
  readonly skills?: readonly string[];
  readonly prompts?: readonly string[];
  readonly files?: readonly string[];
  readonly dialect?: Dialect;
  readonly watch?: boolean;
  readonly naming?: Naming;
}
interface RawLibrary {
  readonly name: string;
  readonly description?: string;
  readonly source?: string;
  readonly plugins?: readonly string[];
  readonly pluginSelector?: { readonly categories?: readonly string[]; readonly tags?: readonly string[] };
  readonly naming?: Naming;
  readonly conflicts?: ConflictRule;
}
interface RawScope {
  readonly library?: string;
  readonly categories?: readonly string[];
  readonly tags?: readonly string[];
}
interface RawGrant extends RawScope {
  readonly libraries?: readonly string[];
}
interface RawOAuth {
  readonly issuer: string;
  readonly resource: string;
  readonly audiences?: readonly string[];
  readonly algorithms?: readonly string[];
  readonly clockSkew?: string | number;
  readonly scopes?: readonly string[];
  readonly introspection?: { readonly endpoint?: string; readonly clientId: string; readonly clientSecret: SecretRef };
  readonly page?: { readonly clientId: string; readonly clientSecret?: SecretRef; readonly redirect?: string };
  readonly rules?: readonly {
    readonly claim: string;
    readonly includes?: string;
    readonly equals?: string;
    readonly scope?: RawGrant;
    readonly admin?: boolean;
  }[];
  readonly default?: RawGrant;
}
interface RawClient {
  readonly name: string;
  readonly token: SecretRef;
  readonly scope?: RawScope;
  readonly admin?: boolean;
}

export const DEFAULT_TTL_MS = 60_000;
/** How long a personal install link lives when the config does not say: 90 days. */
export const DEFAULT_FEED_LIFETIME = 90 * 86_400_000;
const MAX_FEED_LIFETIME = 3650 * 86_400_000;
export const DEFAULT_FILE_BYTES = 8 * 1024 * 1024;
/** `file://` addresses are local folders, so no source may take that name. */
const RESERVED_SOURCE_NAMES = new Set(["file"]);
const SOURCE_URL = /^(git\+https|git\+http|git\+file|file|webdav\+https|webdav\+http):\/\/(.*)$/;
const DURATION_MAX_RULE = `must be at most ${MAX_DURATION_MS} ms (about 24.8 days)`;

export interface BuildResult {
  readonly config: Config;
  readonly problems: readonly Problem[];
}

/** Map schema-valid data to a Config; `problems` lists every further rule broken (the config is then unusable). */
export function buildConfig(raw: RawConfig, file: string | null, baseDir: string): BuildResult {
  const problems: Problem[] = [];
  const report = (segments: readonly (string | number)[], rule: string) => problems.push({ path: formatPointer(segments), rule });

  const sources = buildSources(raw.sources ?? [], report);
  // A source whose URL was refused still counts as declared, so its plugins do not each report it missing.
  const kinds = new Map<string, SourceConfig["kind"]>((raw.sources ?? []).map((s) => [s.name, "git"]));
  for (const s of sources) kinds.set(s.name, s.kind);
  const sourceWatch = new Map(sources.map((s) => [s.name, s.watch]));
  const address = (written: string, at: readonly (string | number)[]): PluginAddress | undefined => {
    const parsed = parsePluginAddress(written, kinds, baseDir);
    if (!parsed.ok) report(at, parsed.rule);
    return parsed.ok ? parsed.address : undefined;
  };

  const plugins: PluginConfig[] = [];
  const rawPlugins = raw.plugins ?? [];
  checkUnique(rawPlugins, "plugins", "plugin", report);
  for (const [i, p] of rawPlugins.entries()) {
    const where = ["plugins", i] as const;
    const addr = address(p.source, [...where, "source"]);
    for (const kind of ["skills", "prompts", "files"] as const) {
      // Stryker disable next-line ArrayDeclaration: equivalent; the mutant's one entry is a valid glob, which reports nothing.
      for (const [j, glob] of (p[kind] ?? []).entries()) {
        const bad = checkGlob(glob);
        if (bad !== undefined) report([...where, kind, j], bad);
      }
    }
    if (addr === undefined) continue;
    // A plugin inherits its source's `watch` unless it says otherwise.
    const watch = p.watch ?? (addr.kind === "source" ? sourceWatch.get(addr.source) : undefined) ?? true;
    plugins.push({
      name: p.name,
      address: addr,
      description: p.description ?? "",
      ...(p.category === undefined ? {} : { category: p.category }),
      tags: p.tags ?? [],
      keywords: p.keywords ?? [],
      ...(p.version === undefined ? {} : { version: p.version }),
      ...(p.skills === undefined ? {} : { skills: p.skills }),
      ...(p.prompts === undefined ? {} : { prompts: p.prompts }),
      ...(p.files === undefined ? {} : { files: p.files }),
      dialect: p.dialect ?? "auto",
      watch,
      ...(p.naming === undefined ? {} : { naming: p.naming }),
    });
  }

  const libraries = buildLibraries(raw, address, report);
  const clients = buildClients(raw, report);
  const anonymousScope =
    typeof raw.anonymous === "object" ? buildScope(raw, raw.anonymous.scope, ["anonymous", "scope"], report) : undefined;

  const oauth = raw.oauth === undefined ? undefined : buildOAuth(raw, raw.oauth, report);
  if (raw.anonymous === false && clients.length === 0 && raw.oauth === undefined) {
    report(["anonymous"], "must not be false when no clients and no oauth issuer are declared: every request would be refused");
  }
  const feeds = raw.feeds === undefined ? undefined : buildFeeds(raw.feeds, report);
  const ttlMs = parseDuration(raw.ttl ?? DEFAULT_TTL_MS) ?? DEFAULT_TTL_MS;
  if (ttlMs > MAX_DURATION_MS) report(["ttl"], DURATION_MAX_RULE);
  const fileBytes = parseSize(raw.limits?.fileBytes ?? DEFAULT_FILE_BYTES);
  if (fileBytes === undefined) report(["limits", "fileBytes"], "is too large");
  else if (fileBytes < 1) report(["limits", "fileBytes"], "must be at least 1 byte");

  const config: Config = {
    file,
    sources,
    plugins,
    libraries,
    clients,
    // Clients or an issuer make a server private unless the config opens it again.
    anonymous: raw.anonymous === undefined ? clients.length === 0 && raw.oauth === undefined : raw.anonymous !== false,
    ...(anonymousScope === undefined ? {} : { anonymousScope }),
    ...(oauth === undefined ? {} : { oauth }),
    ...(feeds === undefined ? {} : { feeds }),
    ...(raw.guard === undefined ? {} : { guard: { quarantine: raw.guard.quarantine ?? ["critical"], allow: raw.guard.allow ?? [] } }),
    ttlMs,
    limits: { fileBytes: fileBytes ?? DEFAULT_FILE_BYTES },
  };
  return { config, problems };
}

function buildFeeds(raw: NonNullable<RawConfig["feeds"]>, report: Report): FeedsConfig {
  const lifetimeMs = parseDuration(raw.lifetime ?? DEFAULT_FEED_LIFETIME) ?? DEFAULT_FEED_LIFETIME;
  if (lifetimeMs > MAX_FEED_LIFETIME)
    report(["feeds", "lifetime"], "must be at most 3650d: a link that never expires is revoked only by rotating the secret");
  else if (lifetimeMs < 1000) report(["feeds", "lifetime"], "must be at least 1s: a link must outlive the install it is made for");
  return { secret: raw.secret, lifetimeMs, revoked: raw.revoked ?? [] };
}

type Report = (segments: readonly (string | number)[], rule: string) => void;

function buildSources(raw: readonly RawSource[], report: Report): SourceConfig[] {
  checkUnique(raw, "sources", "source", report);
  const sources: SourceConfig[] = [];
  for (const [i, s] of raw.entries()) {
    if (RESERVED_SOURCE_NAMES.has(s.name)) report(["sources", i, "name"], `'${s.name}' is reserved: file:// addresses are local folders`);
    const url = checkSourceUrl(s.url);
    if (typeof url === "string") {
      report(["sources", i, "url"], url);
      continue;
    }
    if (url.kind === "file" && s.refresh !== undefined) report(["sources", i, "refresh"], "applies to git and WebDAV sources only");
    if (url.kind === "file" && s.auth !== undefined) report(["sources", i, "auth"], "applies to git and WebDAV sources only");
    if (url.kind !== "webdav" && s.cache !== undefined) {
      report(["sources", i, "cache"], `applies to WebDAV sources only, and '${s.name}' is a ${url.kind} source`);
    }
    if (url.kind === "webdav") checkWebdavAuth(s, i, report);
    let refreshMs: number | undefined;
    if (s.refresh !== undefined) {
      refreshMs = parseDuration(s.refresh);
      if (refreshMs === 0) report(["sources", i, "refresh"], "must be more than 0");
      else if ((refreshMs ?? 0) > MAX_DURATION_MS) report(["sources", i, "refresh"], DURATION_MAX_RULE);
    }
    sources.push({
      name: s.name,
      kind: url.kind,
      url: s.url,
      ...(refreshMs === undefined ? {} : { refreshMs }),
      ...(s.auth === undefined ? {} : { auth: s.auth }),
      watch: s.watch ?? true,
      ...(url.kind === "webdav" ? { cache: s.cache ?? "snapshot" } : {}),
    });
  }
  return sources;
}

/** A WebDAV share is always read as someone: a user name (plain or {env}) and a password from the environment. */
function checkWebdavAuth(s: RawSource, i: number, report: Report): void {
  if (s.auth === undefined) {
    report(["sources", i], `source '${s.name}' is a WebDAV source and needs auth: {username, password: {env: NAME}}`);
    return;
  }
  if (s.auth.username === undefined) report(["sources", i, "auth"], `source '${s.name}' is a WebDAV source and needs auth.username`);
  if (s.auth.password === undefined)
    report(["sources", i, "auth"], `source '${s.name}' is a WebDAV source and needs auth.password as {env: NAME}`);
}

/** `git+https://github.com` => {kind: "git"}; a URL breaking a rule => the rule (never echoing the URL). */
function checkSourceUrl(url: string): { readonly kind: SourceConfig["kind"] } | string {
  const m = SOURCE_URL.exec(url);
  if (m === null) return "a source URL starts with git+https://, git+http://, git+file://, file://, webdav+https:// or webdav+http://";
  // Stryker disable next-line StringLiteral: equivalent; both groups always take part in a match.
  const scheme = m[1] ?? "";
  // Stryker disable next-line StringLiteral: equivalent; both groups always take part in a match.
  const rest = m[2] ?? "";
  // Stryker disable next-line StringLiteral: equivalent; split() always yields a first part.
  const authority = rest.split(/[/?#]/, 1)[0] ?? "";
  // Credentials in a URL end up in logs, process lists and cache paths: they belong in `auth` as {env: NAME}.
  if (authority.includes("@")) return "a source URL must not carry userinfo (user:password@); give credentials in auth as {env: NAME}";
  if (/[?#]/.test(rest)) return "a source URL takes no query (?) or fragment (#)";
  if (/[\s\u0000-\u001f\u007f]/.test(rest)) return "a source URL must not contain spaces or control characters";
  const local = scheme === "file" || scheme === "git+file";
  if (local && (authority !== "" || rest === "/" || rest === "")) return `a ${scheme} URL is an absolute path, as ${scheme}:///path`;
  if (!local && authority === "") return `a ${scheme} URL names a host, as ${scheme}://host`;
  return { kind: scheme === "file" ? "file" : scheme.startsWith("webdav+") ? "webdav" : "git" };
}

function buildLibraries(
  raw: RawConfig,
  address: (written: string, at: readonly (string | number)[]) => PluginAddress | undefined,
  report: Report,
): LibraryConfig[] {
  checkUnique(raw.libraries, "libraries", "library", report);
  const pluginNames = new Set((raw.plugins ?? []).map((p) => p.name));
  const libraryHasSource = new Map(raw.libraries.map((l) => [l.name, l.source !== undefined]));
  const libraries: LibraryConfig[] = [];
  for (const [i, l] of raw.libraries.entries()) {
    const where = ["libraries", i] as const;
    if (l.source === undefined && (l.plugins ?? []).length === 0 && l.pluginSelector === undefined) {
      report(where, "a library needs at least one of source, plugins (not empty) or pluginSelector");
    }
    const source = l.source === undefined ? undefined : address(l.source, [...where, "source"]);
    const listed = new Map<string, number>();
    for (const [j, ref] of (l.plugins ?? []).entries()) {
      const at = [...where, "plugins", j];
      const first = listed.get(ref);
      if (first !== undefined) report(at, `plugin '${ref}' is already listed at ${formatPointer([...where, "plugins", first])}`);
      else listed.set(ref, j);
      const parts = ref.split("@");
      // Stryker disable next-line StringLiteral: equivalent; split() always yields a first part.
      const [entry = "", library] = parts;
      if (library === undefined) {
        if (!pluginNames.has(ref)) report(at, `no plugin named '${ref}' is declared; ${listNames("plugins", pluginNames)}`);
      } else if (!libraryHasSource.has(library)) {
        report(at, `no library named '${library}' is declared, so '${entry}@${library}' names no marketplace entry`);
      } else if (libraryHasSource.get(library) !== true) {
        report(at, `library '${library}' has no source (marketplace), so '${entry}@${library}' names no entry`);
      }
    }
    const selector: PluginSelector | undefined =
      l.pluginSelector === undefined
        ? undefined
        : { categories: l.pluginSelector.categories ?? [], tags: (l.pluginSelector.tags ?? []).map(normaliseTagItem) };
    libraries.push({
      name: l.name,
      description: l.description ?? "",
      ...(source === undefined ? {} : { source }),
      plugins: l.plugins ?? [],
      ...(selector === undefined ? {} : { pluginSelector: selector }),
      ...(l.naming === undefined ? {} : { naming: l.naming }),
      ...(l.conflicts === undefined ? {} : { conflicts: l.conflicts }),
    });
  }
  return libraries;
}

function buildClients(raw: RawConfig, report: Report): ClientConfig[] {
  const clients = raw.clients ?? [];
  checkUnique(clients, "clients", "client", report);
  const tokenOwner = new Map<string, string>();
  return clients.map((c, i) => {
    const scope = buildScope(raw, c.scope, ["clients", i, "scope"], report);
    // One token must identify one client, or a ceiling would depend on which client matched first.
    const owner = tokenOwner.get(c.token.env);
    if (owner !== undefined)
      report(["clients", i, "token", "env"], `client '${owner}' already uses this variable: a token identifies one client`);
    else tokenOwner.set(c.token.env, c.name);
    return { name: c.name, token: { env: c.token.env }, scope, admin: c.admin ?? false };
  });
}

/** A ceiling (a client's, or anonymous callers'): its library must be declared. */
function buildScope(raw: RawConfig, written: RawScope | undefined, at: readonly (string | number)[], report: Report): ScopeSpec {
  const library = written?.library;
  const libraryNames = new Set(raw.libraries.map((l) => l.name));
  if (library !== undefined && !libraryNames.has(library)) {
    report([...at, "library"], `no library named '${library}' is declared; ${listNames("libraries", libraryNames)}`);
  }
  return {
    ...(library === undefined ? {} : { library }),
    ...(written?.categories === undefined ? {} : { categories: written.categories }),
    ...(written?.tags === undefined ? {} : { tags: written.tags.map(normaliseTagItem) }),
  };
}

/** Leeway on exp and nbf beyond this would accept tokens long expired. */
const MAX_CLOCK_SKEW_MS = 5 * 60_000;
export const DEFAULT_CLOCK_SKEW_MS = 30_000;

function buildOAuth(raw: RawConfig, o: RawOAuth, report: Report): OAuthConfig | undefined {
  const at = (...rest: (string | number)[]) => ["oauth", ...rest];
  const issuer = checkServerUrl(o.issuer, "issuer");
  if (issuer !== undefined) report(at("issuer"), issuer);
  const resource = checkServerUrl(o.resource, "resource");
  if (resource !== undefined) report(at("resource"), resource);
  const clockSkewMs = parseDuration(o.clockSkew ?? DEFAULT_CLOCK_SKEW_MS) ?? DEFAULT_CLOCK_SKEW_MS;
  if (clockSkewMs > MAX_CLOCK_SKEW_MS) report(at("clockSkew"), "must be at most 5m: a longer leeway accepts tokens long expired");
  const endpoint = o.introspection?.endpoint;
  if (endpoint !== undefined) {
    const bad = checkServerUrl(endpoint, "endpoint");
    if (bad !== undefined) report(at("introspection", "endpoint"), bad);
  }
  const page = o.page === undefined || resource !== undefined ? undefined : buildPage(o.resource, o.page, report);
  const rules: ClaimRule[] = [];
  for (const [i, r] of (o.rules ?? []).entries()) {
    const where = at("rules", i);
    if ((r.includes === undefined) === (r.equals === undefined)) report(where, "a rule needs exactly one of includes or equals");
    if (r.scope === undefined && r.admin !== true) report(where, "the rule grants nothing: give it a scope, admin: true, or both");
    const grants = r.scope === undefined ? [] : buildGrant(raw, r.scope, [...where, "scope"], report);
    // Stryker disable next-line StringLiteral: equivalent; with neither key the rule was reported above, and a config with problems is never used.
    const match = r.includes !== undefined ? { includes: r.includes } : { equals: r.equals ?? "" };
    rules.push({ claim: r.claim, match, grants, admin: r.admin ?? false });
  }
  const defaults = o.default === undefined ? undefined : buildGrant(raw, o.default, at("default"), report);
  if (defaults !== undefined && defaults.length > 1) report(at("default", "libraries"), "the default ceiling names one library at most");
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

/** The route of the page that receives the provider's answer. */
export const PAGE_CALLBACK_PATH = "/signin/oidc/callback";

/** The page's client: its callback defaults to the page's route at the origin of `resource`. */
function buildPage(resource: string, p: NonNullable<RawOAuth["page"]>, report: Report): NonNullable<OAuthConfig["page"]> {
  const at = ["oauth", "page", "redirect"];
  let redirect = new URL(PAGE_CALLBACK_PATH, resource).href;
  if (p.redirect !== undefined) {
    const bad = checkServerUrl(p.redirect, "redirect");
    if (bad !== undefined) report(at, bad);
    else if (new URL(p.redirect).pathname !== PAGE_CALLBACK_PATH) {
      report(at, `the redirect's path must be ${PAGE_CALLBACK_PATH}, the page's route that receives the provider's answer`);
    } else redirect = p.redirect;
  }
  return {
    clientId: p.clientId,
    ...(p.clientSecret === undefined ? {} : { clientSecret: { env: p.clientSecret.env } }),
    redirect,
  };
}

/** A grant: a scope, or `libraries` standing for one scope per library (the rest of the keys shared). */
function buildGrant(raw: RawConfig, g: RawGrant, at: readonly (string | number)[], report: Report): ScopeSpec[] {
  if (g.library !== undefined && g.libraries !== undefined) {
    report(at, "give library or libraries, not both");
    // Stryker disable next-line ArrayDeclaration: equivalent; the problem is reported, and a config with problems is never used.
    return [];
  }
  const { libraries, ...rest } = g;
  const shared = buildScope(raw, rest, at, report);
  if (libraries === undefined) return [shared];
  if (libraries.length === 0) report([...at, "libraries"], "must list at least 1 (leave it out to grant every library)");
  const libraryNames = new Set(raw.libraries.map((l) => l.name));
  for (const [j, library] of libraries.entries()) {
    if (!libraryNames.has(library)) {
      report([...at, "libraries", j], `no library named '${library}' is declared; ${listNames("libraries", libraryNames)}`);
    }
  }
  return libraries.map((library) => ({ ...shared, library }));
}

/** An issuer, a resource or an endpoint: an absolute https URL (http only on a loopback host), no query or fragment. */
function checkServerUrl(written: string, what: string): string | undefined {
  let url: URL;
  try {
    url = new URL(written);
  } catch {
    return `the ${what} must be an absolute URL`;
  }
  const loopback = url.hostname === "localhost" || url.hostname === "127.0.0.1" || url.hostname === "[::1]";
  if (url.protocol !== "https:" && !(url.protocol === "http:" && loopback)) {
    return `the ${what} must be an https:// URL (http:// only on localhost, 127.0.0.1 or [::1])`;
  }
  if (url.username !== "" || url.password !== "") return `the ${what} must not carry userinfo (user:password@)`;
  if (url.search !== "" || url.hash !== "") return `the ${what} takes no query (?) or fragment (#)`;
  return undefined;
}

function checkUnique(items: readonly { readonly name: string }[], list: string, what: string, report: Report): void {
  const first = new Map<string, number>();
  for (const [i, item] of items.entries()) {
    const at = first.get(item.name);
    if (at === undefined) first.set(item.name, i);
    else report([list, i, "name"], `duplicate ${what} name '${item.name}'; the first is ${formatPointer([list, at])}`);
  }
}

function listNames(what: string, names: ReadonlySet<string>): string {
  return names.size === 0 ? `no ${what} are declared` : `the ${what} are: ${[...names].join(", ")}`;
}
