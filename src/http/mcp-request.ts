// What the /mcp route reads off an Express request before the MCP server sees it: the headers as the SDK wants them,
// every line of a repeated header, whether it opens a listen stream, the operator's origin names as the SDK compares
// them, and the JSON-RPC answer to a request whose scope was refused.
import type { Request, Response } from "express";

export function isListenRequest(body: unknown): boolean {
  return typeof body === "object" && body !== null && (body as { method?: unknown }).method === "subscriptions/listen";
}

/** Every line of one header as received: `req.headers` has already folded repeated lines into one value. */
export function headerLines(req: Request, name: string): string[] {
  const lines: string[] = [];
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    if (req.rawHeaders[i]?.toLowerCase() === name) lines.push(req.rawHeaders[i + 1] as string);
  }
  return lines;
}

/** The SDK's origin check compares hostnames: `https://tools.example:8443` (what an operator copies from a
 *  browser) => `tools.example`; `tools.example` and `moz-extension://*` stay as they are. */
export function formatOriginName(origin: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\/\*$/i.test(origin)) return origin.toLowerCase();
  try {
    const url = new URL(origin);
    return url.hostname === "" ? origin : url.hostname;
  } catch {
    return origin;
  }
}

export function headersOf(req: Request): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  return headers;
}

/** A refused scope answers every JSON-RPC request with -32602 before anything is served. */
export function refuseRequest(req: Request, res: Response, message: string): void {
  const body: unknown = req.body;
  const id = typeof body === "object" && body !== null && "id" in body ? (body as { id: unknown }).id : undefined;
  if (req.method === "POST" && id === undefined && typeof body === "object" && body !== null && !Array.isArray(body)) {
    res.status(202).end(); // a notification gets no answer
    return;
  }
  res.status(200).json({ jsonrpc: "2.0", id: id ?? null, error: { code: -32602, message } });
}
