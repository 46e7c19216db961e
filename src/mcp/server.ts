// The server factory: one MCP server definition for both protocol eras and every transport. It owns the
// resources/* handlers so the resolver sees every URI exactly as the client sent it; the SDK's Skills extension
// serves the skills methods over our SkillSource.
import {
  type CacheHint,
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  type InitializeResult,
  inputRequired,
  inputResponse,
  McpServer,
  ProtocolError,
  ProtocolErrorCode,
  type ServerCapabilities,
} from "@modelcontextprotocol/server";
import { SkillsExtension } from "@modelcontextprotocol/server/ext/skills";
import * as z from "zod";
import { listingRows, visiblePrompts } from "../resolve/index.js";
import type { SearchRequest } from "../search/index.js";
import { formatInstructions } from "./instructions.js";
import { answeredArguments, formatArgumentsRequest, formatPromptListing, getPrompt } from "./prompts.js";
import type { RequestView } from "./request-view.js";
import type { ShelfAccess } from "./shelf-access.js";
import { createSkillSource, notFoundError } from "./skills.js";
import { badCursor } from "./pages.js";
import { listingPage } from "./listing-pages.js";
import { callTool, PROMPT_TOOLS, RESOURCE_TOOLS, SEARCH_TOOL, TOOL_NAMES } from "./tools.js";

export interface ServerDeps {
  /** The live shelf: the current shelf and the one serve-time read. */
  readonly shelf: ShelfAccess;
  readonly version: string;
  /** `ttlMs` on cacheable 2026-07-28 results. */
  readonly ttlMs: number;
  /** Where the SDK's own warnings go (the CLI's logger); by default the SDK writes them to stderr. */
  readonly onWarning?: (path: string, message: string) => void;
}

const SERVER_NAME = "skillshelf";
const URI_TEMPLATE = "skill://{+path}";

const CAPABILITIES: ServerCapabilities = {
  resources: { listChanged: true, subscribe: true },
  prompts: { listChanged: true },
  tools: { listChanged: false },
};

export type Era = "legacy" | "modern";

// Params schemas, built once: HTTP builds a server per request. Owning them keeps malformed params -32602.
const CURSOR_PARAMS = { params: z.looseObject({ cursor: z.string().optional() }) };
const URI_PARAMS = { params: z.looseObject({ uri: z.string() }) };
const PROMPT_PARAMS = { params: z.looseObject({ name: z.string(), arguments: z.record(z.string(), z.string().nullable()).optional() }) };
// The SDK validates `initialize` itself and answers a malformed one with -32603 and zod's issue dump.
const INITIALIZE_PARAMS = {
  params: z.looseObject({
    protocolVersion: z.string({ error: "a protocol version string such as 2025-11-25" }),
    capabilities: z.looseObject({}, { error: "an object" }),
    clientInfo: z.looseObject(
      { name: z.string({ error: "a string" }), version: z.string({ error: "a string" }) },
      { error: "an object {name, version}" },
    ),
  }),
};
const TOOL_PARAMS = { params: z.looseObject({ name: z.string(), arguments: z.record(z.string(), z.unknown()).optional() }) };

/** Template and prompt lists come whole, so this server never issues a cursor for them and any cursor is one it
 *  did not issue. */
function refuseCursor(cursor: string | undefined): void {
  if (cursor !== undefined) throw badCursor();
}

/** Methods answered without a handler of the built server: `server/discover` is registered when a transport
 *  connects, `subscriptions/listen` is routed by the HTTP handler to its own streams. */
export const CONNECTION_METHODS: readonly string[] = ["server/discover", "subscriptions/listen"];

/** Every JSON-RPC request method a server answers: the SDK's own (`ping`, …), the Skills extension's and ours, as
 *  registered. The SDK keeps its handler table private; it is read here, in one place, and a build of the SDK that
 *  no longer has it fails the start loudly instead of counting every method as `other`. */
export function handledMethods(mcp: McpServer): readonly string[] {
  const table = (mcp.server as unknown as { _requestHandlers?: unknown })._requestHandlers;
  if (!(table instanceof Map)) throw new Error("the MCP SDK no longer exposes its request handlers: the metrics cannot name methods");
  return [...(table as Map<string, unknown>).keys()].sort();
}

/** A server for one connection (stdio) or one request (HTTP). `subscriptions`, when given, records the URIs a
 *  2025-era client subscribes to, for the session registry to announce; without it, subscribing is accepted
 *  and nothing can ever be delivered (stateless HTTP). */
