import { execFile } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { compareRuns, figuresOf, formatAgainst, formatValue } from "../../bench/lib/compare.mjs";
import { evaluateTargets, formatReport } from "../../bench/report.mjs";
import { formatUsage, usageTarget } from "../../bench/usage-report.mjs";
import { tempDir } from "../support/temp.js";

const ROOT = path.resolve(import.meta.dirname, "../..");
const run = promisify(execFile);

/** What bench/usage.mjs prints for a run, its numbers chosen to be written exactly. */
function usage(overrides: { overheadPct?: number; roundOverheadsPct?: number[]; postgresql?: unknown } = {}) {
  const engine = (name: string, flush: number) => ({
    engine: name,
    reads: 1_000_000,
    days: 30,
    rows: 650_128,
    written: 1_020_000,
    tableMB: 246.4,
    tableMBPerMillionReads: 246.4,
    dayFlush: { rows: 21_671, p50Ms: flush * 9, maxMs: flush * 12 },
    flush1000Rows: { p50Ms: flush, p90Ms: flush + 12, maxMs: flush + 30 },
  });
  return {
    node: "v20.20.2",
    cpus: 2,
    loadavg: [1.2, 1.3, 1.4],
    skills: 9912,
    flushMs: 10_000,
    reads: {
      perRound: 20_000,
      rounds: 9,
      offPerSec: 250_873,
      onPerSec: 171_106,
      countMicros: 1.3,
      written: 1000,
      dropped: 0,
      overheadPct: 31.8,
    },
    http: {
      inFlight: 8,
      seconds: 5,
      rounds: 9,
      offPerSec: 1493.2,
      onPerSec: 1436.4,
      overheadPct: overrides.overheadPct ?? 2.3,
      roundOverheadsPct: overrides.roundOverheadsPct ?? [-1.25, 0.5, 2.3, 4.75],
    },
    pglite: { ...engine("embedded", 98), folderMB: 687.2 },
    postgresql: "postgresql" in overrides ? overrides.postgresql : engine("postgresql", 84),
  };
}

const NO_BASELINE = { header: [], cells: () => [] };

describe("the usage section's table", () => {
  it("writes the HTTP cost with its target, the count, and the store and flushes of each engine", () => {
    expect(formatUsage(usage(), NO_BASELINE)).toEqual([
      "### Usage counting (9,912 skills served; the store flushing every 10 s; load average 1.20 at the end)\n",
      [
        "| figure                                                                                                                                                    | measured | target                    |",
        "|-----------------------------------------------------------------------------------------------------------------------------------------------------------|----------|---------------------------|",
        "| resources/read over HTTP, 8 in flight: fewer reads/s with counting on (median of 9 paired rounds of 5.0 s, from −1.3 % to 4.8 %; 1,493/s off, 1,436/s on) | 2.3 %    | ≤ 3 % fewer reads/s: pass |",
        "| one count, in process (cached reads 250,873/s off, 171,106/s on, the store's flushes in the same thread)                                                  | 1.30 µs  | —                         |",
        "| store per million reads, PGlite (usage_reads with its indexes: 650,128 rows for 1,000,000 reads over 30 days; its folder 687 MB)                          | 246 MB   | —                         |",
        "| flush of 1,000 rows, PGlite, p50                                                                                                                          | 98.0 ms  | —                         |",
        "| flush of 1,000 rows, PGlite, p90                                                                                                                          | 110 ms   | —                         |",
        "| flush of a day's rows (21,671), PGlite, p50                                                                                                               | 882 ms   | —                         |",
        "| store per million reads, PostgreSQL (usage_reads with its indexes: 650,128 rows for 1,000,000 reads over 30 days)                                         | 246 MB   | —                         |",
        "| flush of 1,000 rows, PostgreSQL, p50                                                                                                                      | 84.0 ms  | —                         |",
        "| flush of 1,000 rows, PostgreSQL, p90                                                                                                                      | 96.0 ms  | —                         |",
        "| flush of a day's rows (21,671), PostgreSQL, p50                                                                                                           | 756 ms   | —                         |",
      ].join("\n"),
    ]);
  });

  it("shows PostgreSQL left out, with the reason the run gave", () => {
    const lines = formatUsage(usage({ postgresql: "left out: no --postgres=URL and no initdb" }), NO_BASELINE);
    expect(lines[1]?.split("\n").slice(-2)).toEqual([
      "| flush of a day's rows (21,671), PGlite, p50                                                                                                               | 882 ms                                    | —                         |",
      "| store and flushes on PostgreSQL                                                                                                                           | left out: no --postgres=URL and no initdb | —                         |",
    ]);
  });

  it("passes at 3 % fewer reads/s and misses above it", () => {
    expect(usageTarget(usage({ overheadPct: 3 }))).toEqual({
      figure: "counting uses: resources/read over HTTP, 8 in flight",
      target: "≤ 3 % fewer reads/s",
      measured: "3.0 % (median of 9 paired rounds, from −1.3 % to 4.8 %)",
      pass: true,
    });
    expect(usageTarget(usage({ overheadPct: 3.04, roundOverheadsPct: [3.04] })).pass).toBe(false);
    expect(formatUsage(usage({ overheadPct: 3.04, roundOverheadsPct: [3.04] }), NO_BASELINE)[1]?.split("\n")[2]).toContain(
      "| 3.0 %    | ≤ 3 % fewer reads/s: **miss** |",
    );
  });
});

