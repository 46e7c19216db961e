// GET /metrics in the Prometheus text format (prom-client): requests by route, method and outcome with their
// latency, rebuilds and their durations, and — read from the shelf being served at scrape time — the generation,
// per-library counts, fetch and watch states, the read cache, and Node's default process metrics.
import type { NextFunction, Request, Response } from "express";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { ruleLabel, SEVERITIES } from "../guard/index.js";
import { buildHealth, type HealthReport } from "../health/index.js";
import type { ShelfHolder } from "../live/index.js";
import type { Shelf } from "../shelf/index.js";
import { callerOf } from "./access.js";
import { mcpMethodOf, outcomeOf, routeLabel, targetOf, type RequestRecord } from "./metric-labels.js";

export { routeLabel, type RequestRecord } from "./metric-labels.js";

export interface ReadCacheStats {
  readonly hits: number;
  readonly misses: number;
}

export class ServerMetrics {
  readonly registry = new Registry();
  /** The MCP methods that are labels: those the server registered (`labelMethods`). */
  private methods: ReadonlySet<string> = new Set();

  /** The `method` label of a POST to /mcp with this body. */
  methodLabel(body: unknown): string {
    return mcpMethodOf(body, this.methods);
  }

  /** The app names the methods its MCP servers answer, once, before the first request. */
  labelMethods(methods: Iterable<string>): void {
    this.methods = new Set(methods);
  }

  private readonly requests: Counter<"route" | "method" | "outcome">;
  private readonly latency: Histogram<"route" | "method" | "outcome">;
  private readonly rebuilds: Counter<"result">;
  private readonly rebuildSeconds: Histogram;
  private holder: ShelfHolder | undefined;
  private cache: ReadCacheStats | undefined;

