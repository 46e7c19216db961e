// A raw MCP-over-HTTP client for load: stateless POSTs on keep-alive sockets, in either protocol era.
// modern (2026-07-28): per-request `_meta` envelope and the MCP-Protocol-Version / Mcp-Method / Mcp-Name headers,
// JSON replies. legacy (2025-11-25): the stateless fallback, no handshake needed per POST, SSE replies.
import http from "node:http";

export const MODERN_VERSION = "2026-07-28";
const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": MODERN_VERSION,
  "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/skills": {} } },
  "io.modelcontextprotocol/clientInfo": { name: "skillshelf-bench", version: "0" },
};

export class HttpRpc {
  constructor(url, { era = "modern", sockets = 8 } = {}) {
    this.url = new URL(url);
    this.era = era;
    this.agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
    this.nextId = 1;
  }

  /** Headers and body for one call, built once and reused for every send of the same call. */
  prepare(method, params = {}) {
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    let body;
    if (this.era === "modern") {
      headers["mcp-protocol-version"] = MODERN_VERSION;
      headers["mcp-method"] = method;
      if (method === "resources/read") headers["mcp-name"] = params.uri;
      if (method === "tools/call" || method === "prompts/get") headers["mcp-name"] = params.name;
      body = JSON.stringify({ jsonrpc: "2.0", id: 0, method, params: { ...params, _meta: ENVELOPE } });
    } else {
      headers["mcp-protocol-version"] = "2025-11-25";
      body = JSON.stringify({ jsonrpc: "2.0", id: 0, method, params });
    }
    headers["content-length"] = Buffer.byteLength(body);
    return { method, headers, body: Buffer.from(body) };
  }

  /** POST a prepared call; resolves with `{message, bytes, status}` (message is the JSON-RPC response). */
  send(prepared) {
    return new Promise((resolve, reject) => {
      const req = http.request(
        {
          host: this.url.hostname,
          port: this.url.port,
          path: this.url.pathname + this.url.search,
          method: "POST",
          headers: prepared.headers,
          agent: this.agent,
        },
        (res) => {
          const chunks = [];
          res.on("data", (chunk) => chunks.push(chunk));
          res.on("end", () => {
            const raw = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
            let message = null;
            try {
              message = parseBody(raw.toString("utf8"), res.headers["content-type"] ?? "");
            } catch (error) {
              reject(new Error(`HTTP ${res.statusCode}: unparseable reply (${error.message})`));
              return;
            }
            resolve({ message, bytes: raw.length, status: res.statusCode });
          });
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      req.setNoDelay(true);
      req.end(prepared.body);
    });
  }

  request(method, params) {
    return this.send(this.prepare(method, params));
  }

  close() {
    this.agent.destroy();
  }
}

/** The JSON-RPC message of a reply: the body itself (JSON), or the last `data:` event of an SSE stream. */
function parseBody(text, contentType) {
  if (!contentType.includes("text/event-stream")) return text === "" ? null : JSON.parse(text);
  let message = null;
  for (const line of text.split("\n")) if (line.startsWith("data:")) message = JSON.parse(line.slice(5));
  return message;
}
