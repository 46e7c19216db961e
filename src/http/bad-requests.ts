// Requests refused before any MCP processing: a body that cannot be read (charset, encoding, size, JSON
// syntax), a body nested too deep to walk, a route that does not exist. Each gets a short JSON-RPC error body
// with the HTTP status that fits and one log line; never express's HTML page, a stack or a path.
import type { ErrorRequestHandler, NextFunction, Request, RequestHandler, Response } from "express";

/** Deepest JSON nesting a body may have. An MCP request needs a handful of levels (params → arguments → a
 *  value); 5,000 nested arrays overflow the stack of the recursive schema checks behind the route. */
export const MAX_JSON_DEPTH = 64;

/** Where a refusal is named: one line, the reason and the HTTP status (never the body). */
export type OnRefused = (reason: string, fields: { readonly status: number; readonly method: string; readonly path: string }) => void;

export const JSONRPC_PARSE_ERROR = -32700;
export const JSONRPC_INVALID_REQUEST = -32600;
export const JSONRPC_INTERNAL_ERROR = -32603;

interface Refusal {
  readonly status: number;
  readonly code: number;
  readonly message: string;
}

/** A body-parser (http-errors) failure => what the client is told. Its own messages echo client input
 *  (`unsupported charset "LATIN1"`) and its stack names files on this machine, so neither is passed on. */
export function describeBodyError(error: unknown, limit: string): Refusal | null {
  if (typeof error !== "object" || error === null) return null;
  const { status, type } = error as { status?: unknown; type?: unknown };
  switch (type) {
    case "entity.parse.failed":
      return { status: 400, code: JSONRPC_PARSE_ERROR, message: "Parse error: the body is not valid JSON" };
    case "entity.too.large":
      return { status: 413, code: JSONRPC_INVALID_REQUEST, message: `Request body too large (limit ${limit})` };
    case "charset.unsupported":
      return { status: 415, code: JSONRPC_INVALID_REQUEST, message: "Unsupported charset: send JSON as UTF-8" };
    case "encoding.unsupported":
      return { status: 415, code: JSONRPC_INVALID_REQUEST, message: "Unsupported Content-Encoding: use identity, gzip, deflate or br" };
    case "request.size.invalid":
      return { status: 400, code: JSONRPC_INVALID_REQUEST, message: "The body's length does not match its Content-Length" };
    case "request.aborted":
      return { status: 400, code: JSONRPC_INVALID_REQUEST, message: "The request was aborted before its body arrived" };
  }
  // Anything else body-parser refuses with a 4xx (a gzip body that does not inflate, …) is still the client's.
  if (typeof status === "number" && status >= 400 && status < 500) {
    return { status, code: JSONRPC_INVALID_REQUEST, message: "The body could not be read: check its Content-Encoding and length" };
  }
  return null;
}

function sendRefusal(res: Response, refusal: Refusal, id: string | number | null = null): void {
  if (res.headersSent) return;
  res.status(refusal.status).json({ jsonrpc: "2.0", error: { code: refusal.code, message: refusal.message }, id });
}

function fieldsOf(req: Request, status: number): { status: number; method: string; path: string } {
  // The path is the client's: bounded so a long one cannot flood the log.
  return { status, method: req.method, path: req.path.slice(0, 200) };
}

/** The last error handler of the app: every error answers JSON. Client faults are named once at `onRefused`;
 *  anything else goes to `onError` (the log) and the client sees only `Internal server error`. */
export function answerErrors(limit: string, onRefused: OnRefused, onError: (error: unknown) => void): ErrorRequestHandler {
  return (error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const refusal = describeBodyError(error, limit);
    if (refusal !== null) {
      onRefused(refusal.message, fieldsOf(req, refusal.status));
      return sendRefusal(res, refusal);
    }
    onError(error);
    sendRefusal(res, { status: 500, code: JSONRPC_INTERNAL_ERROR, message: "Internal server error" });
  };
}

