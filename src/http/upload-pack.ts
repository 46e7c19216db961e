// Running `git upload-pack --stateless-rpc` for one request: the pack's memory bounded, its output streamed to the
// client, the request body bounded (and gunzipped when git sent it so), the process stopped when the client goes
// away; and the counting semaphore that bounds how many run at once.
import { spawn } from "node:child_process";
import { createGunzip } from "node:zlib";
import type { Request, Response } from "express";
import { gitEnv, UPLOAD_PACK_CONFIG } from "../plugins/index.js";

/** A fetch request (wants, haves, shallow lines) larger than this is refused. */
const MAX_REQUEST_BYTES = 8 * 1024 * 1024;

/** How one pack is made: git's memory bound for it (`pack.windowMemory`, `pack.deltaCacheSize`), and where a
 *  failure to start git is reported. */
export interface PackRun {
  readonly memory: string;
  readonly onError: (error: unknown) => void;
}

/** One `git upload-pack --stateless-rpc` run, its output streamed to the client; killed when the client goes away. */
export function uploadPack(
  req: Request,
  res: Response,
  dir: string,
  advertise: boolean,
  protocol: string | undefined,
  pack: PackRun,
): Promise<void> {
  const memory = pack.memory;
  const args = [
    "-c",
    `pack.windowMemory=${memory}`,
    "-c",
    `pack.deltaCacheSize=${memory}`,
    "-c",
    "pack.threads=1",
    "-c",
    "uploadpack.allowFilter=true",
    ...UPLOAD_PACK_CONFIG,
    "upload-pack",
    "--stateless-rpc",
    ...(advertise ? ["--advertise-refs"] : []),
    dir,
  ];
  return new Promise((resolve) => {
    const child = spawn("git", args, {
      env: gitEnv(protocol === undefined ? {} : { GIT_PROTOCOL: protocol }),
      stdio: ["pipe", "pipe", "pipe"],
    });
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      resolve();
    };
    const stop = (): void => {
      if (child.exitCode === null) child.kill("SIGTERM");
    };
    res.once("close", stop);
    child.stderr.resume();
    child.on("error", (error) => {
      pack.onError(error);
      if (!res.headersSent) res.status(500);
      res.end();
      finish();
    });
    child.stdout.pipe(res);
    child.on("close", finish);
    child.stdin.on("error", () => undefined);
    if (advertise) return void child.stdin.end();
    let received = 0;
    const body = req.headers["content-encoding"] === "gzip" ? req.pipe(createGunzip()) : req;
    body.on("data", (chunk: Buffer) => {
      received += chunk.byteLength;
      if (received > MAX_REQUEST_BYTES) {
        stop();
        res.destroy();
      }
    });
    body.on("error", () => {
      stop();
      res.destroy();
    });
    body.pipe(child.stdin);
  });
}

/** A counting semaphore: at most `size` runs at once, the rest in order. */
export class Slots {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly size: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    try {
      return await work();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}
