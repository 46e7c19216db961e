// A real WebDAV server on loopback for the tests: webdav-server v2 over a folder on disk, behind Basic auth. It counts
// the requests it answers (GETs by path, PROPFINDs), can refuse one account a folder (403, as a share's access rule
// does), can answer slowly, and can be stopped and started again on the same port.
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { v2 as webdav } from "webdav-server";

export interface DavServerOptions {
  /** user → password. */
  readonly users: Readonly<Record<string, string>>;
  /** Allow PROPFIND of depth infinity (webdav-server answers 403 to it by default). */
  readonly infinity?: boolean;
  /** `{user, folder}`: requests of `user` for `folder` or below answer 403. */
  readonly forbid?: { readonly user: string; readonly folder: string };
  /** Serve HTTPS with this key and certificate. */
  readonly tls?: { readonly key: string; readonly cert: string };
}

export class DavServer {
  /** Decoded paths of the GETs answered, in order. */
  readonly gets: string[] = [];
  propfinds = 0;
  /** Wait this long before answering each request. */
  delayMs = 0;
  private http: http.Server | undefined;
  private port = 0;

  private constructor(
    private readonly root: string,
    private readonly options: DavServerOptions,
  ) {}

  static async start(root: string, options: DavServerOptions): Promise<DavServer> {
    const server = new DavServer(root, options);
    await server.listen();
    return server;
  }

  /** `http://127.0.0.1:<port>`, the same across a stop and a start. */
  get origin(): string {
    return `${this.options.tls === undefined ? "http" : "https"}://127.0.0.1:${this.port}`;
  }

  async listen(): Promise<void> {
    const users = new webdav.SimpleUserManager();
    const privileges = new webdav.SimplePathPrivilegeManager();
    for (const [name, password] of Object.entries(this.options.users))
      privileges.setRights(users.addUser(name, password, false), "/", ["all"]);
    const dav = new webdav.WebDAVServer({
      httpAuthentication: new webdav.HTTPBasicAuthentication(users, "skills"),
      privilegeManager: privileges,
      ...(this.options.infinity === true ? { maxRequestDepth: Infinity } : {}),
    });
    const forbid = this.options.forbid;
    if (forbid !== undefined) {
      dav.beforeRequest((ctx, next) => {
        const at = ctx.requested.path.toString();
        if (ctx.user?.username === forbid.user && (at === forbid.folder || at.startsWith(`${forbid.folder}/`))) {
          ctx.setCode(403);
          ctx.exit();
          return;
        }
        next();
      });
    }
    await new Promise<void>((resolve, reject) =>
      dav.setFileSystem("/", new webdav.PhysicalFileSystem(this.root), (ok) =>
        ok ? resolve() : reject(new Error("setFileSystem failed")),
      ),
    );
    const handle = (req: http.IncomingMessage, res: http.ServerResponse): void => {
      if (req.method === "GET") this.gets.push(decodeURIComponent(req.url ?? ""));
      if (req.method === "PROPFIND") this.propfinds++;
      const answer = () => dav.executeRequest(req, res);
      if (this.delayMs > 0) setTimeout(answer, this.delayMs);
      else answer();
    };
    this.http = this.options.tls === undefined ? http.createServer(handle) : https.createServer({ ...this.options.tls }, handle);
    const server = this.http;
    await new Promise<void>((resolve) => server.listen(this.port, "127.0.0.1", resolve));
    this.port = (server.address() as AddressInfo).port;
  }

  /** Stop answering: the port refuses connections until `listen()` again. */
  async stop(): Promise<void> {
    const server = this.http;
    if (server === undefined) return;
    this.http = undefined;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