/** Unknown routes: JSON, not express's `Cannot GET` page. */
export function answerNotFound(onRefused: OnRefused): RequestHandler {
  return (req, res) => {
    const refusal = {
      status: 404,
      code: JSONRPC_INVALID_REQUEST,
      message: "Not found: the endpoints are /mcp, /health, /reindex, /openapi.yaml and /",
    };
    onRefused("unknown route", fieldsOf(req, 404));
    sendRefusal(res, refusal);
  };
}

/** The methods /mcp serves (a 2025-era session's stream and end are GET and DELETE). */
export const MCP_METHODS = ["GET", "POST", "DELETE"] as const;

/** Any other method on /mcp (TRACE, PUT, OPTIONS…): 405 naming the allowed ones, before the protocol SDK, which
 *  knows only its three and would fail on the rest. */
export function refuseMethods(onRefused: OnRefused): RequestHandler {
  return (req, res, next) => {
    if ((MCP_METHODS as readonly string[]).includes(req.method)) return next();
    const message = `Method not allowed: /mcp answers ${MCP_METHODS.join(", ")}`;
    onRefused(message, fieldsOf(req, 405));
    res.set("Allow", MCP_METHODS.join(", "));
    sendRefusal(res, { status: 405, code: JSONRPC_INVALID_REQUEST, message });
  };
}

/** A request target in absolute form (`POST http://host:8000/mcp HTTP/1.1`), which HTTP/1.1 servers must accept
 *  (RFC 9112, 3.2.2): served as its path, with the target's authority as the Host (checked like any Host). A target
 *  that is neither a path nor an http(s) URL is refused with 400. */
export function acceptAbsoluteForm(onRefused: OnRefused): RequestHandler {
  return (req, res, next) => {
    if (req.url.startsWith("/") || (req.url === "*" && req.method === "OPTIONS")) return next();
    let target: URL | undefined;
    try {
      target = new URL(req.url);
    } catch {
      target = undefined;
    }
    if (target === undefined || (target.protocol !== "http:" && target.protocol !== "https:") || target.host === "") {
      const message = "Bad request target: send a path (/mcp) or an http URL";
      onRefused(message, { status: 400, method: req.method, path: req.url.slice(0, 200) });
      return sendRefusal(res, { status: 400, code: JSONRPC_INVALID_REQUEST, message });
    }
    req.headers.host = target.host;
    req.url = `${target.pathname}${target.search}`;
    req.originalUrl = req.url;
    next();
  };
}

/** Is `value` nested more than `max` arrays/objects deep? Walked with an explicit stack, so the check itself
 *  cannot overflow: {"a":[[1]]} has depth 3. */
export function exceedsDepth(value: unknown, max: number): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: next, depth } = stack.pop() as { value: unknown; depth: number };
    if (typeof next !== "object" || next === null) continue;
    if (depth + 1 > max) return true;
    for (const child of Array.isArray(next) ? next : Object.values(next)) {
      if (typeof child === "object" && child !== null) stack.push({ value: child, depth: depth + 1 });
    }
  }
  return false;
}

/** Refuses a parsed body nested deeper than `max` as an invalid request, before any handler walks it. */
export function limitNesting(max: number, onRefused: OnRefused): RequestHandler {
  return (req, res, next) => {
    const body: unknown = req.body;
    if (!exceedsDepth(body, max)) return next();
    const message = `Invalid Request: the body is nested deeper than ${max} levels`;
    onRefused(message, fieldsOf(req, 400));
    sendRefusal(res, { status: 400, code: JSONRPC_INVALID_REQUEST, message }, idOf(body));
  };
}

/** The request's id when it has a usable one (JSON-RPC: null when it cannot be determined). */
function idOf(body: unknown): string | number | null {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return null;
  const id = (body as { id?: unknown }).id;
  return typeof id === "string" || typeof id === "number" ? id : null;
}
