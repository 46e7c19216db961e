// The replicas suite, at two sizes: the full run (`npm run test:replicas`: three replicas, 20 clients, at least
// 30 s of load across a rolling restart of all three) and a small one inside `npm test`.
import fs from "node:fs";
import https from "node:https";
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
