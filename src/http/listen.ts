// Listening on a host and port, and the one line an operator reads when that fails: which address, what went wrong,
// and which flag or environment variable changes it. Never a stack trace or a TypeError.
import { createServer, type Server as HttpServer, type RequestListener } from "node:http";
import net from "node:net";

/** The server cannot listen where it was told to; the message is the whole story. */
export class ListenError extends Error {
  override readonly name = "ListenError";
}

/** `127.0.0.1:8000`, `[::1]:8000`. */
export function formatHostPort(host: string, port: number): string {
  return `${net.isIPv6(host) ? `[${host}]` : host}:${port}`;
}

export function describeListenFailure(error: unknown, host: string, port: number): ListenError {
  const code = typeof error === "object" && error !== null && "code" in error ? String(error.code) : "";
  const where = `cannot listen on ${formatHostPort(host, port)}`;
  switch (code) {
    case "EADDRINUSE":
      return new ListenError(`${where}: the port is in use; stop what holds it, or choose another with --port (SKILLSHELF_PORT)`);
    case "EACCES":
    case "EPERM":
      return new ListenError(`${where}: not permitted (ports below 1024 need privileges); choose --port 1024 or above (SKILLSHELF_PORT)`);
    case "ENOTFOUND":
    case "EAI_AGAIN":
    case "EAI_NONAME":
    case "EAI_FAIL":
      return new ListenError(`${where}: the host name does not resolve; give an address of this machine with --host (SKILLSHELF_HOST)`);
    case "EADDRNOTAVAIL":
    case "EAFNOSUPPORT":
      return new ListenError(`${where}: the address is not one of this machine's; give one that is with --host (SKILLSHELF_HOST)`);
    default:
      return new ListenError(`${where}: ${code === "" ? String((error as Error)?.message ?? error) : code}; check --host and --port`);
  }
}

/** Binds `host:port` and lets it go at once: run before the shelf is built, so a port in use or a wrong host is
 *  refused in a second rather than after every git fetch. Port 0 checks the host only. */
export function checkListen(host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", (error) => reject(describeListenFailure(error, host, port)));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve()));
  });
}

/** A client has this long to send a request's headers (from its first byte), and this long for the whole request,
 *  body included (bodies are at most 256 KiB); then it gets 408 and its connection is closed. Answers are not
 *  bounded by these: a stream (a session's GET, subscriptions/listen) stays open as long as the client reads it. */
export const HEADERS_TIMEOUT_MS = 10_000;
export const REQUEST_TIMEOUT_MS = 30_000;

export interface ClientTimeouts {
  readonly headersMs: number;
  readonly requestMs: number;
}

/** An HTTP server for `handler` listening on `host:port`, or a ListenError. Slow clients are cut off after
 *  `timeouts` (checked every quarter of the headers timeout, at most each second). */
export function listen(
  handler: RequestListener,
  host: string,
  port: number,
  timeouts: ClientTimeouts = { headersMs: HEADERS_TIMEOUT_MS, requestMs: REQUEST_TIMEOUT_MS },
): Promise<HttpServer> {
  return new Promise((resolve, reject) => {
    const server = createServer(
      {
        headersTimeout: timeouts.headersMs,
        requestTimeout: timeouts.requestMs,
        connectionsCheckingInterval: Math.max(10, Math.min(1_000, Math.floor(timeouts.headersMs / 4))),
      },
      handler,
    );
    const onError = (error: unknown): void => reject(describeListenFailure(error, host, port));
    server.once("error", onError);
    server.listen(port, host, () => {
      server.off("error", onError);
      resolve(server);
    });
  });
}
