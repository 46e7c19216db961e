// Who may reach the server from where. Bound to a loopback address, only this machine can; bound anywhere else, the
// operator names the Host names clients use (--allowed-hosts) or says on purpose that any will do
// (--allow-any-host). And a browser page from another origin never changes state: every POST, PUT, PATCH or DELETE
// carrying an Origin header the operator did not allow is refused, whatever the bind address.
import { validateOriginHeader } from "@modelcontextprotocol/server";
import type { NextFunction, Request, Response } from "express";
import net from "node:net";

const LOCAL_NAMES = new Set(["localhost", "ip6-localhost", "ip6-loopback"]);

/** 127.0.0.0/8, ::1 (and ::ffff:127.x), or a localhost name: only this machine can connect. */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  if (LOCAL_NAMES.has(bare)) return true;
  if (net.isIPv4(bare)) return bare.startsWith("127.");
  if (net.isIPv6(bare)) return bare === "::1" || /^::ffff:127\./.test(bare) || /^0:0:0:0:0:0:0:1$/.test(bare);
  return false;
}

/** Why a bind address is refused, or undefined when it may be used as told. */
export function refuseExposure(host: string, allowedHosts: readonly string[], allowAnyHost: boolean): string | undefined {
  if (isLoopback(host) || allowedHosts.length > 0 || allowAnyHost) return undefined;
  return (
    `--host ${host} is reachable from other machines: name the host names clients use with --allowed-hosts ` +
    `(SKILLSHELF_ALLOWED_HOSTS), or accept any Host header on purpose with --allow-any-host (SKILLSHELF_ALLOW_ANY_HOST=true)`
  );
}

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** Refuses, with 403, a state-changing request whose Origin is not among `allowed` (hostnames, as the SDK's Origin
 *  check compares them). A request without an Origin header is not from a browser page and passes. */
export function guardStateChanges(allowed: readonly string[]): (req: Request, res: Response, next: NextFunction) => void {
  return (req, res, next) => {
    if (!STATE_CHANGING.has(req.method) || req.headers.origin === undefined) return next();
    const result = validateOriginHeader(req.headers.origin, [...allowed]);
    if (result.ok) return next();
    res.status(403).json({ jsonrpc: "2.0", error: { code: -32000, message: result.message }, id: null });
  };
}
