// Drives hostile URIs through every surface that takes an address — `resources/read`, the `read_resource` tool,
// `skills/get`, `resources/directory/read` and the page's file routes — of a real server and classifies each
// answer: served (a file of the caller's library), refused (a JSON-RPC -32602, a tool error, a page 4xx), an
// escape (any answer carrying a marker, the fixture's directory, or a file of another library) or an internal
// error (-32603, a 5xx, a body that is not JSON-RPC where JSON-RPC was asked).
import http from "node:http";
import { performance } from "node:perf_hooks";
import { MARKERS } from "./hostile-fixture.js";

export const RPC_SURFACES = ["resources/read", "read_resource", "skills/get", "resources/directory/read"] as const;
export type RpcSurface = (typeof RPC_SURFACES)[number];
export type Surface = RpcSurface | "page";
/** The page routes that take a library and a path; a URI is sent to one of them in turn. */
export const PAGE_ROUTES = ["raw", "files", "skills", "libraries"] as const;

export interface Finding {
  readonly surface: Surface;
  readonly uri: string;
  readonly kind: "escape" | "internal";
  readonly detail: string;
}

export interface FuzzFigures {
  uris: number;
  answers: number;
  served: number;
  /** Answers that served something, per surface: each must reach real files, or its "0 escapes" says nothing. */
  servedBy: Record<Surface, number>;
  refused: number;
  escapes: number;
  internalErrors: number;
  slowestMs: number;
  slowestUri: string;
  findings: Finding[];
}

const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

function bodyOf(surface: RpcSurface, uri: string, id: number): string {
  return JSON.stringify(
    surface === "read_resource"
      ? { jsonrpc: "2.0", id, method: "tools/call", params: { name: "read_resource", arguments: { uri } } }
      : { jsonrpc: "2.0", id, method: surface, params: { uri } },
  );
}

/**
 * The request target of a URI on a page route, as a hostile browser or script would send it: `skill://lib/a/b` on
 * `raw` is `/raw/lib/a/b`, with dot segments, escapes, backslashes and `#` left exactly as they are (a WHATWG URL
 * would resolve `..` before sending, so the page would never see them). Only bytes HTTP forbids in a request
 * target (controls, space, non-ASCII) are percent-escaped.
 */