describe("the usage section in a run's report", () => {
  it("renders a run of the usage section alone: its table and its target", () => {
    const results = {
      machine: {
        cpus: 2,
        cpuModel: "AMD EPYC",
        memGB: 24,
        node: "v20.20.2",
        os: "Linux 6",
        commit: "abc1234",
        built: "2026-12-04 07:00",
        sdk: "2.4.0",
      },
      command: "npm run bench -- --sections=usage",
      params: { n: 10_000, seed: 7, durationMs: 3000, warmupMs: 500, coldRuns: 3, concurrency: [1, 8] },
      usage: usage({ overheadPct: 4.5, roundOverheadsPct: [4.5], postgresql: "left out: no initdb" }),
    };
    expect(evaluateTargets(results)).toEqual([
      {
        figure: "counting uses: resources/read over HTTP, 8 in flight",
        target: "≤ 3 % fewer reads/s",
        measured: "4.5 % (median of 9 paired rounds, from 4.5 % to 4.5 %)",
        pass: false,
        note: "",
      },
    ]);
    expect(formatReport(results)).toBe(
      [
        "Machine: 2 cores (AMD EPYC), 24 GB RAM, Node v20.20.2, Linux 6",
        "Code: skillshelf abc1234 (dist/ built 2026-12-04 07:00 UTC), @modelcontextprotocol/server 2.4.0",
        "Command: npm run bench -- --sections=usage",
        "Shelf: 10k skills, seed 7; 3 s per load after 0.5 s warm-up; 3 cold start(s)",
        "",
        "### Usage counting (9,912 skills served; the store flushing every 10 s; load average 1.20 at the end)\n",
        "| figure                                                                                                                                                   | measured            | target                        |",
        "|----------------------------------------------------------------------------------------------------------------------------------------------------------|---------------------|-------------------------------|",
        "| resources/read over HTTP, 8 in flight: fewer reads/s with counting on (median of 9 paired rounds of 5.0 s, from 4.5 % to 4.5 %; 1,493/s off, 1,436/s on) | 4.5 %               | ≤ 3 % fewer reads/s: **miss** |",
        "| one count, in process (cached reads 250,873/s off, 171,106/s on, the store's flushes in the same thread)                                                 | 1.30 µs             | —                             |",
        "| store per million reads, PGlite (usage_reads with its indexes: 650,128 rows for 1,000,000 reads over 30 days; its folder 687 MB)                         | 246 MB              | —                             |",
        "| flush of 1,000 rows, PGlite, p50                                                                                                                         | 98.0 ms             | —                             |",
        "| flush of 1,000 rows, PGlite, p90                                                                                                                         | 110 ms              | —                             |",
        "| flush of a day's rows (21,671), PGlite, p50                                                                                                              | 882 ms              | —                             |",
        "| store and flushes on PostgreSQL                                                                                                                          | left out: no initdb | —                             |",
        "",
        "### Targets (10k-skill shelf)\n",
        "| figure                                               | target              | measured                                               | verdict  |",
        "|------------------------------------------------------|---------------------|--------------------------------------------------------|----------|",
        "| counting uses: resources/read over HTTP, 8 in flight | ≤ 3 % fewer reads/s | 4.5 % (median of 9 paired rounds, from 4.5 % to 4.5 %) | **miss** |",
      ].join("\n"),
    );
  });
});

