// Shared plumbing for the scopes tests: the fixture's shelf service, an in-process MCP client over a compiled
// view, and helpers that turn a read, a tool call or a custom request into one comparable value.
import { ContentCache, ShelfReader } from "../../src/live/index.js";
import { Client, InMemoryTransport, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import * as z from "zod";
import { loadConfig } from "../../src/config/index.js";
import type { Access } from "../../src/http/access.js";
import { ShelfService } from "../../src/live/shelf-service.js";
import type { RequestView } from "../../src/mcp/request-view.js";
import { buildMcpServer } from "../../src/mcp/server.js";
import { serveApp } from "../support/http-app.js";
import { writeFixture, type Fixture } from "./fixture.js";

export interface Served {
  readonly fixture: Fixture;
  readonly service: ShelfService;
  /** Stops the service (when it has anything to stop) and removes the fixture. */
  stop(): Promise<void>;
}

/** The fixture on disk and its shelf, built with a fixed clock. */
export async function startFixture(): Promise<Served> {
  const fixture = writeFixture();
  const service = await ShelfService.start(await loadConfig(fixture.configPath), () => new Date(0));
  return {
    fixture,
    service,
    stop: async () => {
      await (service as { close?: () => Promise<void> }).close?.();
      fixture.remove();
    },
  };
}

export interface HttpServer {
  /** `http://127.0.0.1:PORT` */
  readonly origin: string;
  close(): Promise<void>;
}

/** The real HTTP app on an ephemeral port, with `access` deciding who may ask (its MCP endpoint closed too). */
export async function startHttp(service: ShelfService, access: Access): Promise<HttpServer> {
  const served = await serveApp(service, { access });
  return { origin: served.origin, close: () => served.close() };
}

/** An SDK client over Streamable HTTP to `url`, sending `headers` on every request. */
export async function connectHttp(
  url: string,
  headers: Record<string, string> = {},
  era: "legacy" | "modern" = "legacy",
): Promise<Connection> {
  const client = new Client(
    { name: "scopes-test", version: "1.0.0" },
    era === "modern" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {},
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return { client, close: () => client.close() };
}

export interface Connection {
  readonly client: Client;
  close(): Promise<void>;
}

/** A client talking to `buildMcpServer(view)` through the stdio entry over an in-memory pair. */
export async function connectView(service: ShelfService, view: RequestView, era: "legacy" | "modern" = "legacy"): Promise<Connection> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const handle = serveStdio(
    (ctx) => buildMcpServer({ shelf: new ShelfReader(service.holder, new ContentCache()), version: "0.0.0-test", ttlMs: 0 }, view, ctx.era),
    { transport: serverSide },
  );
  const client = new Client(
    { name: "scopes-test", version: "1.0.0" },
    era === "modern" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {},
  );
  await client.connect(clientSide);
  return {
    client,
    close: async () => {
      await client.close();
      await handle.close();
    },
  };
}

/** A failed request as the client sees it: class, code, message and data. */
export interface Failure {
  readonly error: string;
  readonly code: unknown;
  readonly message: string;
  readonly data: unknown;
}

export function toFailure(error: unknown): Failure {
  const e = error as { code?: unknown; message?: unknown; data?: unknown };
  return { error: (error as object).constructor.name, code: e.code, message: String(e.message), data: e.data };
}

export type Outcome = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly failure: Failure };

export async function attempt(run: () => Promise<unknown>): Promise<Outcome> {
  try {
    return { ok: true, value: await run() };
  } catch (error) {
    return { ok: false, failure: toFailure(error) };
  }
}

const LOOSE = z.looseObject({});

export function readResource(client: Client, uri: string): Promise<Outcome> {
  return attempt(() => client.readResource({ uri }));
}

export function readTool(client: Client, uri: string): Promise<unknown> {
  return client.callTool({ name: "read_resource", arguments: { uri } });
}

export function readDirectory(client: Client, uri: string): Promise<Outcome> {
  return attempt(() => client.request({ method: "resources/directory/read", params: { uri } }, LOOSE));
}

export function getSkill(client: Client, uri: string): Promise<Outcome> {
  return attempt(() => client.request({ method: "skills/get", params: { uri } }, LOOSE));
}

export async function listSkillUris(client: Client): Promise<string[]> {
  const result = await client.request(
    { method: "skills/list", params: {} },
    z.looseObject({ skills: z.array(z.looseObject({ uri: z.string() })) }),
  );
  return result.skills.map((entry) => entry.uri);
}

/** The not-found failure `resources/read` gives for `uri` (the URI as sent in the message and in data). */
export function notFound(message: string, uri: string): Outcome {
  return { ok: false, failure: { error: "ResourceNotFoundError", code: -32602, message, data: { uri } } };
}

export function textTool(text: string, isError = false): unknown {
  return isError ? { content: [{ type: "text", text }], isError: true } : { content: [{ type: "text", text }] };
}
