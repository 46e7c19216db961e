// The real HTTP app in this process, on an ephemeral loopback port, over a ShelfService a test holds: what the tests
// that need HTTP but not a child process start. `close` stops listening (open connections included) and the MCP
// handler; the service stays the caller's.
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createHttpApp, type HttpApp, type HttpOptions } from "../../src/http/app.js";
import { ContentCache, ShelfReader } from "../../src/live/index.js";
import type { ShelfService } from "../../src/live/shelf-service.js";

export interface ServedApp extends HttpApp {
  readonly server: Server;
  /** http://127.0.0.1:PORT */
  readonly origin: string;
  /** The MCP endpoint, `${origin}/mcp`. */
  readonly url: URL;
  close(): Promise<void>;
}

export interface ServeOptions extends Partial<HttpOptions> {
  readonly version?: string;
  readonly ttlMs?: number;
}

/** createHttpApp over `service` (anonymous access, errors ignored and reindex rebuilding, unless `options` say
 *  otherwise), listening on 127.0.0.1 port 0. */
export async function serveApp(service: ShelfService, options: ServeOptions = {}): Promise<ServedApp> {
  const { version = "0.0.0-test", ttlMs = 0, ...rest } = options;
  const http = createHttpApp(
    service.holder,
    { shelf: new ShelfReader(service.holder, new ContentCache()), version, ttlMs },
    {
      host: "127.0.0.1",
      access: { clients: [], anonymous: true },
      reindex: () => service.rebuild(),
      onError: () => undefined,
      ...rest,
    },
  );
  const server = await new Promise<Server>((resolve, reject) => {
    const listening = http.app.listen(0, "127.0.0.1", () => resolve(listening));
    listening.once("error", reject);
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    ...http,
    server,
    origin,
    url: new URL(`${origin}/mcp`),
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await http.mcp.close();
    },
  };
}
