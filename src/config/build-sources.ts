// Sources: unique names, URLs that name a kind of source (never with credentials), keys that apply to that kind,
// and the resolver of plugin addresses against the sources declared.
import { parsePluginAddress } from "./address.js";
import type { RawSource } from "./raw.js";
import { checkUnique, type Report, type Where } from "./report.js";
import { RULE } from "./rules.js";
import { SOURCE_KINDS } from "./source-kinds.js";
import type { PluginAddress, SourceConfig } from "./types.js";
import { MAX_DURATION_MS, parseDuration } from "./units.js";

/** `file://` addresses are local folders, so no source may take that name. */
const RESERVED_SOURCE_NAMES = new Set(["file"]);
/** `<scheme>://<rest>`: the scheme picks the source's kind from the registry. */
const SOURCE_URL = /^([a-z][a-z0-9+.-]*):\/\/(.*)$/;

export function buildSources(raw: readonly RawSource[], report: Report): SourceConfig[] {
  checkUnique(raw, "sources", "source", report);
  const sources: SourceConfig[] = [];
  for (const [i, s] of raw.entries()) {
    if (RESERVED_SOURCE_NAMES.has(s.name)) report(["sources", i, "name"], RULE.reservedSource(s.name));
    const url = checkSourceUrl(s.url);
    if (typeof url === "string") {
      report(["sources", i, "url"], url);
      continue;
    }
    if (url.kind === "file" && s.refresh !== undefined) report(["sources", i, "refresh"], RULE.remoteOnly);
    if (url.kind === "file" && s.auth !== undefined) report(["sources", i, "auth"], RULE.remoteOnly);
    if (url.kind !== "webdav" && s.cache !== undefined) report(["sources", i, "cache"], RULE.webdavOnly(s.name, url.kind));
    if (url.kind === "webdav") checkWebdavAuth(s, i, report);
    let refreshMs: number | undefined;
    if (s.refresh !== undefined) {
      refreshMs = parseDuration(s.refresh);
      if (refreshMs === 0) report(["sources", i, "refresh"], RULE.refreshZero);
      else if ((refreshMs ?? 0) > MAX_DURATION_MS) report(["sources", i, "refresh"], RULE.durationMax);
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
    report(["sources", i], RULE.webdavAuth(s.name));
    return;
  }
  if (s.auth.username === undefined) report(["sources", i, "auth"], RULE.webdavUsername(s.name));
  if (s.auth.password === undefined) report(["sources", i, "auth"], RULE.webdavPassword(s.name));
}

/** `git+https://github.com` => {kind: "git"}; a URL breaking a rule => the rule (never echoing the URL). */
function checkSourceUrl(url: string): { readonly kind: SourceConfig["kind"] } | string {
  const m = SOURCE_URL.exec(url);
  // Stryker disable next-line StringLiteral: equivalent; both groups always take part in a match.
  const scheme = m?.[1] ?? "";
  const rules = SOURCE_KINDS.ofScheme(scheme);
  if (m === null || rules === undefined)
    return RULE.sourceUrlScheme(SOURCE_KINDS.all().flatMap((kind) => kind.schemes.map((s) => `${s}://`)));
  // Stryker disable next-line StringLiteral: equivalent; both groups always take part in a match.
  const rest = m[2] ?? "";
  // Stryker disable next-line StringLiteral: equivalent; split() always yields a first part.
  const authority = rest.split(/[/?#]/, 1)[0] ?? "";
  // Credentials in a URL end up in logs, process lists and cache paths: they belong in `auth` as {env: NAME}.
  if (authority.includes("@")) return RULE.sourceUrlUserinfo;
  if (/[?#]/.test(rest)) return RULE.sourceUrlQuery;
  if (/[\s\u0000-\u001f\u007f]/.test(rest)) return RULE.sourceUrlControl;
  const local = rules.pathSchemes?.includes(scheme) === true;
  if (local && (authority !== "" || rest === "/" || rest === "")) return RULE.sourceUrlPath(scheme);
  if (!local && authority === "") return RULE.sourceUrlHost(scheme);
  return { kind: rules.kind };
}

/** Resolves a written plugin address against the sources, reporting the rule it breaks. */
export type ResolveAddress = (written: string, at: Where) => PluginAddress | undefined;

/** The address resolver for `built` sources. A source whose URL was refused still counts as declared (as git), so
 *  its plugins do not each report it missing. */
export function addressResolver(
  raw: readonly RawSource[],
  built: readonly SourceConfig[],
  baseDir: string,
  report: Report,
): ResolveAddress {
  const kinds = new Map<string, SourceConfig["kind"]>(raw.map((s) => [s.name, "git"]));
  for (const s of built) kinds.set(s.name, s.kind);
  return (written, at) => {
    const parsed = parsePluginAddress(written, kinds, baseDir);
    if (!parsed.ok) report(at, parsed.rule);
    return parsed.ok ? parsed.address : undefined;
  };
}
