// Running the configured external scanner on one skill folder: a process without a shell, the folder as its last
// argument, stdout read as SARIF 2.1.0, killed (its whole process group) past its timeout or past a bound on what
// it prints. Every way it can fail is a reason in words; none names a path of this machine or the scanner's stderr.
import { spawn } from "node:child_process";
import { describeErrorCode } from "../address/index.js";
import type { ScannerConfig } from "../config/index.js";
import { readScannerSarif, type ScannerOutput } from "../guard/index.js";

/** The most a scanner may print for one folder. */
const MAX_OUTPUT_BYTES = 16 * 1024 * 1024;

/** Scans run at once, at most `max`; the rest wait in order. */
export class Limiter {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly max: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.max) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    try {
      return await task();
    } finally {
      // The slot passes straight to the next task waiting, or is given back.
      const next = this.waiting.shift();
      if (next === undefined) this.active--;
      else next();
    }
  }
}

/** The scanner's results on the folder at `folderAbs`, or why the scan failed. */
export function runScanner(scanner: Pick<ScannerConfig, "command" | "timeoutMs">, folderAbs: string): Promise<ScannerOutput> {
  const [program = "", ...args] = scanner.command;
  return new Promise((resolve) => {
    // Its own process group, so a timeout stops whatever the scanner started too.
    const child = spawn(program, [...args, folderAbs], { stdio: ["ignore", "pipe", "ignore"], detached: true });
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (outcome: ScannerOutput): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const stop = (reason: string): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        child.kill("SIGKILL");
      }
      finish({ ok: false, reason });
    };
    const timer = setTimeout(() => stop(`it did not finish within ${scanner.timeoutMs} ms and was stopped`), scanner.timeoutMs);
    child.stdout.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_OUTPUT_BYTES) stop(`it printed more than ${MAX_OUTPUT_BYTES} bytes and was stopped`);
      else chunks.push(chunk);
    });
    child.on("error", (error) => finish({ ok: false, reason: `it could not be started (${describeErrorCode(error)})` }));
    child.on("close", (code, signal) => {
      const output = readScannerSarif(Buffer.concat(chunks).toString("utf8"));
      if (output.ok || (code === 0 && signal === null)) return finish(output);
      finish({ ok: false, reason: `${output.reason}; it exited with ${code ?? signal}` });
    });
  });
}
