// Schema-valid data → typed Config, checking what a schema cannot say: names that must exist or be unique,
// addresses, globs, source URLs, and the values sizes and durations stand for. One pass per part of the file
// (build-*.ts), in document order, each reporting every rule it finds broken (rules.ts states them all).
import { buildGuard } from "./build-guard.js";
import { buildClients, buildScope, libraryNamesOf } from "./build-access.js";
import { buildLibraries } from "./build-libraries.js";
import { buildOAuth } from "./build-oauth.js";
import { buildPlugins } from "./build-plugins.js";
import { addressResolver, buildSources } from "./build-sources.js";
import { buildUsage } from "./build-usage.js";
import { DEFAULT_FEED_LIFETIME_MS, DEFAULT_FILE_BYTES, DEFAULT_TTL_MS } from "./defaults.js";
import type { RawConfig, RawFeeds } from "./raw.js";
import type { Report } from "./report.js";
import { RULE } from "./rules.js";
import type { Config, FeedsConfig } from "./types.js";
import { MAX_DURATION_MS, parseDuration, parseSize } from "./units.js";
import { formatPointer, type Problem } from "./yaml-doc.js";

const MAX_FEED_LIFETIME_MS = 3650 * 86_400_000;

export interface BuildResult {
  readonly config: Config;
  readonly problems: readonly Problem[];
}

/** Map schema-valid data to a Config; `problems` lists every further rule broken (the config is then unusable). */
export function buildConfig(raw: RawConfig, file: string | null, baseDir: string): BuildResult {
  const problems: Problem[] = [];
  const report: Report = (segments, rule) => problems.push({ path: formatPointer(segments), rule });

  const sources = buildSources(raw.sources ?? [], report);
  const address = addressResolver(raw.sources ?? [], sources, baseDir, report);
  const plugins = buildPlugins(raw.plugins ?? [], sources, address, report);
  const libraries = buildLibraries(raw.libraries, raw.plugins ?? [], address, report);
  const libraryNames = libraryNamesOf(raw.libraries);
  const clients = buildClients(raw.clients ?? [], libraryNames, report);
  const anonymousScope =
    typeof raw.anonymous === "object" ? buildScope(raw.anonymous.scope, libraryNames, ["anonymous", "scope"], report) : undefined;
  const oauth = raw.oauth === undefined ? undefined : buildOAuth(raw.oauth, libraryNames, report);
  if (raw.anonymous === false && clients.length === 0 && oauth === undefined) report(["anonymous"], RULE.nobodyServed);
  const feeds = raw.feeds === undefined ? undefined : buildFeeds(raw.feeds, report);
  const usage = raw.usage === undefined ? undefined : buildUsage(raw.usage, report);
  const guard = buildGuard(raw.guard, libraryNames, baseDir, report);
  const { ttlMs, fileBytes } = buildValues(raw, report);

  const config: Config = {
    file,
    sources,
    plugins,
    libraries,
    clients,
    // Clients or an issuer make a server private unless the config opens it again.
    anonymous: raw.anonymous === undefined ? clients.length === 0 && oauth === undefined : raw.anonymous !== false,
    ...(anonymousScope === undefined ? {} : { anonymousScope }),
    ...(oauth === undefined ? {} : { oauth }),
    ...(feeds === undefined ? {} : { feeds }),
    ...(usage === undefined ? {} : { usage }),
    ...(guard === undefined ? {} : { guard }),
    ttlMs,
    limits: { fileBytes },
  };
  return { config, problems };
}

/** Personal install links: a lifetime long enough for an install, short enough to expire. */
function buildFeeds(raw: RawFeeds, report: Report): FeedsConfig {
  const lifetimeMs = parseDuration(raw.lifetime ?? DEFAULT_FEED_LIFETIME_MS) ?? DEFAULT_FEED_LIFETIME_MS;
  if (lifetimeMs > MAX_FEED_LIFETIME_MS) report(["feeds", "lifetime"], RULE.feedLifetimeMax);
  else if (lifetimeMs < 1000) report(["feeds", "lifetime"], RULE.feedLifetimeMin);
  return { secret: raw.secret, lifetimeMs, revoked: raw.revoked ?? [] };
}

/** The durations and sizes of the top level, within what a timer holds and a file can be. */
function buildValues(raw: RawConfig, report: Report): { readonly ttlMs: number; readonly fileBytes: number } {
  const ttlMs = parseDuration(raw.ttl ?? DEFAULT_TTL_MS) ?? DEFAULT_TTL_MS;
  if (ttlMs > MAX_DURATION_MS) report(["ttl"], RULE.durationMax);
  const fileBytes = parseSize(raw.limits?.fileBytes ?? DEFAULT_FILE_BYTES);
  if (fileBytes === undefined) report(["limits", "fileBytes"], RULE.fileBytesTooLarge);
  else if (fileBytes < 1) report(["limits", "fileBytes"], RULE.fileBytesMin);
  return { ttlMs, fileBytes: fileBytes ?? DEFAULT_FILE_BYTES };
}