describe("the usage section against a baseline", () => {
  it("takes every figure under a stable id, lower being better, and none of an engine left out", () => {
    expect(figuresOf({ usage: usage({ postgresql: "left out: no initdb" }) }).map((f) => [f.id, f.value, f.unit, f.better])).toEqual([
      ["usage/http-overhead", 2.3, "%", "lower"],
      ["usage/count", 0.0013, "ms", "lower"],
      ["usage/pglite/size", 246.4, "MB", "lower"],
      ["usage/pglite/flush-1000-p50", 98, "ms", "lower"],
      ["usage/pglite/flush-1000-p90", 110, "ms", "lower"],
      ["usage/pglite/flush-day", 882, "ms", "lower"],
    ]);
    expect(
      figuresOf({ usage: usage() })
        .map((f) => f.id)
        .slice(6),
    ).toEqual([
      "usage/postgresql/size",
      "usage/postgresql/flush-1000-p50",
      "usage/postgresql/flush-1000-p90",
      "usage/postgresql/flush-day",
    ]);
  });

  it("holds the HTTP cost against the baseline's in percentage points, flagged past 3 points worse", () => {
    const { rows, flags } = compareRuns([{ usage: usage({ overheadPct: 4.5 }) }], [{ usage: usage({ overheadPct: 1.4 }) }]);
    const overhead = rows.find((r) => r.id === "usage/http-overhead");
    expect([formatValue(overhead?.ours, "%"), formatValue(overhead?.base, "%"), formatAgainst(overhead?.comparison)]).toEqual([
      "4.5 %",
      "1.4 %",
      "+3.1 points ⚠",
    ]);
    expect(flags.map((f) => f.id)).toEqual(["usage/http-overhead"]);
    const better = compareRuns([{ usage: usage({ overheadPct: -0.5 }) }], [{ usage: usage({ overheadPct: 2.5 }) }]);
    expect(formatAgainst(better.rows[0]?.comparison)).toBe("−3.0 points");
    expect(formatValue(-0.5, "%")).toBe("−0.5 %");
    const even = compareRuns([{ usage: usage({ overheadPct: 4.5 }) }], [{ usage: usage({ overheadPct: 1.5 }) }]);
    expect(even.flags).toEqual([]);
  });

  it("leaves a figure the baseline did not measure without a comparison", () => {
    const { rows } = compareRuns([{ usage: usage() }], [{ usage: usage({ postgresql: "left out: no initdb" }) }]);
    expect(rows.filter((r) => r.comparison === null).map((r) => r.id)).toEqual([
      "usage/postgresql/size",
      "usage/postgresql/flush-1000-p50",
      "usage/postgresql/flush-1000-p90",
      "usage/postgresql/flush-day",
    ]);
  });
});

describe("the usage section's flags", () => {
  it("is a section of npm run bench", async () => {
    const dir = tempDir("bench-usage-flags-");
    const refused = run(process.execPath, [path.join(ROOT, "bench/run.mjs"), `--dir=${dir}`, "--sections=usage,nope"]);
    await expect(refused).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining(
        '--sections: no section "nope" (there are build, serve, change, kdense, webdav, search, discovery, guard, plugins, startup, usage, scale)',
      ),
    });
    expect(readdirSync(path.join(dir, "runs"))).toEqual([]);
  });

  it("refuses a bad flag of bench/usage.mjs before it measures anything", async () => {
    const script = path.join(ROOT, "bench/usage.mjs");
    const refusal = async (flag: string) => {
      try {
        await run(process.execPath, [script, flag]);
      } catch (error) {
        return String((error as { stderr: string }).stderr).match(/Error: (bench\/usage\.mjs: .*)/)?.[1];
      }
      throw new Error(`${flag} was accepted`);
    };
    expect(await refusal("--rounds=0")).toBe('bench/usage.mjs: --rounds must be a whole number ≥ 1, not "0"');
    expect(await refusal("--http-ms=2.5")).toBe('bench/usage.mjs: --http-ms must be a whole number ≥ 1, not "2.5"');
    expect(await refusal("--round=3")).toBe(
      "bench/usage.mjs: no flag --round (there are --n, --seed, --dir, --reads, --days, --rounds, --round-reads, --http-ms, --flush-ms, --postgres, --config, --dist)",
    );
    const missing = path.join(tempDir("bench-usage-config-"), "skillshelf.yaml");
    expect(await refusal(`--config=${missing}`)).toBe(`bench/usage.mjs: --config: no file ${missing}`);
  });
});
