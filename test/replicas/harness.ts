// Replicas behind a real HAProxy on loopback: N skillshelf processes of the built CLI on one config (a local git
// repository pinned by commit, plus a local folder), each with its own cache directory, and HAProxy run from the
// example config in deploy/haproxy/haproxy.cfg with only its addresses changed. Used by the replicas run
// (`npm run test:replicas`) and by its small version inside `npm test`.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { expect } from "vitest";
import { childEnv, spawnCli, type Child } from "../scopes/cli.js";
import { CLI, REPO_ROOT, assertBuilt } from "../support/process.js";
import { EXAMPLE_COMMIT, makeExampleRepo } from "../deploy/example-repo.js";
import { waitFor as waitUntil } from "../support/wait.js";

export const HAPROXY_EXAMPLE = path.join(REPO_ROOT, "deploy", "haproxy", "haproxy.cfg");

export interface Answer {
  readonly status: number;
  readonly text: string;
  readonly replica: string | undefined;
}

/** One 2025-era MCP request (stateless HTTP: no initialize needed), answered as raw text. */
export function mcp(port: number, method: string, params: unknown, agent: http.Agent | false = false): Promise<Answer> {
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method, params });
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: "127.0.0.1",
        port,
        path: "/mcp",
        method: "POST",
        agent,
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
          "MCP-Protocol-Version": "2025-11-25",
          "Content-Length": Buffer.byteLength(body),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.once("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            text: Buffer.concat(chunks).toString("utf8"),
            replica: res.headers["x-skillshelf-replica"] as string | undefined,
          }),
        );
        res.once("error", reject);
      },
    );
    request.once("error", reject);
    request.end(body);
  });
}

/** The JSON-RPC message inside an answer (SSE `data:` line or a plain JSON body). */
export function message<T>(answer: Answer): T {
  const line = answer.text.split("\n").find((l) => l.startsWith("data: "));
  return JSON.parse(line === undefined ? answer.text : line.slice(6)) as T;
}

export async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from({ length: count }, async () => {
      const server = net.createServer();
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      return server;
    }),
  );
  const ports = servers.map((s) => (s.address() as net.AddressInfo).port);
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  return ports;
}

/** Replicas start and restart slower than one server: their waits get twice the usual bound. */
export const waitFor = (condition: () => boolean | Promise<boolean>, what: () => string, timeoutMs = 30_000): Promise<void> =>
  waitUntil(condition, what, timeoutMs);

export interface Replica {
  readonly name: string;
  readonly port: number;
  readonly cacheDir: string;
  child: Child | undefined;
}

export interface ClusterOptions {
  readonly replicas: number;
  /** Skills in the local folder (more than a `skills/list` page, so cursors matter). */
  readonly localSkills: number;
  /** `--drain-seconds`; unset: the default. */
  readonly drainSeconds?: number;
}

export class Cluster {
  readonly base: string;
  readonly config: string;
  readonly replicas: Replica[] = [];
  frontPort = 0;
  tlsPort = 0;
  private haproxy: ChildProcess | undefined;
  private haproxyExit: Promise<number | string> | undefined;
  readonly haproxyLog: string[] = [];

  private constructor(
    base: string,
    private readonly options: ClusterOptions,
  ) {
    this.base = base;
    this.config = path.join(base, "skillshelf.yaml");
  }

