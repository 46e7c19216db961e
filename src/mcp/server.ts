// The server factory: one MCP server definition for both protocol eras and every transport. It owns the
// resources/* handlers so the resolver sees every URI exactly as the client sent it.
import { type InitializeResult, McpServer, ProtocolError, ProtocolErrorCode, type ServerCapabilities } from "@modelcontextprotocol/server";
import * as z from "zod";
import type { ShelfHolder } from "../live/index.js";
import { findSkillBySkillMd, listingRows, readDirectory, visiblePrompts } from "../resolve/index.js";
import { formatInstructions } from "./instructions.js";
import { formatPromptListing, getPrompt } from "./prompts.js";
import type { ContentCache } from "./content-cache.js";
import { readUri } from "./read.js";
import type { RequestView } from "./request-view.js";
import { DEFAULT_PAGE_SIZE, formatSkillEntry, listSkillEntries, paginate, parseCursor, SKILLS_EXTENSION } from "./skills.js";
import { callTool, PROMPT_TOOLS, RESOURCE_TOOLS, TOOL_NAMES } from "./tools.js";

export interface ServerDeps {
  readonly holder: ShelfHolder;
  readonly version: string;
  /** `ttlMs` on cacheable 2026-07-28 results. */
  readonly ttlMs: number;
  /** The process's bodies of recently read files, shared by every server it builds. */
  readonly contents: ContentCache;
}

export const SERVER_NAME = "skillshelf";
export const URI_TEMPLATE = "skill://{+path}";

const CAPABILITIES: ServerCapabilities = {
  resources: { listChanged: true, subscribe: true },
  prompts: { listChanged: true },
  tools: { listChanged: false },
  extensions: { [SKILLS_EXTENSION]: { directoryRead: true } },
};

export type Era = "legacy" | "modern";

// Params schemas, built once: HTTP builds a server per request. Owning them keeps malformed params -32602.
const CURSOR_PARAMS = { params: z.looseObject({ cursor: z.string().optional() }) };
const URI_PARAMS = { params: z.looseObject({ uri: z.string() }) };
const DIRECTORY_PARAMS = { params: z.looseObject({ uri: z.string(), cursor: z.string().optional() }) };
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

/** Not found is `-32602` with `data: {uri}` as sent (§2.4). */
export function notFoundError(uri: string, message: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, message, { uri });
}

function badCursor(): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, "Invalid cursor: pass back the nextCursor of the previous page unchanged");
}

/** A server for one connection (stdio) or one request (HTTP). `subscriptions`, when given, records the URIs a
 *  2025-era client subscribes to, for the session registry to announce; without it, subscribing is accepted
 *  and nothing can ever be delivered (stateless HTTP). */
