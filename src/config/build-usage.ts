// Usage counting (docs/usage.md): where counts are kept, what a signed-in user is recorded as, how long daily rows
// live and how often the buffer is written.
import type { RawUsage } from "./raw.js";
import type { Report } from "./report.js";
import { RULE } from "./rules.js";
import type { UsageConfig } from "./types.js";
import { MAX_DURATION_MS, parseDuration } from "./units.js";

const DAY_MS = 86_400_000;
const DEFAULT_USAGE_RETENTION_MS = 400 * DAY_MS;
const DEFAULT_USAGE_FLUSH_MS = 10_000;
const DEFAULT_USAGE_BUFFER = 10_000;

export function buildUsage(raw: RawUsage, report: Report): UsageConfig {
  const retentionMs = parseDuration(raw.retention ?? DEFAULT_USAGE_RETENTION_MS) ?? DEFAULT_USAGE_RETENTION_MS;
  // Rows are daily: a retention shorter than a day would delete today's counts as they are written.
  if (retentionMs < DAY_MS) report(["usage", "retention"], RULE.usageRetentionMin);
  const flushMs = parseDuration(raw.flush ?? DEFAULT_USAGE_FLUSH_MS) ?? DEFAULT_USAGE_FLUSH_MS;
  if (flushMs < 100) report(["usage", "flush"], RULE.usageFlushMin);
  else if (flushMs > MAX_DURATION_MS) report(["usage", "flush"], RULE.durationMax);
  return {
    ...(raw.database === undefined ? {} : { database: raw.database }),
    claim: raw.claim ?? "groups",
    retentionMs,
    flushMs,
    buffer: raw.buffer ?? DEFAULT_USAGE_BUFFER,
  };
}
