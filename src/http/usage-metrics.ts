// Usage on /metrics (prom-client): totals since the start of reads by library and surface, of searches and of
// prompts rendered by surface, and the store's pending, dropped and written uses. Bounded: a library is one the
// config names and a surface one the code names; never a skill, a query or a client, which stay in the store.
import { Counter, Gauge, type Registry } from "prom-client";
import type { UsageStatus } from "../store/index.js";

/** Counts of uses since the start, held per label set (a handful: libraries × surfaces). */
export class UsageTotals {
  readonly reads = new Map<string, { library: string; surface: string; count: number }>();
  readonly searches = new Map<string, number>();
  readonly prompts = new Map<string, number>();

  read(library: string, surface: string): void {
    const key = `${library}\u0000${surface}`;
    const row = this.reads.get(key) ?? { library, surface, count: 0 };
    row.count++;
    this.reads.set(key, row);
  }

  searched(surface: string): void {
    this.searches.set(surface, (this.searches.get(surface) ?? 0) + 1);
  }

  prompted(surface: string): void {
    this.prompts.set(surface, (this.prompts.get(surface) ?? 0) + 1);
  }
}

/** Registers the usage series on `registry`; each copies `totals` and `status()` at scrape time. */
export function registerUsageMetrics(registry: Registry, totals: UsageTotals, status: () => UsageStatus): void {
  const registers = [registry];
  new Counter({
    name: "skillshelf_usage_reads_total",
    help: "Reads of skills' files counted for usage since the start, by library and surface",
    labelNames: ["library", "surface"],
    registers,
    collect() {
      this.reset();
      for (const { library, surface, count } of totals.reads.values()) this.inc({ library, surface }, count);
    },
  });
  const bySurface = (name: string, help: string, counts: ReadonlyMap<string, number>): void => {
    new Counter({
      name,
      help,
      labelNames: ["surface"],
      registers,
      collect() {
        this.reset();
        for (const [surface, count] of counts) this.inc({ surface }, count);
      },
    });
  };
  bySurface("skillshelf_usage_searches_total", "Searches counted for usage since the start, by surface", totals.searches);
  bySurface("skillshelf_usage_prompts_total", "Prompts rendered and counted for usage since the start, by surface", totals.prompts);
  new Gauge({
    name: "skillshelf_usage_pending",
    help: "Uses held in memory, not yet written to the usage database",
    registers,
    collect() {
      this.set(status().pending);
    },
  });
  const fromStatus = (name: string, help: string, value: (usage: UsageStatus) => number): void => {
    new Counter({
      name,
      help,
      registers,
      collect() {
        this.reset();
        this.inc(value(status()));
      },
    });
  };
  fromStatus(
    "skillshelf_usage_dropped_total",
    "Uses dropped since the start: the buffer was full while the database was away",
    (u) => u.dropped,
  );
  fromStatus("skillshelf_usage_written_total", "Uses written to the usage database since the start", (u) => u.written);
  fromStatus(
    "skillshelf_usage_searches_untracked_total",
    "Searches pushed out of the follow window's bound: whether a read followed them is unknown",
    (u) => u.searchesUntracked,
  );
}
