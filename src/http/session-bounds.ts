// The terms of 2025-era sessions: their bounds (how many at once, how long idle, each credential's share and the
// admins' room), who opened one (the grant a reload checks again), why one closed or a request was refused, and the
// counts of all that on /metrics.
import { createHash } from "node:crypto";
import type { Request } from "express";
import { Counter, Gauge, type Registry } from "prom-client";
import type { Logger } from "../log/index.js";
import type { Caller } from "./access.js";

export interface SessionLimits {
  /** Sessions open at once, at most. */
  readonly max: number;
  /** A session with no request in flight and no stream open for this long is closed. */
  readonly idleMs: number;
}

export interface SessionOptions extends SessionLimits {
  /** Sessions opened and closed (debug), evicted (warn). */
  readonly log?: Logger;
}

export type CloseReason = "deleted" | "idle" | "evicted" | "shutdown" | "failed" | "access";

/** Who opened a session or a stream, and what they could see then (`grantLabel`): a reload that changes it closes
 *  what they opened. */
export interface Grant {
  readonly caller: Caller;
  readonly label: string;
}
export type RefusalReason = "unknown" | "credential" | "capacity" | "share" | "shutdown";

/** Sessions one credential (one anonymous address) may hold: a tenth of the bound, at least one. */
export function shareOf(max: number): number {
  return Math.max(1, Math.floor(max / 10));
}

/** Sessions only admins may open: a twentieth of the bound, none when it is below 20. */
export function adminRoomOf(max: number): number {
  return Math.floor(max / 20);
}

/** What the sessions did, for /metrics. */
export interface SessionStats {
  readonly open: number;
  readonly max: number;
  readonly opened: number;
  readonly closed: Readonly<Record<CloseReason, number>>;
  readonly refused: Readonly<Record<RefusalReason, number>>;
}

/** Whose share a session counts against: its credential, or for an anonymous caller its address (anonymous
 *  callers share no credential with one another). */
export function ownerOf(req: Request, grant: Grant): string {
  if (grant.caller !== null) return `credential:${credentialOf(req).toString("hex")}`;
  return `address:${req.socket.remoteAddress ?? ""}`;
}

/** sha256 of the Authorization header (of the empty string without one): what binds a session to its opener. */
export function credentialOf(req: Request): Buffer {
  return createHash("sha256")
    .update(req.headers.authorization ?? "", "utf8")
    .digest();
}

/** Gauges and counters of the sessions on `registry` (GET /metrics), read from `stats` at each scrape. */
export function registerSessionMetrics(registry: Registry, stats: () => SessionStats): void {
  const registers = [registry];
  new Gauge({
    name: "skillshelf_mcp_sessions",
    help: "2025-era MCP sessions open over HTTP",
    registers,
    collect() {
      this.set(stats().open);
    },
  });
  new Gauge({
    name: "skillshelf_mcp_sessions_max",
    help: "The most 2025-era MCP sessions this server keeps open (--max-sessions)",
    registers,
    collect() {
      this.set(stats().max);
    },
  });
  new Counter({
    name: "skillshelf_mcp_sessions_opened_total",
    help: "2025-era MCP sessions opened by an initialize",
    registers,
    collect() {
      this.reset();
      this.inc(stats().opened);
    },
  });
  new Counter({
    name: "skillshelf_mcp_sessions_closed_total",
    help: "2025-era MCP sessions closed, by reason: deleted by the client, idle, evicted for a new one, shutdown, failed handshake, access changed by a config reload",
    labelNames: ["reason"],
    registers,
    collect() {
      this.reset();
      for (const [reason, count] of Object.entries(stats().closed)) this.inc({ reason }, count);
    },
  });
  new Counter({
    name: "skillshelf_mcp_session_refusals_total",
    help: "Session requests refused, by reason: unknown session id (404), another credential's session (404), no room (503), the credential's share in use (503), shutting down (503)",
    labelNames: ["reason"],
    registers,
    collect() {
      this.reset();
      for (const [reason, count] of Object.entries(stats().refused)) this.inc({ reason }, count);
    },
  });
}