export function pageTarget(route: (typeof PAGE_ROUTES)[number], uri: string): string {
  const rest = /^skill:\/\//i.test(uri) ? uri.slice("skill://".length) : uri;
  const escaped = Array.from(new TextEncoder().encode(rest), (byte) =>
    byte > 0x20 && byte < 0x7f ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`,
  ).join("");
  return `/${route}/${escaped}`;
}

interface Entry {
  uri?: unknown;
}
interface RpcAnswer {
  result?: {
    contents?: (Entry & { text?: unknown; blob?: unknown })[];
    content?: { text?: unknown }[];
    isError?: boolean;
    skill?: Entry & { resources?: Entry[] };
    resources?: Entry[];
  };
  error?: { code?: unknown; message?: unknown };
}

/** The one JSON-RPC message of an answer, SSE-framed or plain. */
export function parseRpcAnswer(text: string): RpcAnswer | null {
  const data = /^data: (.*)$/m.exec(text);
  try {
    return JSON.parse(data === null ? text : (data[1] as string)) as RpcAnswer;
  } catch {
    return null;
  }
}

/** Classify one answer; `null` when it is fine. `library` is the only library the caller may see. */
export function judge(
  status: number,
  text: string,
  forbidden: readonly string[],
  library: string,
): Omit<Finding, "surface" | "uri"> | "served" | "refused" {
  for (const secret of forbidden)
    if (text.includes(secret)) return { kind: "escape", detail: `the answer contains ${JSON.stringify(secret)}` };
  if (status >= 500) return { kind: "internal", detail: `HTTP ${status}` };
  const answer = parseRpcAnswer(text);
  if (answer === null) return { kind: "internal", detail: `not JSON-RPC (HTTP ${status}): ${text.slice(0, 120)}` };
  if (answer.error !== undefined) {
    if (answer.error.code === -32602) return "refused";
    return { kind: "internal", detail: `JSON-RPC error ${String(answer.error.code)}: ${String(answer.error.message).slice(0, 120)}` };
  }
  const result = answer.result;
  // Every address an answer names must be of the caller's library: the files read, a skill and its resources, a
  // directory's entries.
  const named =
    result?.contents ?? (result?.skill !== undefined ? [result.skill, ...(result.skill.resources ?? [])] : undefined) ?? result?.resources;
  if (named !== undefined) {
    for (const entry of named) {
      if (typeof entry.uri !== "string" || libraryOf(entry.uri) !== library) {
        return { kind: "escape", detail: `served ${String(entry.uri)} outside library ${library}` };
      }
    }
    return "served";
  }
  if (result?.content !== undefined) return result.isError === true ? "refused" : "served";
  return { kind: "internal", detail: `an answer with no contents, content, skill or resources: ${text.slice(0, 120)}` };
}

/** Classify one page answer: a 2xx is served, a 4xx refused, a 5xx internal; a marker or the fixture's path anywhere
 * (headers included) is an escape. The page's routes answer only the caller's libraries, so the markers of the
 * other library and of the files outside are what an escape would carry. */
export function judgePage(
  status: number,
  text: string,
  forbidden: readonly string[],
): Omit<Finding, "surface" | "uri"> | "served" | "refused" {
  for (const secret of forbidden)
    if (text.includes(secret)) return { kind: "escape", detail: `the page answer contains ${JSON.stringify(secret)}` };
  if (status >= 500) return { kind: "internal", detail: `HTTP ${status}` };
  if (status >= 200 && status < 300) return "served";
  if (status >= 400) return "refused";
  return { kind: "internal", detail: `HTTP ${status} where a page, a file or a 4xx was expected` };
}

/** One GET with the request target sent byte for byte; the answer's headers and body as one text. */
function getRaw(endpoint: URL, target: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: endpoint.hostname, port: endpoint.port, method: "GET", path: target, headers: { accept: "text/html" } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            text: `${JSON.stringify(response.headers)}\n${Buffer.concat(chunks).toString("utf8")}`,
          }),
        );
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end();
  });
}

/** The library an answer's URI (echoed as sent) names: `SKILL://l%69b/x` => `lib`. */
function libraryOf(uri: string): string | null {
  const match = /^skill:\/\/([^/]*)\//i.exec(uri);
  if (match === null) return null;
  try {
    return decodeURIComponent(match[1] as string).toLowerCase();
  } catch {
    return null;
  }
}

export interface FuzzOptions {
  readonly endpoint: string;
  readonly uris: readonly string[];
  /** Requests in flight at once. */
  readonly concurrency: number;
  /** The fixture's directory: an answer naming it leaks a path. */
  readonly fixtureDir: string;
  readonly library: string;
}

/** Every URI through both surfaces. */
export async function runFuzz(options: FuzzOptions): Promise<FuzzFigures> {
  const forbidden = [...Object.values(MARKERS), options.fixtureDir];
  const figures: FuzzFigures = {
    uris: options.uris.length,
    answers: 0,
    served: 0,
    servedBy: { "resources/read": 0, read_resource: 0, "skills/get": 0, "resources/directory/read": 0, page: 0 },
    refused: 0,
    escapes: 0,
    internalErrors: 0,
    slowestMs: 0,
    slowestUri: "",
    findings: [],
  };
  const endpoint = new URL(options.endpoint);
  const jobs: { surface: Surface; uri: string }[] = options.uris.flatMap((uri) => [
    ...RPC_SURFACES.map((surface) => ({ surface, uri })),
    { surface: "page" as const, uri },
  ]);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < jobs.length) {
      const index = next++;
      const { surface, uri } = jobs[index] as { surface: Surface; uri: string };
      const started = performance.now();
      let status: number;
      let text: string;
      try {
        if (surface === "page") {
          ({ status, text } = await getRaw(
            endpoint,
            pageTarget(PAGE_ROUTES[index % PAGE_ROUTES.length] as (typeof PAGE_ROUTES)[number], uri),
          ));
        } else {
          const response = await fetch(options.endpoint, { method: "POST", headers: HEADERS, body: bodyOf(surface, uri, index) });
          status = response.status;
          text = await response.text();
        }
      } catch (error) {
        status = 599;
        text = `transport failure: ${(error as Error).message}`;
      }
      const took = performance.now() - started;
      if (took > figures.slowestMs) {
        figures.slowestMs = took;
        figures.slowestUri = uri;
      }
      figures.answers++;
      const verdict = surface === "page" ? judgePage(status, text, forbidden) : judge(status, text, forbidden, options.library);
      if (verdict === "served") {
        figures.served++;
        figures.servedBy[surface]++;
      } else if (verdict === "refused") figures.refused++;
      else {
        if (verdict.kind === "escape") figures.escapes++;
        else figures.internalErrors++;
        if (figures.findings.length < 20) figures.findings.push({ surface, uri, ...verdict });
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  return figures;
}
