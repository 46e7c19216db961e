// 2026-07-28 `subscriptions/listen` streams, grouped by the caller's scope. The SDK delivers a change to every
// open stream whose subscription filter accepts it, whatever the stream's caller may see: announced from one
// whole-shelf diff, a client narrowed to one library would hear that another library changed, and one that listed
// an out-of-scope address in `resourceSubscriptions` would hear each time that file changes. So each scope in use
// has its own handler, and with it its own event bus, and hears only the diff taken under its scope.
import { toNodeHandler } from "@modelcontextprotocol/node";
import type { McpHttpHandler } from "@modelcontextprotocol/server";
import type { Request, Response } from "express";
import { Gauge, type Registry } from "prom-client";
import { announceOverHttp } from "../mcp/index.js";
import type { ScopeOn } from "../resolve/index.js";
import type { Shelf } from "../shelf/index.js";
import type { Caller } from "./access.js";
import type { Grant } from "./sessions.js";

interface Group {
  readonly handler: McpHttpHandler;
  readonly serve: ReturnType<typeof toNodeHandler>;
  readonly scopeOn: ScopeOn;
  /** Streams open in this group; the group goes with its last one. */
  open: number;
}

export class ScopedListens {
  private readonly groups = new Map<string, Group>();
  /** Every open stream with the grant it was opened under. */
  private readonly streams = new Map<Response, Grant>();

  /** `create` makes a handler like the shared one (the same server factory). */
  constructor(
    private readonly create: () => McpHttpHandler,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Streams open, over every scope. */
  get size(): number {
    let open = 0;
    for (const group of this.groups.values()) open += group.open;
    return open;
  }

  /** Serve one listen request in the group of its scope: `key` names the scope (the same ceiling and narrowing
   *  give the same key on every shelf) and `scopeOn` compiles it against each shelf a change is diffed on. */
  serve(key: string, scopeOn: ScopeOn, req: Request, res: Response, grant: Grant): void {
    let group = this.groups.get(key);
    if (group === undefined) {
      const handler = this.create();
      group = { handler, serve: toNodeHandler(handler, { onerror: this.onError }), scopeOn, open: 0 };
      this.groups.set(key, group);
    }
    const joined = group;
    joined.open++;
    this.streams.set(res, grant);
    res.once("close", () => {
      this.streams.delete(res);
      if (--joined.open > 0 || this.groups.get(key) !== joined) return;
      this.groups.delete(key);
      void joined.handler.close().catch(this.onError);
    });
    void joined.serve(req, res, req.body);
  }

  /** A config reload changed who may see what: every stream whose opener's grant changed is cut (the client
   *  listens again under its new grant, or is refused). */
  regrant(labelOf: (caller: Caller) => string): void {
    for (const [res, grant] of [...this.streams]) if (labelOf(grant.caller) !== grant.label) res.destroy();
  }

  /** After a swap: each group hears what changed under its own scope, once per kind. */
  announce(previous: Shelf, next: Shelf): void {
    for (const group of this.groups.values()) announceOverHttp(group.handler.notify, previous, next, group.scopeOn);
  }

  /** The streams open and the scopes they are grouped in, on `registry` (GET /metrics). */
  register(registry: Registry): void {
    const streams = (): number => this.size;
    const scopes = (): number => this.groups.size;
    new Gauge({
      name: "skillshelf_mcp_listen_streams",
      help: "2026-07-28 subscriptions/listen streams open over HTTP",
      registers: [registry],
      collect() {
        this.set(streams());
      },
    });
    new Gauge({
      name: "skillshelf_mcp_listen_scopes",
      help: "Scopes the open subscriptions/listen streams are grouped in, each with its own diff per rebuild",
      registers: [registry],
      collect() {
        this.set(scopes());
      },
    });
  }

  /** Shutting down: every stream ends. */
  async close(): Promise<void> {
    const groups = [...this.groups.values()];
    this.groups.clear();
    await Promise.allSettled(groups.map((group) => group.handler.close()));
  }
}
