// What a request is labelled on /metrics and in its debug log line: the route (the operator's routes as they are, every
// page one label, the discovery index and the git remote one label each), the MCP method when the server answers it,
// and the outcome. Every label value comes from a fixed set, so no caller and no skill can mint a series.

/** One answered request, for a debug log line: never a token, never a body. */
export interface RequestRecord {
  readonly method: string;
  readonly route: string;
  /** The MCP method on POST /mcp. */
  readonly mcp?: string;
  /** The URI read or the prompt or tool named, as the client sent it (cut to 200 characters). */
  readonly target?: string;
  readonly client: string;
  readonly outcome: string;
  readonly status: number;
  readonly ms: number;
}

export function targetOf(body: unknown): string | undefined {
  const params = typeof body === "object" && body !== null ? (body as { params?: unknown }).params : undefined;
  if (typeof params !== "object" || params === null) return undefined;
  const { uri, name } = params as { uri?: unknown; name?: unknown };
  const target = typeof uri === "string" ? uri : typeof name === "string" ? name : undefined;
  return target?.slice(0, 200);
}

const ROUTES = new Set(["/mcp", "/health", "/reindex", "/metrics", "/openapi.yaml", "/", "/livez", "/readyz"]);
/** Every other page of the web page counts as `/`, so the label's values stay few whatever the shelf holds. */
const PAGE_ROUTES =
  /^\/(libraries|skills|files|raw)\/|^\/(search|connect|status(?:\/usage)?|signin(?:\/oidc(?:\/callback)?)?|signout|assets\/style\.css|favicon\.ico)$/;

/** The discovery index at any base, and its artifacts, each one label: a personal link's token never becomes one. */
const DISCOVERY_ROUTES: readonly (readonly [RegExp, string])[] = [
  [/\/\.well-known\/agent-skills\/index\.json$/, "/.well-known/agent-skills/index.json"],
  [/^(?:\/feeds\/[^/]+)?\/artifacts\//, "/artifacts"],
  [/^(?:\/feeds\/[^/]+)?\/plugins(?:\/libraries\/[^/]+)?\/marketplace\.json$/, "/plugins/marketplace.json"],
  [/^(?:\/feeds\/[^/]+)?\/plugins\/git\//, "/plugins/git"],
];

/** The `route` label of a request path: the operator's routes as they are, every page `/`, the discovery index and
 *  its artifacts one label each, and anything else `other`. */
export function routeLabel(path: string): string {
  if (ROUTES.has(path)) return path;
  if (PAGE_ROUTES.test(path)) return "/";
  return DISCOVERY_ROUTES.find(([test]) => test.test(path))?.[1] ?? "other";
}

/** The label of an MCP request: its JSON-RPC method when the server answers it, `notification` for any
 *  notification, else `other` (so a client cannot mint series). */
export function mcpMethodOf(body: unknown, methods: ReadonlySet<string>): string {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return "other";
  const method = (body as { method?: unknown }).method;
  if (typeof method !== "string") return "other";
  if (method.startsWith("notifications/")) return "notification";
  return methods.has(method) ? method : "other";
}

/** ok (2xx, 3xx), refused (4xx: a guard, a token, a bad request) or error (5xx). */
export function outcomeOf(status: number): string {
  return status >= 500 ? "error" : status >= 400 ? "refused" : "ok";
}