export function buildMcpServer(deps: ServerDeps, view: RequestView, era: Era, subscriptions?: Set<string>): McpServer {
  const cacheHint: CacheHint = { ttlMs: deps.ttlMs, cacheScope: view.personal ? "private" : "public" };
  const shelf = deps.shelf.current;
  const mcp = new McpServer(
    { name: SERVER_NAME, version: deps.version },
    {
      instructions: formatInstructions(listingRows(shelf, view.scopeOn(shelf), false)),
      cacheHints: {
        "resources/list": cacheHint,
        "resources/templates/list": cacheHint,
        "resources/read": cacheHint,
        "prompts/list": cacheHint,
        "tools/list": cacheHint,
      },
    },
  );
  // First: the extension asserts that no resources or skills handler exists yet.
  attachSkills(mcp, deps, view, era, cacheHint);
  mcp.server.registerCapabilities(CAPABILITIES);
  ownInitialize(mcp.server);
  registerResources(mcp, deps, view, era, subscriptions);
  registerPrompts(mcp, deps, view, era);
  registerTools(mcp, deps, view);
  return mcp;
}

/**
 * The SDK's Skills extension declares the capability and serves `resources/directory/read` over our SkillSource.
 * `skills/list` and `skills/get` are then answered by the same source without the extension's per-request
 * re-validation of every entry, which cannot be turned off for a source: it costs about 40× a page of 100 skills,
 * answers -32603 for a served skill whose frontmatter carries a `metadata` value that is not a string map, and
 * refuses an alias of a SKILL.md URI that the resolver answers (docs/architecture.md).
 */
function attachSkills(mcp: McpServer, deps: ServerDeps, view: RequestView, era: Era, cacheHint: CacheHint): void {
  const source = createSkillSource(deps.shelf, view);
  const warn = deps.onWarning;
  new SkillsExtension({ source, cacheHint, ...(warn === undefined ? {} : { onWarning: (w) => warn(w.path, w.message) }) }).attach(mcp);
  // The SDK stamps cache fields on spec methods only; the extension's results carry them on 2026-07-28.
  const cacheFields = era === "modern" ? cacheHint : {};
  mcp.server.setRequestHandler("skills/list", CURSOR_PARAMS, async ({ cursor }, ctx) => ({
    ...(await source.list(cursor === undefined ? {} : { cursor }, ctx)),
    ...cacheFields,
  }));
  mcp.server.setRequestHandler("skills/get", URI_PARAMS, async ({ uri }, ctx) => ({
    skill: (await source.get(uri, ctx)) as object,
    ...cacheFields,
  }));
}

function registerResources(mcp: McpServer, deps: ServerDeps, view: RequestView, era: Era, subscriptions?: Set<string>): void {
  const server = mcp.server;
  server.setRequestHandler("resources/list", CURSOR_PARAMS, ({ cursor }) => {
    const shelf = deps.shelf.current;
    const page = listingPage(listingRows(shelf, view.scopeOn(shelf), view.fullListing), cursor);
    const resources = page.items.map((row) => ({ ...row }));
    return page.nextCursor === undefined ? { resources } : { resources, nextCursor: page.nextCursor };
  });
  server.setRequestHandler("resources/templates/list", CURSOR_PARAMS, ({ cursor }) => {
    refuseCursor(cursor);
    return {
      resourceTemplates: [
        {
          uriTemplate: URI_TEMPLATE,
          name: "skill",
          title: "A skill:// address",
          description:
            "Any address of the shelf: skill://<library>/_index.md, skill://<library>/<folder>/<name>/SKILL.md, …/_manifest, or a file they name.",
          mimeType: "text/markdown",
        },
      ],
    };
  });
  // Registered with our own params schema so a malformed request is -32602, never -32603.
  server.setRequestHandler("resources/read", URI_PARAMS, async ({ uri }) => {
    const outcome = await deps.shelf.read(uri, view.scopeOn);
    if (!outcome.ok) throw notFoundError(outcome.uri, outcome.message);
    view.onUse?.({ kind: "read", uri: outcome.uri, surface: "resources/read" });
    const { ok: _ok, ...content } = outcome;
    return { contents: [content] };
  });
  if (era === "legacy") {
    server.setRequestHandler("resources/subscribe", URI_PARAMS, ({ uri }) => {
      subscriptions?.add(uri);
      return {};
    });
    server.setRequestHandler("resources/unsubscribe", URI_PARAMS, ({ uri }) => {
      subscriptions?.delete(uri);
      return {};
    });
  }
}

/** The key of the one input request that asks for a prompt's missing arguments. */
const ARGUMENTS_REQUEST = "arguments";