  static async start(options: ClusterOptions): Promise<Cluster> {
    assertBuilt();
    const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "skillshelf-replicas-")));
    const cluster = new Cluster(base, options);
    try {
      await cluster.setUp();
    } catch (error) {
      await cluster.stop();
      throw error;
    }
    return cluster;
  }

  private async setUp(): Promise<void> {
    const { base, options } = this;
    expect(makeExampleRepo(path.join(base, "git", "example-org", "agent-skills"))).toBe(EXAMPLE_COMMIT);
    const local = path.join(base, "local", "team-kit");
    for (let i = 0; i < options.localSkills; i++) {
      const name = `skill-${String(i).padStart(4, "0")}`;
      const dir = path.join(local, "skills", name);
      fs.mkdirSync(path.join(dir, "references"), { recursive: true });
      fs.writeFileSync(
        path.join(dir, "SKILL.md"),
        `---\nname: ${name}\ndescription: Team skill number ${i}.\n---\n# ${name}\n\nSee [notes](references/notes.md).\n`,
      );
      fs.writeFileSync(path.join(dir, "references", "notes.md"), `Notes for ${name}: ${"x".repeat(i % 97)}\n`);
    }
    fs.writeFileSync(
      this.config,
      [
        "sources:",
        `  - {name: repo, url: "git+file://${path.join(base, "git")}"}`,
        "plugins:",
        `  - {name: engineering, source: "repo://example-org/agent-skills//engineering?ref=${EXAMPLE_COMMIT}", files: ["shared/**"]}`,
        `  - {name: writing, source: "repo://example-org/agent-skills//writing?ref=${EXAMPLE_COMMIT}"}`,
        `  - {name: team-kit, source: "${local}"}`,
        "libraries:",
        "  - {name: engineering, plugins: [engineering]}",
        "  - {name: writing, plugins: [writing]}",
        "  - {name: team, plugins: [team-kit]}",
        "",
      ].join("\n"),
    );
    const ports = await freePorts(options.replicas + 2);
    this.frontPort = ports[0]!;
    this.tlsPort = ports[options.replicas + 1]!;
    for (let i = 0; i < options.replicas; i++)
      this.replicas.push({ name: `replica-${i + 1}`, port: ports[i + 1]!, cacheDir: path.join(base, `cache-${i + 1}`), child: undefined });
    await Promise.all(this.replicas.map((r) => this.startReplica(r)));
    await this.startHaproxy();
    await waitFor(
      async () => Object.values(await this.states()).every((s) => s === "UP"),
      () => "every replica UP in HAProxy",
    );
  }

  async startReplica(replica: Replica): Promise<void> {
    const args = ["serve", "--config", this.config, "--port", String(replica.port), "--cache-dir", replica.cacheDir];
    if (this.options.drainSeconds !== undefined) args.push("--drain-seconds", String(this.options.drainSeconds));
    // A replica killed with SIGKILL cannot remove its git home: its temporary files go under the run's folder.
    const tmp = path.join(this.base, "tmp");
    fs.mkdirSync(tmp, { recursive: true });
    const child = spawnCli(CLI, args, childEnv({ TMPDIR: tmp }), this.base);
    replica.child = child;
    await waitFor(
      () =>
        child.stderr.some((line) => line.includes(`listening on http://127.0.0.1:${replica.port}/mcp`)) || child.process.exitCode !== null,
      () => child.stderr.join("\n"),
    );
    if (child.process.exitCode !== null) throw new Error(`${replica.name} exited:\n${child.stderr.join("\n")}`);
  }

  /** SIGTERM; resolves with the exit code. */
  async stopReplica(replica: Replica): Promise<number | string> {
    const child = replica.child;
    if (child === undefined) return "not running";
    child.process.kill("SIGTERM");
    const code = await child.exited;
    replica.child = undefined;
    return code;
  }

  private haproxyConfig(): string {
    let text = fs.readFileSync(HAPROXY_EXAMPLE, "utf8");
    const swap = (from: string, to: string): void => {
      expect(text.split(from).length - 1, from).toBe(1);
      text = text.replace(from, to);
    };
    swap("stats socket /run/haproxy/skillshelf.sock", `stats socket ${this.socket()}`);
    swap("bind 127.0.0.1:8080", `bind 127.0.0.1:${this.frontPort}`);
    swap("bind 127.0.0.1:8443 ssl crt /etc/haproxy/certs/skillshelf.pem", `bind 127.0.0.1:${this.tlsPort} ssl crt ${this.pem()}`);
    // The example names three replicas; a smaller cluster drops the ones it does not run.
    for (let i = this.replicas.length; i < 3; i++) swap(`    server replica-${i + 1} 127.0.0.1:${8001 + i}\n`, "");
    this.replicas.forEach((r, i) => swap(`server replica-${i + 1} 127.0.0.1:${8001 + i}`, `server ${r.name} 127.0.0.1:${r.port}`));
    return text;
  }

  /** The self-signed certificate (for 127.0.0.1 and localhost) HAProxy serves, and that TLS clients trust. */
  certificate(): string {
    return path.join(this.base, "tls", "cert.pem");
  }

  private pem(): string {
    return path.join(this.base, "tls", "haproxy.pem");
  }

  private makeCertificate(): void {
    const dir = path.dirname(this.pem());
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const key = path.join(dir, "key.pem");
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
        "-days",
        "1",
        "-subj",
        "/CN=localhost",
      ].concat(["-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-keyout", key, "-out", this.certificate()]),
      { stdio: "ignore" },
    );
    fs.writeFileSync(this.pem(), fs.readFileSync(this.certificate(), "utf8") + fs.readFileSync(key, "utf8"), { mode: 0o600 });
  }

  private socket(): string {
    return path.join(this.base, "haproxy.sock");
  }

  private async startHaproxy(): Promise<void> {
    const file = path.join(this.base, "haproxy.cfg");
    this.makeCertificate();
    fs.writeFileSync(file, this.haproxyConfig());
    const child = spawn("haproxy", ["-db", "-f", file], { stdio: ["ignore", "pipe", "pipe"] });
    this.haproxy = child;
    this.haproxyExit = new Promise((resolve) => child.on("close", (code, signal) => resolve(code ?? signal ?? "unknown")));
    for (const stream of [child.stdout, child.stderr])
      stream.setEncoding("utf8").on("data", (chunk: string) => this.haproxyLog.push(chunk));
    await waitFor(
      () => fs.existsSync(this.socket()) || child.exitCode !== null,
      () => this.haproxyLog.join(""),
    );
    if (child.exitCode !== null) throw new Error(`haproxy exited: ${this.haproxyLog.join("")}`);
  }

  /** HAProxy's view of each replica (`UP`, `DOWN`, …), from its stats socket. */
  async states(): Promise<Record<string, string>> {
    const csv = await new Promise<string>((resolve, reject) => {
      const socket = net.createConnection(this.socket());
      let text = "";
      socket.setEncoding("utf8");
      socket.on("data", (chunk: string) => (text += chunk));
      socket.once("end", () => resolve(text));
      socket.once("error", reject);
      socket.end("show stat\n");
    });
    const [header, ...rows] = csv.trim().split("\n");
    const columns = header!.replace(/^# /, "").split(",");
    const at = (name: string): number => columns.indexOf(name);
    const states: Record<string, string> = {};
    for (const row of rows) {
      const cells = row.split(",");
      if (cells[at("pxname")] === "skillshelf" && cells[at("svname")]!.startsWith("replica-"))
        states[cells[at("svname")]!] = cells[at("status")]!.split(" ")[0]!;
    }
    return states;
  }

  async stop(): Promise<void> {
    for (const replica of this.replicas)
      if (replica.child !== undefined && replica.child.process.exitCode === null) {
        replica.child.process.kill("SIGKILL");
        await replica.child.exited;
      }
    if (this.haproxy !== undefined && this.haproxy.exitCode === null) {
      this.haproxy.kill("SIGKILL");
      await this.haproxyExit;
    }
    fs.rmSync(this.base, { recursive: true, force: true });
  }
}

