// Drives hostile URIs through `resources/read` and the `read_resource` tool of a real server and classifies each
// answer: served (a file of the caller's library), refused (a JSON-RPC -32602 or a tool error), an escape (any
// answer carrying a marker, the fixture's directory, or a file of another library) or an internal error (-32603,
// a 5xx, a body that is not JSON-RPC).
import { performance } from "node:perf_hooks";
import { MARKERS } from "./hostile-fixture.js";

export type Surface = "resources/read" | "read_resource";

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
  refused: number;
  escapes: number;
  internalErrors: number;
  slowestMs: number;
  slowestUri: string;
  findings: Finding[];
}

const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

function bodyOf(surface: Surface, uri: string, id: number): string {
  return JSON.stringify(
    surface === "resources/read"
      ? { jsonrpc: "2.0", id, method: "resources/read", params: { uri } }
      : { jsonrpc: "2.0", id, method: "tools/call", params: { name: "read_resource", arguments: { uri } } },
  );
}

interface RpcAnswer {
  result?: { contents?: { uri?: unknown; text?: unknown; blob?: unknown }[]; content?: { text?: unknown }[]; isError?: boolean };
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
  if (result?.contents !== undefined) {
    for (const content of result.contents) {
      if (typeof content.uri !== "string" || libraryOf(content.uri) !== library) {
        return { kind: "escape", detail: `served ${String(content.uri)} outside library ${library}` };
      }
    }
    return "served";
  }
  if (result?.content !== undefined) return result.isError === true ? "refused" : "served";
  return { kind: "internal", detail: `an answer with neither contents nor content: ${text.slice(0, 120)}` };
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
    refused: 0,
    escapes: 0,
    internalErrors: 0,
    slowestMs: 0,
    slowestUri: "",
    findings: [],
  };
  const jobs: { surface: Surface; uri: string }[] = options.uris.flatMap((uri) => [
    { surface: "resources/read" as const, uri },
    { surface: "read_resource" as const, uri },
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
        const response = await fetch(options.endpoint, { method: "POST", headers: HEADERS, body: bodyOf(surface, uri, index) });
        status = response.status;
        text = await response.text();
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
      const verdict = judge(status, text, forbidden, options.library);
      if (verdict === "served") figures.served++;
      else if (verdict === "refused") figures.refused++;
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