/** Form elicitation: declared as `elicitation: {form: {}}`, or as a bare `elicitation: {}` (form is the default). */
function canElicitForm(capabilities: ClientCapabilities | undefined): boolean {
  const elicitation = capabilities?.elicitation as Record<string, unknown> | undefined;
  if (elicitation === undefined) return false;
  return elicitation["form"] !== undefined || elicitation["url"] === undefined;
}

function registerPrompts(mcp: McpServer, deps: ServerDeps, view: RequestView, era: Era): void {
  mcp.server.setRequestHandler("prompts/list", CURSOR_PARAMS, ({ cursor }) => {
    refuseCursor(cursor);
    const shelf = deps.shelf.current;
    return { prompts: visiblePrompts(shelf, view.scopeOn(shelf)).map(formatPromptListing) };
  });
  // On a 2026-07-28 request from a client that declared form elicitation, missing required arguments are asked for
  // (an input_required result with one form); the retried request carries the answer, merged over the arguments it
  // gave. A declined or cancelled form, and every other era or client, gets the -32602 refusal.
  mcp.server.setRequestHandler("prompts/get", PROMPT_PARAMS, ({ name, arguments: args }, ctx) => {
    const shelf = deps.shelf.current;
    const scope = view.scopeOn(shelf);
    const given = args ?? {};
    const answer = era === "modern" ? inputResponse(ctx.mcpReq.inputResponses, ARGUMENTS_REQUEST) : { kind: "missing" as const };
    let outcome = getPrompt(shelf, scope, name, given);
    if (!outcome.ok && answer.kind === "elicit" && answer.action === "accept") {
      const asked = outcome.missing.map((arg) => arg.name);
      outcome = getPrompt(shelf, scope, name, { ...given, ...answeredArguments(answer.content, asked) });
    }
    if (outcome.ok) view.onUse?.({ kind: "prompt", library: outcome.library, name: outcome.name, surface: "prompts/get" });
    if (outcome.ok)
      return { description: outcome.description, messages: [{ role: "user", content: { type: "text", text: outcome.text } }] };
    // A 2026-07-28 request carries the client's capabilities in its own envelope (stdio and HTTP alike).
    const envelope = ctx.mcpReq.envelope as Readonly<Record<string, unknown>> | undefined;
    const capabilities = envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
    const ask = outcome.missing.length > 0 && answer.kind === "missing" && era === "modern" && canElicitForm(capabilities);
    if (ask)
      return inputRequired({ inputRequests: { [ARGUMENTS_REQUEST]: inputRequired.elicit(formatArgumentsRequest(name, outcome.missing)) } });
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, outcome.message, { name });
  });
}

function registerTools(mcp: McpServer, deps: ServerDeps, view: RequestView): void {
  mcp.server.setRequestHandler("tools/list", CURSOR_PARAMS, ({ cursor }) => {
    refuseCursor(cursor);
    return { tools: [...(view.resourceTools ? RESOURCE_TOOLS : []), ...(view.promptTools ? PROMPT_TOOLS : []), SEARCH_TOOL] };
  });
  mcp.server.setRequestHandler("tools/call", TOOL_PARAMS, ({ name, arguments: args }) => {
    // An unknown tool is a protocol error (MCP tools chapter); bad arguments to a known one are a tool error.
    if (!TOOL_NAMES.has(name))
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}. The tools are ${[...TOOL_NAMES].join(", ")}.`);
    const shelf = deps.shelf.current;
    const read = async (uri: string) => {
      const outcome = await deps.shelf.read(uri, view.scopeOn);
      if (outcome.ok) view.onUse?.({ kind: "read", uri: outcome.uri, surface: "tool" });
      return outcome;
    };
    const search = async (request: SearchRequest) => {
      const outcome = await deps.shelf.search(request, view.scopeOn);
      if (outcome.ok) view.onUse?.({ kind: "search", query: request.query, found: outcome.rows.map((row) => row.uri), surface: "tool" });
      return outcome;
    };
    const prompted = (library: string, prompt: string): void => view.onUse?.({ kind: "prompt", library, name: prompt, surface: "tool" });
    return callTool(shelf, view.scopeOn(shelf), view.fullListing, { read, search, prompted }, name, args ?? {});
  });
}

type Handshake = { _oninitialize(request: { method: "initialize"; params: unknown }): Promise<InitializeResult> };

/** Re-registers `initialize` with our params schema (a malformed one is -32602 `Invalid params for initialize:
 *  params.clientInfo: …`, never -32603), then hands the checked request to the SDK's own handshake, which
 *  negotiates the version and records the client's capabilities exactly as before. */
function ownInitialize(server: McpServer["server"]): void {
  const handshake = server as unknown as Handshake;
  server.setRequestHandler("initialize", INITIALIZE_PARAMS, (params) => handshake._oninitialize({ method: "initialize", params }));
}
