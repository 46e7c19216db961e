// 2025-era sessions over Streamable HTTP: `initialize` opens a session (`Mcp-Session-Id`), GET opens its stream of
// notifications, DELETE ends it. Each session is one server instance on the SDK's transport, scoped once, at
// `initialize`, and bound to the credential that opened it; a rebuild is announced to it through the same
// registry as stdio sessions, diffed under its own scope. Bounded: at most `max` sessions, a tenth of them per
// credential (per address for anonymous callers) and a twentieth kept for admins; a new one replaces the one idle
// longest — the caller's own when it is at its share, never another's — or is refused with 503 when every
// candidate is in use; and closed after `idleMs` with no request and no stream open. Anything that is not a
// 2025-era session request (2026-07-28 traffic, 2025-era requests sent without a session) is handed back to the
// stateless handler unchanged.
import { randomUUID, timingSafeEqual } from "node:crypto";
import { NodeStreamableHTTPServerTransport, toWebRequest } from "@modelcontextprotocol/node";
import { isInitializeRequest, isLegacyRequest } from "@modelcontextprotocol/server";
import type { Request, Response } from "express";
import type { Registry } from "prom-client";
import { buildMcpServer, type RequestView, type ServerDeps, type Session, SessionRegistry } from "../mcp/index.js";
import type { Shelf } from "../shelf/index.js";
import type { Caller } from "./access.js";
import type { OnRefused } from "./bad-requests.js";
import type { ServerMetrics } from "./metrics.js";
import {
  adminRoomOf,
  credentialOf,
  type CloseReason,
  type Grant,
  ownerOf,
  registerSessionMetrics,
  type RefusalReason,
  type SessionOptions,
  type SessionStats,
  shareOf,
} from "./session-bounds.js";

export type { CloseReason, Grant, RefusalReason, SessionLimits, SessionOptions, SessionStats } from "./session-bounds.js";

interface OpenSession {
  readonly id: string;
  /** sha256 of the Authorization header that opened the session (of the empty string without one). */
  readonly credential: Buffer;
  readonly transport: NodeStreamableHTTPServerTransport;
  readonly entry: Session;
  readonly grant: Grant;
  /** Whose share it counts against: the credential, or an anonymous caller's address. */
  readonly owner: string;
  /** Requests and streams open on the session. */
  active: number;
  lastActive: number;
  idleTimer: NodeJS.Timeout | undefined;
}

const SESSION_HEADER = "mcp-session-id";
/** Seconds a client refused for capacity is asked to wait. */
const RETRY_AFTER_SECONDS = 5;

export class LegacySessions {
  private readonly sessions = new Map<string, OpenSession>();
  private readonly registry = new SessionRegistry();
  private shuttingDown = false;
  private opened = 0;
  private readonly closed: Record<CloseReason, number> = { deleted: 0, idle: 0, evicted: 0, shutdown: 0, failed: 0, access: 0 };
  private readonly refused: Record<RefusalReason, number> = { unknown: 0, credential: 0, capacity: 0, share: 0, shutdown: 0 };

  constructor(
    private readonly deps: ServerDeps,
    private readonly options: SessionOptions,
    private readonly onRefused: OnRefused,
    private readonly onError: (error: unknown) => void,
  ) {}

  get size(): number {
    return this.sessions.size;
  }

  get stats(): SessionStats {
    return {
      open: this.sessions.size,
      max: this.options.max,
      opened: this.opened,
      closed: { ...this.closed },
      refused: { ...this.refused },
    };
  }

