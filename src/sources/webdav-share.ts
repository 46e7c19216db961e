// Talking to one WebDAV share through the `webdav` client: the recursive listing of a folder (one PROPFIND of depth
// infinity where the server allows it, else a walk of depth-1 listings), one file's properties, one file's bytes.
// Every failure becomes a fixed sentence (webdav-errors.ts): the client's own messages name URLs.
import type { FileStat, WebDAVClient } from "webdav";
import type { SourceConfig } from "../config/index.js";
import { davFailure, describeDavFailure, statusOf } from "./webdav-errors.js";

/** One file of a listing: what identifies its bytes (the ETag, else the modified time and size), and its size. */
export interface DavEntry {
  readonly tag: string;
  readonly size: number;
}

/** Path relative to the listed folder (POSIX, no leading `/`) → entry. */
export type DavListing = ReadonlyMap<string, DavEntry>;

/** What a fetch needs to reach its folder: the share's URL (no userinfo), the folder in it, and the source that
 *  holds the credentials. */
export interface DavFolder {
  readonly url: string;
  readonly path: string;
  readonly source: SourceConfig;
}

/** Statuses a server answers a PROPFIND of depth infinity with when it only allows finite depths. */
const NO_INFINITY = new Set([400, 403, 405, 501]);
/** Folders listed at once by a walk. */
const WALKERS = 8;

export class DavShare {
  private constructor(
    /** The WebDAV library is loaded with the first share opened: a server with no WebDAV source never loads it. */
    private readonly client: Promise<WebDAVClient>,
    private readonly folder: DavFolder,
    private readonly timeoutMs: number,
  ) {}

  /** A client with the source's credentials, read from `env` now. Throws a SourceFailure when one is unset. */
  static open(folder: DavFolder, env: NodeJS.ProcessEnv, timeoutMs: number): DavShare {
    const auth = folder.source.auth;
    const username = typeof auth?.username === "object" ? readEnv(folder.source, env, auth.username.env) : auth?.username;
    const password = auth?.password === undefined ? undefined : readEnv(folder.source, env, auth.password.env);
    const client = import("webdav").then(({ createClient }) =>
      createClient(folder.url, {
        ...(username === undefined ? {} : { username }),
        ...(password === undefined ? {} : { password }),
      }),
    );
    return new DavShare(client, folder, timeoutMs);
  }

  /** `/team/notes`, `/` for the share's root: the folder as the client addresses it. */
  private get root(): string {
    return this.folder.path === "" ? "/" : `/${this.folder.path}`;
  }

  private remote(rel: string): string {
    return this.root === "/" ? `/${rel}` : `${this.root}/${rel}`;
  }

  /** Every file under the folder. */
  async list(): Promise<DavListing> {
    try {
      const deep = (await (await this.client).getDirectoryContents(this.root, { deep: true, signal: this.signal() })) as FileStat[];
      return this.collect(deep);
    } catch (error) {
      const status = statusOf(error);
      if (status === undefined || !NO_INFINITY.has(status)) throw describeDavFailure(error, this.folder.path, this.timeoutMs);
    }
    return this.walk();
  }

  /** The listing one folder at a time (WALKERS folders in flight), for servers that refuse depth infinity. */
  private async walk(): Promise<DavListing> {
    const stats: FileStat[] = [];
    const pending = [this.root];
    let running = 0;
    let failure: unknown;
    await new Promise<void>((resolve) => {
      const next = (): void => {
        while (failure === undefined && running < WALKERS && pending.length > 0) {
          const dir = pending.pop() as string;
          running++;
          this.client
            .then((client) => client.getDirectoryContents(dir, { signal: this.signal() }))
            .then((items) => {
              for (const item of items as FileStat[]) {
                stats.push(item);
                if (item.type === "directory") pending.push(item.filename);
              }
            })
            .catch((error: unknown) => {
              failure ??= error;
            })
            .finally(() => {
              running--;
              next();
            });
        }
        if (running === 0) resolve();
      };
      next();
    });
    if (failure !== undefined) throw describeDavFailure(failure, this.folder.path, this.timeoutMs);
    return this.collect(stats);
  }

  private collect(stats: readonly FileStat[]): DavListing {
    const prefix = this.root === "/" ? "/" : `${this.root}/`;
    const listing = new Map<string, DavEntry>();
    for (const stat of stats) {
      if (stat.type !== "file" || !stat.filename.startsWith(prefix)) continue;
      const rel = stat.filename.slice(prefix.length);
      if (!isPlainPath(rel)) continue;
      listing.set(rel, { tag: tagOf(stat), size: stat.size });
    }
    return listing;
  }

  /** The tag and size of one file now, or null when it is gone from the share. */
  async tag(rel: string, signal: AbortSignal): Promise<DavEntry | null> {
    try {
      const stat = (await (await this.client).stat(this.remote(rel), { signal })) as FileStat;
      return stat.type === "file" ? { tag: tagOf(stat), size: stat.size } : null;
    } catch (error) {
      if (statusOf(error) === 404) return null;
      throw describeDavFailure(error, this.folder.path, this.timeoutMs);
    }
  }

  /** The bytes of one file. */
  async download(rel: string, signal: AbortSignal = this.signal()): Promise<Uint8Array> {
    try {
      const body = (await (await this.client).getFileContents(this.remote(rel), { format: "binary", signal })) as Buffer;
      return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
    } catch (error) {
      throw describeDavFailure(error, this.folder.path, this.timeoutMs);
    }
  }

  private signal(): AbortSignal {
    return AbortSignal.timeout(this.timeoutMs);
  }
}

/** The ETag when the server gives one, else the modified time and size. */
function tagOf(stat: FileStat): string {
  return stat.etag !== null && stat.etag !== "" ? `etag:${stat.etag}` : `mtime:${stat.lastmod}:${stat.size}`;
}

/** A relative path that can be written below the export: no empty, `.` or `..` segment, no NUL or backslash. */
function isPlainPath(rel: string): boolean {
  if (rel === "" || rel.includes("\0") || rel.includes("\\")) return false;
  return rel.split("/").every((segment) => segment !== "" && segment !== "." && segment !== "..");
}

function readEnv(source: SourceConfig, env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name];
  if (value === undefined || value === "") {
    throw davFailure("auth", `the credentials of source '${source.name}' are unavailable: environment variable ${name} is not set`);
  }
  return value;
}
