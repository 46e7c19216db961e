// The replicas suite, at two sizes: the full run (`npm run test:replicas`: three replicas, 20 clients, at least
// 30 s of load across a rolling restart of all three) and a small one inside `npm test`.
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Cluster, mcp, message, rollingRestart, snapshot, startLoad, type Call } from "./harness.js";

export interface SuiteOptions {
  readonly replicas: number;
  readonly localSkills: number;
  readonly clients: number;
  /** The load runs at least this long, and until the rolling restart is over. */
  readonly minSeconds: number;
  /** How many replicas the rolling restart restarts, in order. */
  readonly roll: number;
  readonly drainSeconds?: number;
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
  });
}
