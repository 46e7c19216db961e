// The replicas suite, at two sizes: the full run (`npm run test:replicas`: three replicas, 20 clients, at least
// 30 s of load across a rolling restart of all three) and a small one inside `npm test`.
import fs from "node:fs";
import https from "node:https";
import { Client, SdkHttpError, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Cluster, mcp, message, rollingRestart, snapshot, startLoad, waitFor, type Call } from "./harness.js";

export interface SuiteOptions {
  readonly replicas: number;
  readonly localSkills: number;
  readonly clients: number;
  /** The load runs at least this long, and until the rolling restart is over. */
  readonly minSeconds: number;
  /** How many replicas the rolling restart restarts, in order. */
  readonly roll: number;
  readonly drainSeconds?: number;
  /** Whether to also kill a replica (SIGKILL) under load. */
  readonly kill: boolean;
  /** Where to write the figures of the run as JSON (the replicas run's report), if anywhere. */
  readonly reportFile?: string;
}

/** A GET stream whose replica stopped is tried once more, soon, then given up (its session is gone anyway). */
const RECONNECT_ONCE = { initialReconnectionDelay: 100, maxReconnectionDelay: 100, reconnectionDelayGrowFactor: 1, maxRetries: 1 };

const sameAnswers = (a: Map<string, Call>, b: Map<string, Call>): void => {
  expect([...b.keys()]).toEqual([...a.keys()]);
  for (const [key, call] of a) expect(b.get(key)!.text, key).toBe(call.text);
};

