// A smart-HTTP git server for tests: `git http-backend` behind Basic auth, on 127.0.0.1 and a free port.
import { execFileSync, spawn } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

export interface GitHttpServer {
  readonly url: string;
  /** Authorization headers received, for asserting what git sent. */
  readonly seen: string[];
  close(): Promise<void>;
}

function backendPath(): string {
  return path.join(execFileSync("git", ["--exec-path"], { encoding: "utf8" }).trim(), "git-http-backend");
}

/** Serve the repositories under `root`; requests must carry Basic `user:password`. */
export async function startGitHttpServer(root: string, user: string, password: string): Promise<GitHttpServer> {
  const backend = backendPath();
  const expected = `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    const auth = req.headers.authorization ?? "";
    if (auth !== "") seen.push(auth);
    if (auth !== expected) {
      res.writeHead(401, { "WWW-Authenticate": 'Basic realm="test"' }).end();
      return;
    }
    const url = new URL(req.url ?? "/", "http://localhost");
    const child = spawn(backend, [], {
      env: {
        PATH: process.env.PATH,
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: "1",
        REQUEST_METHOD: req.method ?? "GET",
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        CONTENT_TYPE: req.headers["content-type"] ?? "",
        HTTP_CONTENT_ENCODING: req.headers["content-encoding"] ?? "",
        GIT_PROTOCOL: String(req.headers["git-protocol"] ?? ""),
        REMOTE_USER: user,
        REMOTE_ADDR: "127.0.0.1",
      },
    });
    req.pipe(child.stdin);
    let head = Buffer.alloc(0);
    let headersDone = false;
    child.stdout.on("data", (chunk: Buffer) => {
      if (headersDone) {
        res.write(chunk);
        return;
      }
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf("\r\n\r\n");
      if (end === -1) return;
      headersDone = true;
      let status = 200;
      for (const line of head.subarray(0, end).toString("latin1").split("\r\n")) {
        const colon = line.indexOf(":");
        const name = line.slice(0, colon).trim();
        const value = line.slice(colon + 1).trim();
        if (name.toLowerCase() === "status") status = Number.parseInt(value, 10);
        else res.setHeader(name, value);
      }
      res.writeHead(status);
      res.write(head.subarray(end + 4));
    });
    child.stdout.on("end", () => res.end());
    child.on("error", () => res.writeHead(500).end());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