interface SkillsPage {
  result: { skills: { uri: string; resources: { uri: string }[] }[]; nextCursor?: string };
}

/** Everything a replica answers that must agree: the listing, every index, every skills/list page, and every
 *  resource skills/list names (SKILL.md files and their files, with digests in the listing) plus each `_manifest`. */
export interface Call {
  readonly method: string;
  readonly params: unknown;
  readonly text: string;
}

export async function snapshot(port: number): Promise<Map<string, Call>> {
  const answers = new Map<string, Call>();
  const record = async (key: string, method: string, params: unknown): Promise<Answer> => {
    const answer = await mcp(port, method, params);
    expect(answer.status, key).toBe(200);
    expect(message<{ error?: unknown }>(answer).error, key).toBeUndefined();
    answers.set(key, { method, params, text: answer.text });
    return answer;
  };
  const list = message<{ result: { resources: { uri: string }[] } }>(await record("resources/list", "resources/list", {}));
  for (const row of list.result.resources) await record(`read ${row.uri}`, "resources/read", { uri: row.uri });
  let cursor: string | undefined;
  let page = 0;
  const uris: string[] = [];
  do {
    const answer = await record(`skills/list page ${page++}`, "skills/list", cursor === undefined ? {} : { cursor });
    const result = message<SkillsPage>(answer).result;
    for (const skill of result.skills) {
      uris.push(`${skill.uri.replace(/\/SKILL\.md$/, "")}/_manifest`);
      for (const resource of skill.resources) uris.push(resource.uri);
    }
    cursor = result.nextCursor;
  } while (cursor !== undefined);
  for (const uri of uris) await record(`read ${uri}`, "resources/read", { uri });
  return answers;
}