  /** Serves `req` if it is a 2025-era session request: an `initialize`, or anything carrying `Mcp-Session-Id`.
   *  Everything else goes to `stateless` (2026-07-28 traffic, and 2025-era requests sent without a session). */
  async serve(req: Request, res: Response, view: RequestView, stateless: () => void, grant: Grant): Promise<void> {
    try {
      const id = req.headers[SESSION_HEADER];
      const post = req.method === "POST";
      // A malformed initialize is the stateless handler's to refuse, with the precise -32602 it gives.
      if (id === undefined && !(post && isInitializeRequest(req.body))) return stateless();
      // The SDK's own classification: a 2026-07-28 request is never a session request, whatever it carries.
      if (post && !(await isLegacyRequest(await toWebRequest(req, req.body), req.body))) return stateless();
      if (id === undefined) return await this.open(req, res, view, grant);
      const session = typeof id === "string" ? this.sessions.get(id) : undefined;
      if (session === undefined) return this.notFound(req, res, "unknown");
      if (!timingSafeEqual(session.credential, credentialOf(req))) return this.notFound(req, res, "credential");
      await this.handle(session, req, res);
    } catch (error) {
      this.onError(error);
      if (!res.headersSent) res.status(500).json({ jsonrpc: "2.0", error: { code: -32603, message: "Internal server error" }, id: null });
    }
  }

  /** A rebuild: every session hears what changed under its own scope. */
  announce(previous: Shelf, next: Shelf): Promise<void> {
    return this.registry.announce(previous, next);
  }

  /** A config reload changed who may see what: every session whose opener's grant changed is closed (a client
   *  that calls again gets 404 and initializes under its new grant, or is refused). */
  regrant(labelOf: (caller: Caller) => string): void {
    for (const session of [...this.sessions.values()]) {
      if (labelOf(session.grant.caller) !== session.grant.label) void this.end(session.id, "access");
    }
  }

  /** Shutting down: no new session, and every open one closes (its stream ends). */
  async close(): Promise<void> {
    this.shuttingDown = true;
    await Promise.all([...this.sessions.keys()].map((id) => this.end(id, "shutdown")));
  }

  /** Gauges and counters of the sessions on `registry` (GET /metrics). */
  register(registry: Registry): void {
    registerSessionMetrics(registry, () => this.stats);
  }