export function replicasSuite(options: SuiteOptions): void {
  describe(`${options.replicas} replicas behind HAProxy`, () => {
    let cluster: Cluster;
    let expected: Map<string, Call>;

    beforeAll(async () => {
      cluster = await Cluster.start(options);
      expected = await snapshot(cluster.replicas[0]!.port);
    }, 120_000);

    afterAll(async () => {
      await cluster?.stop();
    });

    test("every replica answers the same bytes: listing, indexes, skills/list pages, SKILL.md files and their files, manifests with digests", async () => {
      const skills = options.localSkills + 3;
      const pages = [...expected.keys()].filter((k) => k.startsWith("skills/list page ")).length;
      const pageSize = message<{ result: { skills: unknown[] } }>({
        status: 200,
        text: expected.get("skills/list page 0")!.text,
        replica: "",
      }).result.skills.length;
      expect(pages).toBe(Math.ceil(skills / pageSize));
      expect(pages).toBeGreaterThan(1);
      expect([...expected.keys()].filter((k) => k.endsWith("/_manifest")).length).toBe(skills);
      expect(expected.get("read skill://team/skill-0001/_manifest")!.text).toContain('"sha256:');
      for (const replica of cluster.replicas.slice(1)) sameAnswers(expected, await snapshot(replica.port));
    }, 120_000);

    test("a skills/list cursor from one replica continues the same walk on the next", async () => {
      let cursor: string | undefined;
      let page = 0;
      do {
        const replica = cluster.replicas[page % cluster.replicas.length]!;
        const answer = await mcp(replica.port, "skills/list", cursor === undefined ? {} : { cursor });
        expect(answer.text, `page ${page} from ${replica.name}`).toBe(expected.get(`skills/list page ${page}`)!.text);
        cursor = message<{ result: { nextCursor?: string } }>(answer).result.nextCursor;
        page++;
      } while (cursor !== undefined);
      expect(page).toBe([...expected.keys()].filter((k) => k.startsWith("skills/list page ")).length);
    });

    test("HAProxy ends TLS: a request over HTTPS is answered with the same bytes, by a replica over plain HTTP", async () => {
      const call = expected.get("read skill://engineering/code-review/SKILL.md")!;
      const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: call.method, params: call.params });
      const answer = await new Promise<{ status: number; text: string; replica: unknown }>((resolve, reject) => {
        const request = https.request(
          {
            host: "127.0.0.1",
            port: cluster.tlsPort,
            path: "/mcp",
            method: "POST",
            ca: fs.readFileSync(cluster.certificate()),
            headers: {
              "Content-Type": "application/json",
              Accept: "application/json, text/event-stream",
              "MCP-Protocol-Version": "2025-11-25",
            },
          },
          (res) => {
            let text = "";
            res.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
            res.once("end", () => resolve({ status: res.statusCode ?? 0, text, replica: res.headers["x-skillshelf-replica"] }));
          },
        );
        request.once("error", reject);
        request.end(body);
      });
      expect(answer.status).toBe(200);
      expect(answer.text).toBe(call.text);
      expect(cluster.replicas.map((r) => r.name)).toContain(answer.replica);
    });

    test("a 2025-era session stays on its replica through HAProxy; once that replica stops, the next request answers 404 and the client initializes again on another", async () => {
      const url = new URL(`http://127.0.0.1:${cluster.frontPort}/mcp`);
      const connect = async (): Promise<{ client: Client; transport: StreamableHTTPClientTransport; replicas: string[] }> => {
        const replicas: string[] = [];
        // Which replica answered each request of this client, GET stream included (HAProxy names it).
        const observe = async (input: string | URL, init?: RequestInit): Promise<Response> => {
          const response = await fetch(input, init);
          replicas.push(response.headers.get("x-skillshelf-replica") ?? "?");
          return response;
        };
        const transport = new StreamableHTTPClientTransport(url, { fetch: observe, reconnectionOptions: RECONNECT_ONCE });
        const client = new Client({ name: "replicas-session", version: "1.0.0" }, { supportedProtocolVersions: ["2025-11-25"] });
        client.onerror = () => undefined; // the GET stream's reconnection after its replica stopped is expected to fail
        await client.connect(transport);
        return { client, transport, replicas };
      };
      const first = await connect();
      expect(first.transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
      // Round-robin would spread these over every replica; the session keeps them on one.
      for (let i = 0; i < 3 * options.replicas; i++) expect((await first.client.listResources()).resources.length).toBeGreaterThan(0);
      await waitFor(
        () => first.replicas.length >= 3 * options.replicas + 3,
        () => `${first.replicas.length} answers`,
      );
      const holder = first.replicas[0]!;
      expect(new Set(first.replicas)).toEqual(new Set([holder]));

      const replica = cluster.replicas.find((r) => r.name === holder)!;
      expect(await cluster.stopReplica(replica)).toBe(0);
      await waitFor(
        async () => (await cluster.states())[holder] === "DOWN",
        () => `${holder} DOWN`,
      );
      const error = await first.client.listResources().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SdkHttpError);
      expect((error as SdkHttpError).status).toBe(404);
      expect(first.replicas.at(-1)).not.toBe(holder);
      await first.client.close();

      const again = await connect();
      expect(again.transport.sessionId).not.toBe(first.transport.sessionId);
      expect((await again.client.listResources()).resources.length).toBeGreaterThan(0);
      expect(again.replicas).not.toContain(holder);
      await again.transport.terminateSession();
      await again.client.close();

      // Back in rotation for what follows.
      await cluster.startReplica(replica);
      await waitFor(
        async () => (await cluster.states())[holder] === "UP",
        () => `${holder} UP`,
      );
    }, 120_000);

    test(`a rolling restart under ${options.clients} clients loses no request`, async () => {
      let rolled!: () => void;
      const until = new Promise<void>((resolve) => (rolled = resolve));
      const load = startLoad(cluster.frontPort, expected, options.clients, until);
      const started = Date.now();
      const steps = await rollingRestart(cluster, cluster.replicas.slice(0, options.roll));
      const left = options.minSeconds * 1000 - (Date.now() - started);
      if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
      rolled();
      const result = await load;
      const report = { ...options, requests: Object.values(result.served).reduce((a, b) => a + b, 0), ...result, steps };
      if (options.reportFile !== undefined) fs.writeFileSync(options.reportFile, `${JSON.stringify(report, null, 2)}\n`);
      expect(result.lost).toEqual([]);
      expect(steps.map((s) => [s.replica, s.exitCode, s.downBeforeExit])).toEqual(
        cluster.replicas.slice(0, options.roll).map((r) => [r.name, 0, true]),
      );
      // Every replica took a share of the load, and the restarted ones answer what they answered before.
      expect(Object.keys(result.served).sort()).toEqual(cluster.replicas.map((r) => r.name).sort());
      for (const replica of cluster.replicas.slice(0, options.roll)) sameAnswers(expected, await snapshot(replica.port));
    }, 180_000);

    if (options.kill)
      test(`a replica lost (SIGKILL) under ${options.clients} clients: HAProxy sends what it had in flight to another; no request lost`, async () => {
        let stop!: () => void;
        const until = new Promise<void>((resolve) => (stop = resolve));
        const load = startLoad(cluster.frontPort, expected, options.clients, until);
        const victim = cluster.replicas[cluster.replicas.length - 1]!;
        const child = victim.child!;
        // Under load first: every client has answers behind it.
        await waitFor(
          () => load.progress() >= options.clients * 10,
          () => `${load.progress()} answers`,
        );
        child.process.kill("SIGKILL");
        expect(await child.exited).toBe("SIGKILL");
        victim.child = undefined;
        await waitFor(
          async () => (await cluster.states())[victim.name] === "DOWN",
          () => `${victim.name} DOWN`,
        );
        await cluster.startReplica(victim);
        await waitFor(
          async () => (await cluster.states())[victim.name] === "UP",
          () => `${victim.name} UP`,
        );
        stop();
        const result = await load;
        if (options.reportFile !== undefined)
          fs.writeFileSync(options.reportFile.replace(/\.json$/, "-kill.json"), `${JSON.stringify(result, null, 2)}\n`);
        expect(result.lost).toEqual([]);
        expect(result.served[victim.name]).toBeGreaterThan(0);
      }, 180_000);
  });
}