  constructor(private readonly onRequest?: (record: RequestRecord) => void) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.requests = new Counter({
      name: "skillshelf_http_requests_total",
      help: "HTTP requests answered, by route, method (the MCP method on /mcp, else the HTTP method) and outcome",
      labelNames: ["route", "method", "outcome"],
      registers,
    });
    this.latency = new Histogram({
      name: "skillshelf_http_request_duration_seconds",
      help: "Time from a request's arrival to the end of its answer",
      labelNames: ["route", "method", "outcome"],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.rebuilds = new Counter({
      name: "skillshelf_rebuilds_total",
      help: "Rebuilds of the shelf after the first: swapped (something changed) or unchanged (the shelf was kept)",
      labelNames: ["result"],
      registers,
    });
    this.rebuildSeconds = new Histogram({
      name: "skillshelf_rebuild_duration_seconds",
      help: "How long a rebuild took, fetches included",
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers,
    });
    const cacheOf = (): ReadCacheStats | undefined => this.cache;
    // The cache counts for itself; these counters copy its totals at scrape time.
    new Counter({
      name: "skillshelf_read_cache_hits_total",
      help: "Reads answered from the cache of recently read files",
      registers,
      collect() {
        this.reset();
        this.inc(cacheOf()?.hits ?? 0);
      },
    });
    new Counter({
      name: "skillshelf_read_cache_misses_total",
      help: "Reads that went to the disk",
      registers,
      collect() {
        this.reset();
        this.inc(cacheOf()?.misses ?? 0);
      },
    });
    this.shelfGauges(registers);
  }

  /** What the shelf gauges read at scrape time. */
  watch(holder: ShelfHolder, cache: ReadCacheStats): void {
    this.holder = holder;
    this.cache = cache;
  }

  /** A rebuild ended (ShelfService's onRebuilt). */
  readonly observeRebuild = (seconds: number, swapped: boolean): void => {
    this.rebuilds.inc({ result: swapped ? "swapped" : "unchanged" });
    this.rebuildSeconds.observe(seconds);
  };

  /** Counts every request once it is answered (or its connection closes). */
  readonly track = (req: Request, res: Response, next: NextFunction): void => {
    const started = performance.now();
    const path = req.path;
    res.once("close", () => {
      const route = routeLabel(path);
      // The body is parsed by then; a request refused before parsing has none and counts as `other`.
      const method = route === "/mcp" && req.method === "POST" ? this.methodLabel(req.body) : req.method;
      const labels = { route, method, outcome: res.writableFinished ? outcomeOf(res.statusCode) : "aborted" };
      const seconds = (performance.now() - started) / 1000;
      this.requests.inc(labels);
      this.latency.observe(labels, seconds);
      if (this.onRequest === undefined) return;
      const target = route === "/mcp" ? targetOf(req.body) : undefined;
      this.onRequest({
        method: req.method,
        route,
        ...(route === "/mcp" && req.method === "POST" ? { mcp: method } : {}),
        ...(target === undefined ? {} : { target }),
        client: callerOf(req)?.name ?? "anonymous",
        outcome: labels.outcome,
        status: res.statusCode,
        ms: Math.round(seconds * 10000) / 10,
      });
    });
    next();
  };

  /** GET /metrics. */
  readonly handler = (_req: Request, res: Response, next: NextFunction): void => {
    this.registry.metrics().then((text) => res.type(this.registry.contentType).send(text), next);
  };

  private shelfGauges(registers: Registry[]): void {
    const shelfOf = (): Shelf | undefined => this.holder?.current;
    new Gauge({
      name: "skillshelf_generation",
      help: "The generation of the shelf being served",
      registers,
      collect() {
        const shelf = shelfOf();
        if (shelf !== undefined) this.set(shelf.generation);
      },
    });
    const perLibrary = (name: string, help: string, count: (health: HealthReport, library: string) => number): void => {
      new Gauge({
        name,
        help,
        labelNames: ["library"],
        registers,
        collect() {
          this.reset();
          const shelf = shelfOf();
          if (shelf === undefined) return;
          const health = buildHealth(shelf);
          for (const library of Object.keys(health.libraries)) this.set({ library }, count(health, library));
        },
      });
    };
    perLibrary("skillshelf_skills", "Skills served, per library", (h, l) => h.libraries[l]?.skills ?? 0);
    perLibrary("skillshelf_prompts", "Prompts served, per library", (h, l) => h.libraries[l]?.prompts ?? 0);
    perLibrary(
      "skillshelf_conflicts",
      "Plugins dropped from a library by a conflict",
      (h, l) => Object.keys(h.libraries[l]?.conflicts ?? {}).length,
    );
    const ofPlugins = (h: HealthReport, l: string, rows: (id: string) => number): number =>
      (h.libraries[l]?.plugins ?? []).reduce((sum, id) => sum + rows(id), 0);
    perLibrary(
      "skillshelf_skipped",
      "Skills, prompts and plugins skipped, per library (with the library's own skipped plugins)",
      (h, l) => ofPlugins(h, l, (id) => h.plugins[id]?.skipped?.length ?? 0) + (h.libraries[l]?.skipped?.length ?? 0),
    );
    perLibrary("skillshelf_dangling", "Citations in served SKILL.md files that are not found, per library", (h, l) =>
      ofPlugins(h, l, (id) => h.plugins[id]?.dangling?.length ?? 0),
    );
    new Gauge({
      name: "skillshelf_guard_findings",
      help: "Supply-chain findings on the shelf being served, by severity, rule and what the policy made of each (quarantine, warn, released); look-alike names are warnings",
      labelNames: ["severity", "rule", "action"],
      registers,
      collect() {
        this.reset();
        const shelf = shelfOf();
        if (shelf === undefined) return;
        const guard = buildHealth(shelf).guard;
        const counts = new Map<string, { severity: string; rule: string; action: string; count: number }>();
        const count = (severity: string, rule: string, action: string): void => {
          // Both labels are bounded: a severity is one of four, a rule one of the guard's fixed list (or `other`).
          const labels = {
            severity: (SEVERITIES as readonly string[]).includes(severity) ? severity : "other",
            rule: ruleLabel(rule),
            action,
          };
          const key = `${labels.severity}\0${labels.rule}\0${action}`;
          const row = counts.get(key) ?? { ...labels, count: 0 };
          row.count++;
          counts.set(key, row);
        };
        for (const row of guard?.findings ?? []) count(row.severity, row.rule, row.action);
        for (const row of guard?.lookAlikes ?? []) count(row.severity, row.rule, "warn");
        for (const { count: n, ...labels } of counts.values()) this.set(labels, n);
      },
    });
    new Gauge({
      name: "skillshelf_guard_quarantined",
      help: "Skills and prompts the guard's policy keeps off every surface",
      registers,
      collect() {
        const shelf = shelfOf();
        this.set(shelf === undefined ? 0 : (buildHealth(shelf).guard?.quarantined.length ?? 0));
      },
    });
    new Gauge({
      name: "skillshelf_fetch_status",
      help: "1 for the state each fetch is in (ok, stale or failed), 0 for the others",
      labelNames: ["fetch", "status"],
      registers,
      collect() {
        this.reset();
        for (const [fetch, report] of shelfOf()?.fetches ?? []) {
          for (const status of ["ok", "stale", "failed"]) this.set({ fetch, status }, report.status === status ? 1 : 0);
        }
      },
    });
    new Gauge({
      name: "skillshelf_fetch_cooling",
      help: "1 while a live WebDAV fetch reads from its export after its share failed a read, 0 for every other fetch",
      labelNames: ["fetch"],
      registers,
      collect() {
        this.reset();
        for (const [fetch, report] of shelfOf()?.fetches ?? []) this.set({ fetch }, report.cooling === true ? 1 : 0);
      },
    });
    new Gauge({
      name: "skillshelf_fetch_watch",
      help: "1 for the watch state of each local fetch (watching, degraded or off), 0 for the others",
      labelNames: ["fetch", "state"],
      registers,
      collect() {
        this.reset();
        for (const [fetch, report] of shelfOf()?.fetches ?? []) {
          if (report.watch === undefined) continue;
          for (const state of ["watching", "degraded", "off"]) this.set({ fetch, state }, report.watch === state ? 1 : 0);
        }
      },
    });
  }
}