  private async open(req: Request, res: Response, view: RequestView, grant: Grant): Promise<void> {
    if (this.shuttingDown) return this.unavailable(req, res, "shutdown", "The server is shutting down: initialize again");
    const owner = ownerOf(req, grant);
    const share = shareOf(this.options.max);
    // A caller at its share makes room among its own sessions only, never another's.
    const own = (session: OpenSession): boolean => session.owner === owner;
    if (this.countOf(owner) >= share && !this.evictIdlest(own, `its credential holds its share of ${share}`)) {
      return this.unavailable(req, res, "share", `Too many sessions for this credential (${share}): close one or try again later`);
    }
    // Admins may use the whole bound; everyone else leaves room for them.
    const room = grant.caller?.admin === true ? this.options.max : this.options.max - adminRoomOf(this.options.max);
    if (this.sessions.size >= room && !this.evictIdlest(() => true, `${this.sessions.size} sessions open (--max-sessions)`))
      return this.unavailable(req, res, "capacity", "Too many sessions: try again later");
    const id = randomUUID();
    const subscriptions = new Set<string>();
    const mcp = buildMcpServer(this.deps, view, "legacy", subscriptions);
    const transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      // DELETE: the transport closes itself once this returns.
      onsessionclosed: () => void this.forget(id, "deleted"),
    });
    const session: OpenSession = {
      id,
      credential: credentialOf(req),
      transport,
      entry: { mcp, view, subscriptions },
      grant,
      owner,
      active: 0,
      lastActive: Date.now(),
      idleTimer: undefined,
    };
    this.sessions.set(id, session);
    this.registry.add(session.entry);
    this.opened++;
    // However the transport ends (DELETE, a close below), the session is forgotten.
    mcp.server.onclose = () => void this.forget(id, "failed");
    try {
      await mcp.connect(transport);
    } catch (error) {
      await this.end(id, "failed");
      throw error;
    }
    // A handshake that did not complete (refused params, a wrong Accept header) leaves no session behind.
    res.once("close", () => {
      if (mcp.server.getClientVersion() === undefined) void this.end(id, "failed");
      else this.options.log?.log("debug", "session opened", { sessions: this.sessions.size });
    });
    await this.handle(session, req, res);
  }

  private async handle(session: OpenSession, req: Request, res: Response): Promise<void> {
    session.active++;
    clearTimeout(session.idleTimer);
    session.idleTimer = undefined;
    res.once("close", () => {
      session.active--;
      session.lastActive = Date.now();
      if (session.active === 0 && this.sessions.get(session.id) === session) {
        session.idleTimer = setTimeout(() => void this.end(session.id, "idle"), this.options.idleMs);
        session.idleTimer.unref();
      }
    });
    await session.transport.handleRequest(req, res, req.method === "POST" ? req.body : undefined);
  }

  private countOf(owner: string): number {
    let count = 0;
    for (const session of this.sessions.values()) if (session.owner === owner) count++;
    return count;
  }

  /** Of the sessions `among` picks, the one with no request or stream open that was used longest ago, closed to
   *  make room. */
  private evictIdlest(among: (session: OpenSession) => boolean, why: string): boolean {
    let idlest: OpenSession | undefined;
    for (const session of this.sessions.values()) {
      if (session.active === 0 && among(session) && (idlest === undefined || session.lastActive < idlest.lastActive)) idlest = session;
    }
    if (idlest === undefined) return false;
    void this.end(idlest.id, "evicted", why);
    return true;
  }

  /** Removes the session from the books (idempotent); answers it when it was still there. */
  private forget(id: string, reason: CloseReason, why?: string): OpenSession | undefined {
    const session = this.sessions.get(id);
    if (session === undefined) return undefined;
    this.sessions.delete(id);
    this.registry.remove(session.entry);
    clearTimeout(session.idleTimer);
    this.closed[reason]++;
    const fields = { reason, sessions: this.sessions.size };
    if (reason === "evicted") this.options.log?.log("warn", `session evicted: ${why ?? "no room"}`, fields);
    else this.options.log?.log("debug", "session closed", fields);
    return session;
  }

  private async end(id: string, reason: CloseReason, why?: string): Promise<void> {
    const session = this.forget(id, reason, why);
    if (session === undefined) return;
    try {
      await session.transport.close();
      await session.entry.mcp.close();
    } catch (error) {
      this.onError(error);
    }
  }

  /** 404 with a JSON-RPC error: the client must initialize again (MCP Streamable HTTP, session management). The
   *  session of another credential gets the same answer, so an id alone says nothing about whose it is. */
  private notFound(req: Request, res: Response, reason: "unknown" | "credential"): void {
    this.refused[reason]++;
    this.onRefused(reason === "unknown" ? "unknown session id" : "session opened with another credential", {
      status: 404,
      method: req.method,
      path: req.path,
    });
    res.status(404).json({
      jsonrpc: "2.0",
      error: { code: -32001, message: "Session not found: send initialize to start a new session" },
      id: requestIdOf(req.body),
    });
  }

  private unavailable(req: Request, res: Response, reason: "capacity" | "share" | "shutdown", message: string): void {
    this.refused[reason]++;
    const why =
      reason === "capacity"
        ? `no room for a new session: ${this.sessions.size} in use (--max-sessions ${this.options.max}, ${adminRoomOf(this.options.max)} kept for admins)`
        : reason === "share"
          ? `no room for a new session: this credential holds its share of ${shareOf(this.options.max)}, all in use`
          : "shutting down";
    this.onRefused(why, {
      status: 503,
      method: req.method,
      path: req.path,
    });
    res
      .status(503)
      .set("Retry-After", String(RETRY_AFTER_SECONDS))
      .json({ jsonrpc: "2.0", error: { code: -32000, message }, id: requestIdOf(req.body) });
  }
}

/** The sessions of an app (counted on its /metrics), or none when it is stateless. */
export function openSessions(
  deps: ServerDeps,
  options: {
    readonly sessions?: SessionOptions;
    readonly metrics?: ServerMetrics;
    readonly onRefused?: OnRefused;
    readonly onError: (error: unknown) => void;
  },
): LegacySessions | undefined {
  if (options.sessions === undefined) return undefined;
  const sessions = new LegacySessions(deps, options.sessions, options.onRefused ?? (() => undefined), options.onError);
  if (options.metrics !== undefined) sessions.register(options.metrics.registry);
  return sessions;
}

function requestIdOf(body: unknown): string | number | null {
  const id = typeof body === "object" && body !== null ? (body as { id?: unknown }).id : undefined;
  return typeof id === "string" || typeof id === "number" ? id : null;
}
