// Percentiles, closed-loop load, and number formatting shared by every benchmark.

/** Nearest-rank percentile of an already sorted array: p in [0, 1]. */
export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}

export function median(values) {
  return percentile(
    [...values].sort((a, b) => a - b),
    0.5,
  );
}

/**
 * Closed-loop load: `concurrency` workers each send the next call as soon as their previous one answered, for
 * `durationMs` after `warmupMs` of unmeasured calls. `call(i)` sends the i-th call and resolves to
 * `{bytes, ok}`; `ok: false` marks an answer that was not the expected one (counted, never retried).
 */
export async function runLoad(call, { concurrency, durationMs, warmupMs = 300, maxCalls = Infinity }) {
  let index = 0;
  const warmEnd = performance.now() + warmupMs;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < warmEnd) await call(index++);
    }),
  );
  const latencies = [];
  let bytes = 0;
  let failures = 0;
  let calls = 0;
  const t0 = performance.now();
  const end = t0 + durationMs;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end && calls < maxCalls) {
        calls++;
        const start = performance.now();
        const outcome = await call(index++);
        latencies.push(performance.now() - start);
        bytes += outcome.bytes;
        if (!outcome.ok) failures++;
      }
    }),
  );
  const wallMs = performance.now() - t0;
  latencies.sort((a, b) => a - b);
  return {
    concurrency,
    calls: latencies.length,
    perSecond: (latencies.length / wallMs) * 1000,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    meanBytes: latencies.length === 0 ? 0 : bytes / latencies.length,
    failures,
  };
}

/** `1234.5` => `1,235`; `12.345` => `12.3`; `0.01234` => `0.0123`. */
export function formatNumber(value, digits) {
  if (value === null || value === undefined || Number.isNaN(value)) return "—";
  const abs = Math.abs(value);
  const d = digits ?? (abs >= 100 ? 0 : abs >= 10 ? 1 : abs >= 1 ? 2 : 3);
  return value.toLocaleString("en-US", { minimumFractionDigits: d, maximumFractionDigits: d });
}

export function formatBytes(bytes) {
  if (bytes === null || bytes === undefined) return "—";
  if (bytes < 10_000) return `${formatNumber(bytes, 0)} B`;
  if (bytes < 10_000_000) return `${formatNumber(bytes / 1024, 1)} KB`;
  return `${formatNumber(bytes / 1048576, 1)} MB`;
}

export function formatMs(ms) {
  if (ms === null || ms === undefined || Number.isNaN(ms)) return "—";
  if (ms < 1) return `${formatNumber(ms * 1000, ms < 0.01 ? 2 : 1)} µs`;
  if (ms < 10_000) return `${formatNumber(ms)} ms`;
  return `${formatNumber(ms / 1000, 1)} s`;
}

/** `ours / reference` as `0.84×`; `—` when either is missing. */
export function formatRatio(ours, reference) {
  if (!ours || !reference) return "—";
  return `${formatNumber(ours / reference, 2)}×`;
}

/** A plain-text table (also valid Markdown): the first row is the header. */
export function formatTable(rows) {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => String(row[c] ?? "").length)));
  const line = (row) => `| ${row.map((cell, c) => String(cell ?? "").padEnd(widths[c])).join(" | ")} |`;
  return [line(rows[0]), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...rows.slice(1).map(line)].join("\n");
}
