// What the config means where it says nothing. The schema states each default (`default` in CONFIG_SCHEMA, shown to
// editors and in config.schema.json); the numbers here are those values parsed, so the two cannot disagree.
import { CONFIG_SCHEMA } from "./schema.js";
import { parseDuration, parseSize } from "./units.js";

function parsed(value: number | undefined, key: string): number {
  // Stryker disable next-line all: equivalent; every default of the schema parses (tested), so this never throws.
  if (value === undefined) throw new Error(`the schema's default for ${key} does not parse`);
  return value;
}

export const DEFAULT_TTL_MS = parsed(parseDuration(CONFIG_SCHEMA.properties.ttl.default), "ttl");
export const DEFAULT_FILE_BYTES = parsed(parseSize(CONFIG_SCHEMA.properties.limits.properties.fileBytes.default), "limits.fileBytes");
/** How long a personal install link lives when the config does not say. */
export const DEFAULT_FEED_LIFETIME_MS = parsed(parseDuration(CONFIG_SCHEMA.properties.feeds.properties.lifetime.default), "feeds.lifetime");
export const DEFAULT_CLOCK_SKEW_MS = parsed(parseDuration(CONFIG_SCHEMA.$defs.oauth.properties.clockSkew.default), "oauth.clockSkew");
/** The severities that quarantine when the config's `guard` does not say. */
export const DEFAULT_GUARD_QUARANTINE: readonly "critical"[] = CONFIG_SCHEMA.$defs.guard.properties.quarantine.default;

const SCANNER = CONFIG_SCHEMA.$defs.guardScanner.properties;
export const DEFAULT_SCANNER_TIMEOUT_MS = parsed(parseDuration(SCANNER.timeout.default), "guard.scanner.timeout");
export const DEFAULT_SCANNER_CONCURRENCY = SCANNER.concurrency.default;
export const DEFAULT_SCANNER_ON_FAILURE = SCANNER.onFailure.default;

/** The route of the page that receives the provider's answer (the default `oauth.page.redirect` is it at the origin
 *  of `oauth.resource`). */
export const PAGE_CALLBACK_PATH = "/signin/oidc/callback";