export interface Load {
  /** Requests answered with the expected bytes, by the replica HAProxy says served them. */
  readonly served: Record<string, number>;
  /** Requests that failed or answered anything else: `<key>: <what>`. */
  readonly lost: string[];
  readonly seconds: number;
}

/** `clients` closed-loop clients through HAProxy, each on its own keep-alive connection, cycling through the
 *  expected answers, until `until` resolves. Every answer must be 200 with the expected bytes. */
export function startLoad(
  port: number,
  expected: Map<string, Call>,
  clients: number,
  until: Promise<void>,
): Promise<Load> & { progress(): number } {
  const calls = [...expected.entries()];
  const served: Record<string, number> = {};
  const lost: string[] = [];
  let stopped = false;
  void until.then(() => (stopped = true));
  const started = Date.now();
  const worker = async (index: number): Promise<void> => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      for (let i = index * 7; !stopped; i++) {
        const [key, call] = calls[i % calls.length]!;
        try {
          const answer = await mcp(port, call.method, call.params, agent);
          if (answer.status !== 200) lost.push(`${key}: status ${answer.status}`);
          else if (answer.text !== call.text) lost.push(`${key}: other bytes (${answer.replica ?? "?"})`);
          else served[answer.replica ?? "?"] = (served[answer.replica ?? "?"] ?? 0) + 1;
        } catch (error) {
          lost.push(`${key}: ${(error as Error).message}`);
        }
      }
    } finally {
      agent.destroy();
    }
  };
  const done = Promise.all(Array.from({ length: clients }, (_, i) => worker(i))).then(() => ({
    served,
    lost,
    seconds: (Date.now() - started) / 1000,
  }));
  /** Answers so far, right or wrong. */
  const progress = (): number => Object.values(served).reduce((a, b) => a + b, 0) + lost.length;
  return Object.assign(done, { progress });
}

export interface RollStep {
  readonly replica: string;
  /** Whether HAProxy had marked the replica DOWN while its process was still running (draining). */
  readonly downBeforeExit: boolean;
  readonly exitCode: number | string;
  /** Observed, not asserted: SIGTERM → DOWN in HAProxy, and restart → UP again. */
  readonly msToDown: number;
  readonly msToUp: number;
}

/** SIGTERM one replica at a time; wait for HAProxy to mark it DOWN and for it to exit; start it again on the same
 *  port and cache directory; wait for HAProxy to mark it UP; then the next one. */
export async function rollingRestart(cluster: Cluster, replicas: readonly Replica[]): Promise<RollStep[]> {
  const steps: RollStep[] = [];
  for (const replica of replicas) {
    const child = replica.child!;
    const t0 = Date.now();
    const exited = cluster.stopReplica(replica);
    let downBeforeExit = false;
    await waitFor(
      async () => {
        const down = (await cluster.states())[replica.name] === "DOWN";
        if (down) downBeforeExit = child.process.exitCode === null && child.process.signalCode === null;
        return down;
      },
      () => `${replica.name} DOWN in HAProxy`,
    );
    const msToDown = Date.now() - t0;
    const exitCode = await exited;
    const t1 = Date.now();
    await cluster.startReplica(replica);
    await waitFor(
      async () => (await cluster.states())[replica.name] === "UP",
      () => `${replica.name} UP in HAProxy`,
    );
    steps.push({ replica: replica.name, downBeforeExit, exitCode, msToDown, msToUp: Date.now() - t1 });
  }
  return steps;
}