export function buildMcpServer(deps: ServerDeps, view: RequestView, era: Era, subscriptions?: Set<string>): McpServer {
  const { holder } = deps;
  const scope = view.scope;
  const cacheScope = view.personal ? "private" : "public";
  const cacheHint = { ttlMs: deps.ttlMs, cacheScope } as const;
  // The SDK stamps cache fields on spec methods only; the extension's results carry them on 2026-07-28.
  const cacheFields = era === "modern" ? cacheHint : {};
  const cursorOf = (cursor: string | undefined): string | null => {
    if (cursor === undefined) return null;
    const after = parseCursor(cursor);
    if (after === null) throw badCursor();
    return after;
  };
  const mcp = new McpServer(
    { name: SERVER_NAME, version: deps.version },
    {
      instructions: formatInstructions(listingRows(holder.current, scope, false)),
      cacheHints: {
        "resources/list": cacheHint,
        "resources/templates/list": cacheHint,
        "resources/read": cacheHint,
        "prompts/list": cacheHint,
        "tools/list": cacheHint,
      },
    },
  );
  const server = mcp.server;
  server.registerCapabilities(CAPABILITIES);
  ownInitialize(server);

  // Lists come whole (a listing is a dozen index rows; even a full one is one page), so this server never
  // issues a cursor and any cursor is one it did not issue.
  const whole = (cursor: string | undefined): void => {
    if (cursor !== undefined) throw badCursor();
  };
  server.setRequestHandler("resources/list", CURSOR_PARAMS, ({ cursor }) => {
    whole(cursor);
    return { resources: listingRows(holder.current, scope, view.fullListing).map((row) => ({ ...row })) };
  });
  server.setRequestHandler("resources/templates/list", CURSOR_PARAMS, ({ cursor }) => {
    whole(cursor);
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
    const outcome = await readUri(holder, scope, uri, deps.contents);
    if (!outcome.ok) throw notFoundError(outcome.uri, outcome.message);
    return { contents: [{ ...outcome }].map(({ ok: _ok, ...content }) => content) };
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

  server.setRequestHandler("prompts/list", CURSOR_PARAMS, ({ cursor }) => {
    whole(cursor);
    return { prompts: visiblePrompts(holder.current, scope).map(formatPromptListing) };
  });
  server.setRequestHandler("prompts/get", PROMPT_PARAMS, ({ name, arguments: args }) => {
    const outcome = getPrompt(holder.current, scope, name, args ?? {});
    if (!outcome.ok) throw new ProtocolError(ProtocolErrorCode.InvalidParams, outcome.message, { name });
    return { description: outcome.description, messages: [{ role: "user", content: { type: "text", text: outcome.text } }] };
  });

  server.setRequestHandler("tools/list", CURSOR_PARAMS, ({ cursor }) => {
    whole(cursor);
    return { tools: [...(view.resourceTools ? RESOURCE_TOOLS : []), ...(view.promptTools ? PROMPT_TOOLS : [])] };
  });
  server.setRequestHandler("tools/call", TOOL_PARAMS, ({ name, arguments: args }) => {
    // An unknown tool is a protocol error (MCP tools chapter); bad arguments to a known one are a tool error.
    if (!TOOL_NAMES.has(name))
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}. The tools are ${[...TOOL_NAMES].join(", ")}.`);
    return callTool(holder.current, scope, view.fullListing, (uri) => readUri(holder, scope, uri, deps.contents), name, args ?? {});
  });

  server.setRequestHandler("skills/list", CURSOR_PARAMS, ({ cursor }) => {
    const page = listSkillEntries(holder.current, scope, cursorOf(cursor));
    return { skills: page.items, ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }), ...cacheFields };
  });
  server.setRequestHandler("skills/get", URI_PARAMS, ({ uri }) => {
    const skill = findSkillBySkillMd(holder.current, scope, uri);
    if (skill === null) throw notFoundError(uri, `Not a skill: ${uri}. skills/get takes the SKILL.md URI of a skill from skills/list.`);
    return { skill: formatSkillEntry(skill), ...cacheFields };
  });
  server.setRequestHandler("resources/directory/read", DIRECTORY_PARAMS, ({ uri, cursor }) => {
    const answer = readDirectory(holder.current, scope, uri);
    if (answer.kind === "notFound") throw notFoundError(uri, answer.message);
    const page = paginate(answer.entries, (entry) => entry.uri, cursorOf(cursor), DEFAULT_PAGE_SIZE);
    return {
      resources: page.items.map((entry) => ({ ...entry })),
      ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }),
      ...cacheFields,
    };
  });
  return mcp;
}

type Handshake = { _oninitialize(request: { method: "initialize"; params: unknown }): Promise<InitializeResult> };

/** Re-registers `initialize` with our params schema (a malformed one is -32602 `Invalid params for initialize:
 *  params.clientInfo: …`, never -32603), then hands the checked request to the SDK's own handshake, which
 *  negotiates the version and records the client's capabilities exactly as before. */
function ownInitialize(server: McpServer["server"]): void {
  const handshake = server as unknown as Handshake;
  server.setRequestHandler("initialize", INITIALIZE_PARAMS, (params) => handshake._oninitialize({ method: "initialize", params }));
}
