// Raw HTTP against a real server: node:http rather than fetch, so a test can send any Host header it likes and
// hold a request body open.
import http, { type ClientRequest, type IncomingHttpHeaders } from "node:http";

export interface RawResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
}

export interface RawRequest {
  readonly method?: string;
  readonly path?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | Buffer;
}

/** Starts a request and returns it unsent, with the promise of its response. */
export function openRequest(origin: string, options: RawRequest = {}): { request: ClientRequest; response: Promise<RawResponse> } {
  const url = new URL(options.path ?? "/", origin);
  const request = http.request(url, { method: options.method ?? "GET", headers: { ...options.headers }, agent: false });
  const response = new Promise<RawResponse>((resolve, reject) => {
    request.once("error", reject);
    request.once("response", (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.once("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      res.once("error", reject);
    });
  });
  return { request, response };
}

export function send(origin: string, options: RawRequest = {}): Promise<RawResponse> {
  const { request, response } = openRequest(origin, options);
  request.end(options.body);
  return response;
}

/** A 2025-era `initialize` POST, the smallest MCP request a guard can let through or refuse. */
export function initializeBody(): string {
  return JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "guard-test", version: "1.0.0" } },
  });
}

export const MCP_HEADERS = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" } as const;
