// The probes a supervisor or load balancer polls: GET /livez (the process answers) and GET /readyz (the first shelf
// is served and the server is not draining). They need no token and pass whatever Host header a kubelet or a load
// balancer sends, so they say nothing but one word: no shelf, no version, no count.
import express, { type Express, type NextFunction, type Request, type RequestHandler, type Response } from "express";

export type ReadinessState = "starting" | "ready" | "draining";

/** Whether this process should receive traffic: set by whoever serves (ready) and stops (draining) it. */
export class Readiness {
  private current: ReadinessState = "starting";

  get state(): ReadinessState {
    return this.current;
  }

  /** The first shelf is served. A draining server never becomes ready again. */
  markReady(): void {
    if (this.current === "starting") this.current = "ready";
  }

  /** Shutting down: /readyz answers 503 and every response asks the client to close its connection. */
  markDraining(): void {
    this.current = "draining";
  }
}

function answer(res: Response, status: number, word: string): void {
  res.status(status).set("Cache-Control", "no-store").type("text/plain").send(`${word}\n`);
}

/** This answer asks the client to close its connection, whatever headers its writer passes: the protocol SDK
 *  writes a streamed (SSE) answer's head with `Connection: keep-alive`, which would replace ours. */
function closeAfter(res: Response): void {
  res.set("Connection", "close");
  res.shouldKeepAlive = false;
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => Response;
  const withoutConnection = (headers: unknown): unknown => {
    if (Array.isArray(headers)) {
      const kept: unknown[] = [];
      for (let i = 0; i + 1 < headers.length; i += 2) {
        if (String(headers[i]).toLowerCase() !== "connection") kept.push(headers[i], headers[i + 1]);
      }
      return kept;
    }
    if (typeof headers !== "object" || headers === null) return headers;
    return Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== "connection"));
  };
  res.writeHead = ((...args: unknown[]) =>
    writeHead(...args.map((arg, i) => (i === 0 ? arg : withoutConnection(arg))))) as Response["writeHead"];
}

/** An app answering the probes, then handing every other request to `inner` (with its Host, Origin and token
 *  checks). While draining, every response carries `Connection: close`, so keep-alive clients reconnect — through
 *  a load balancer, to another replica. */
export function withProbes(inner: Express, readiness: Readiness, track?: RequestHandler, first?: RequestHandler): Express {
  const outer = express();
  if (track !== undefined) outer.use(track);
  outer.disable("x-powered-by");
  outer.disable("etag");
  outer.use((_req: Request, res: Response, next: NextFunction) => {
    // No answer of this server is to be sniffed into another type: a JSON error read as HTML would run.
    res.set("X-Content-Type-Options", "nosniff");
    if (readiness.state === "draining") closeAfter(res);
    next();
  });
  if (first !== undefined) outer.use(first);
  outer.get("/livez", (_req, res) => answer(res, 200, "ok"));
  outer.get("/readyz", (_req, res) => {
    if (readiness.state === "ready") answer(res, 200, "ready");
    else answer(res, 503, readiness.state);
  });
  outer.use(inner);
  return outer;
}
