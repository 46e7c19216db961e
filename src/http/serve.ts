// Serving the HTTP face on a port, and taking it down without losing a request: the app, the listener, change
// announcements, readiness and the drain. The process's signals stay the CLI's: it calls `stop()` on SIGTERM.
import type { ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Logger } from "../log/index.js";
import type { ShelfHolder } from "../live/index.js";
import type { ServerDeps } from "../mcp/index.js";
import { createHttpApp, type HttpOptions } from "./app.js";
import { listen } from "./listen.js";
import type { ReadCacheStats } from "./metrics.js";

/** How long a drain waits for requests in flight before it cuts what is left. */
export const DRAIN_GRACE_MS = 10_000;

export interface ServeHttpOptions extends HttpOptions {
  readonly port: number;
  /** The drain window: not ready, still serving, so a load balancer moves traffic away first. */
  readonly drainMs: number;
  readonly log: Logger;
  /** The read cache's counters, for /metrics (read when scraped). */
  readonly cacheStats?: ReadCacheStats;
}

export interface HttpServing {
  /** `http://127.0.0.1:8000/mcp`. */
  readonly url: string;
  /** First call: not ready, then after the drain window the listener closes and requests in flight finish. A
   *  second call ends the window at once. */
  stop(): void;
  /** Resolves once the listener is closed and every request answered (or cut after the grace). */
  readonly closed: Promise<void>;
}

export async function serveHttp(holder: ShelfHolder, deps: ServerDeps, options: ServeHttpOptions): Promise<HttpServing> {
  const { app, mcp, inFlight, readiness, sessions, listens } = createHttpApp(holder, deps, options);
  const server = await listen(app, options.host, options.port);
  server.on("request", (_req, res: ServerResponse) => inFlight.track(res));
  if (options.cacheStats !== undefined) options.metrics?.watch(holder, options.cacheStats);
  // 2026-07-28 clients hear of changes on their subscriptions/listen streams, 2025-era sessions on their GET
  // stream; stateless 2025-era HTTP (--stateless, or a request sent without a session) cannot.
  holder.onSwap((next, previous) => listens.announce(previous, next));
  if (sessions !== undefined) holder.onSwap((next, previous) => void sessions.announce(previous, next));
  const address = server.address() as AddressInfo;
  const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
  readiness.markReady();

  let closedNow: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => (closedNow = resolve));
  let endWindow: (() => void) | undefined;
  const drain = (): void => {
    endWindow = () => undefined;
    options.log.log("info", "draining in-flight requests");
    // Stop accepting, end the open subscriptions/listen streams and close the 2025-era sessions (their GET streams
    // never finish by themselves), close idle keep-alive sockets, and let requests in flight finish; whatever still
    // hangs after the grace is cut.
    server.close(() => closedNow());
    server.closeIdleConnections();
    void inFlight
      .drained()
      .then(() => Promise.all([mcp.close(), listens.close(), sessions?.close()]))
      .then(() => server.closeAllConnections());
    setTimeout(() => server.closeAllConnections(), DRAIN_GRACE_MS).unref();
  };
  return {
    url: `http://${shownHost}:${address.port}/mcp`,
    closed,
    stop() {
      // A second signal during the drain window ends the window at once.
      if (endWindow !== undefined) return endWindow();
      // Not ready first, still accepting: a load balancer polling /readyz stops sending new requests here.
      readiness.markDraining();
      options.log.log("info", "not ready: draining", { seconds: options.drainMs / 1000 });
      const windowTimer = setTimeout(() => endWindow?.(), options.drainMs);
      endWindow = () => {
        clearTimeout(windowTimer);
        drain();
      };
    },
  };
}
