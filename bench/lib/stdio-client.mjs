// A raw JSON-RPC client over a child's stdio: newline-delimited messages, ids matched to pending requests.
// Raw rather than the SDK Client so the client's own cost per request stays small and equal for every server
// (on a 2-core machine the client and the server share the CPU), and so nothing is cached client-side.
import { spawn } from "node:child_process";

export const LEGACY_VERSION = "2025-11-25";

export class StdioRpc {
  constructor(command, args, { env } = {}) {
    this.t0 = performance.now();
    this.child = spawn(command, args, { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, ...env } });
    this.pid = this.child.pid;
    this.nextId = 1;
    this.pending = new Map();
    this.notifications = [];
    this.waiters = new Set();
    this.stderr = "";
    this.buffer = "";
    this.child.stderr.setEncoding("utf8");
    this.child.stderr.on("data", (chunk) => {
      if (this.stderr.length < 50_000) this.stderr += chunk;
    });
    this.child.stdout.setEncoding("utf8");
    this.child.stdout.on("data", (chunk) => this.onData(chunk));
    this.exited = new Promise((resolve) => this.child.once("exit", (code, signal) => resolve({ code, signal })));
    this.exited.then(({ code, signal }) => {
      for (const { reject } of this.pending.values()) reject(new Error(`server exited (${code ?? signal}): ${this.stderr.slice(-400)}`));
      this.pending.clear();
    });
  }

  onData(chunk) {
    this.buffer += chunk;
    let newline;
    while ((newline = this.buffer.indexOf("\n")) !== -1) {
      const line = this.buffer.slice(0, newline);
      this.buffer = this.buffer.slice(newline + 1);
      if (line.trim() === "") continue;
      const bytes = line.length;
      const message = JSON.parse(line);
      if (message.id === undefined) {
        const at = performance.now();
        this.notifications.push({ at, method: message.method, params: message.params });
        for (const waiter of [...this.waiters]) if (waiter.match(message)) waiter.resolve(at);
        continue;
      }
      const waiter = this.pending.get(message.id);
      if (waiter === undefined) continue;
      this.pending.delete(message.id);
      waiter.resolve({ message, bytes });
    }
  }

  /** Send one request; resolves with `{message, bytes}` (bytes of the response line). */
  request(method, params) {
    const id = this.nextId++;
    const line = `{"jsonrpc":"2.0","id":${id},"method":${JSON.stringify(method)},"params":${JSON.stringify(params ?? {})}}\n`;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.child.stdin.write(line);
    });
  }

  /** Resolves with the arrival time of the first notification (after this call) that `match` accepts, or null. */
  waitForNotification(match, timeoutMs) {
    return new Promise((resolve) => {
      const waiter = {
        match,
        resolve: (at) => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          resolve(at);
        },
      };
      const timer = setTimeout(() => waiter.resolve(null), timeoutMs);
      this.waiters.add(waiter);
    });
  }

  notify(method, params) {
    this.child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method, ...(params ? { params } : {}) })}\n`);
  }

  /** The 2025-era handshake; resolves with the initialize result. */
  async initialize() {
    const { message } = await this.request("initialize", {
      protocolVersion: LEGACY_VERSION,
      capabilities: { extensions: { "io.modelcontextprotocol/skills": {} } },
      clientInfo: { name: "skillshelf-bench", version: "0" },
    });
    if (message.error) throw new Error(`initialize failed: ${JSON.stringify(message.error)}`);
    this.notify("notifications/initialized");
    return message.result;
  }

  async close() {
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill("SIGKILL"), 3000);
    this.child.kill("SIGTERM");
    await this.exited;
    clearTimeout(timer);
  }
}
