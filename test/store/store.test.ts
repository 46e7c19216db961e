// The usage store on both engines: the embedded one (PGlite) in every run, PostgreSQL against a throwaway cluster
// on loopback (skipped, saying why, only when the binaries are missing). Migrations, exact counts, retention, the
// bound while the database is away, recovery, and two replicas adding to the same rows.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  lockDataDir,
  migrate,
  MIGRATIONS,
  mostRead,
  normaliseQuery,
  promptsFetched,
  unfollowedSearches,
  openEmbedded,
  openPostgres,
  readSkills,
  readsByClient,
  UsageStore,
  zeroResultSearches,
  type ReadUse,
  type SqlBackend,
} from "../../src/store/index.js";
import { POSTGRES_MISSING, postgresBin, TestCluster } from "../support/postgres.js";
import { tempDir } from "../support/temp.js";

const DAY = 86_400_000;
const T0 = new Date("2026-03-10T12:00:00Z");

const read = (skill: string, client = "ci", surface = "resources/read", file: ReadUse["file"] = "SKILL.md"): ReadUse => ({
  library: "team",
  skill,
  digest: `sha256:${skill.length.toString(16).padStart(64, "0")}`,
  client,
  surface,
  file,
});

/** A clock a test moves by hand. */
function clock(start: Date): { now: () => Date; set: (time: Date) => void } {
  let time = start;
  return { now: () => time, set: (next) => (time = next) };
}

/** The backend shared by a suite; a store's close() leaves it open for the next test. */
function shared(db: SqlBackend): () => Promise<SqlBackend> {
  return async () => ({ ...db, close: async () => undefined });
}

async function reset(db: SqlBackend): Promise<void> {
  await db.exec(`DROP TABLE IF EXISTS usage_reads, usage_searches, usage_prompts, page_sessions, page_keys, skillshelf_migrations`);
}

function window(now: Date, days = 7) {
  return { days, now, limit: 100, offset: 0 };
}

function suite(name: string, setup: () => Promise<{ db: SqlBackend; outage?: { stop(): Promise<void>; start(): Promise<void> } }>): void {
  describe(name, () => {
    let db: SqlBackend;
    let outage: { stop(): Promise<void>; start(): Promise<void> } | undefined;
    beforeAll(async () => {
      ({ db, outage } = await setup());
    }, 180_000);

    it("runs each migration once and records it", async () => {
      await reset(db);
      expect(await migrate(db)).toEqual({ applied: [1, 2, 3], version: 3 });
      expect(await migrate(db)).toEqual({ applied: [], version: 3 });
      const rows = await db.query("SELECT version, name FROM skillshelf_migrations ORDER BY version");
      expect(rows.map((row) => [Number(row["version"]), row["name"]])).toEqual(MIGRATIONS.map((m) => [m.version, m.name]));
    });

    it("adds every flush to the same daily rows, exactly", async () => {
      await reset(db);
      const time = clock(T0);
      const store = new UsageStore({
        backend: db.kind,
        open: shared(db),
        now: time.now,
        flushMs: 60_000,
        buffer: 100,
        retentionMs: 400 * DAY,
      });
      for (let i = 0; i < 3; i++) store.countRead(read("alpha"));
      store.countRead(read("alpha", "ci", "resources/read", "other"));
      store.countRead(read("beta", "ops", "tool"));
      expect(store.status()).toMatchObject({ state: "starting", pending: 5, dropped: 0, written: 0 });
      await store.flush();
      for (let i = 0; i < 2; i++) store.countRead(read("beta", "ops", "tool"));
      time.set(new Date(T0.getTime() + DAY));
      store.countRead(read("beta", "web", "page"));
      await store.flush();
      expect(store.status()).toMatchObject({ state: "up", pending: 0, dropped: 0, written: 8, schemaVersion: 3 });
      const reader = await store.reader();
      expect(await mostRead(reader, window(time.now()))).toEqual([
        { library: "team", skill: "alpha", reads: 4, skillMdReads: 3, clients: 1 },
        { library: "team", skill: "beta", reads: 4, skillMdReads: 4, clients: 2 },
      ]);
      // One day back: only the second day's read.
      expect(await mostRead(reader, window(time.now(), 1))).toEqual([
        { library: "team", skill: "beta", reads: 1, skillMdReads: 1, clients: 1 },
      ]);
      expect(await readsByClient(reader, window(time.now()))).toEqual([
        { client: "ci", surface: "resources/read", reads: 4, skills: 1 },
        { client: "ops", surface: "tool", reads: 3, skills: 1 },
        { client: "web", surface: "page", reads: 1, skills: 1 },
      ]);
      expect(await mostRead(reader, { ...window(time.now()), limit: 1, offset: 1 })).toEqual([
        { library: "team", skill: "beta", reads: 4, skillMdReads: 4, clients: 2 },
      ]);
      expect([...(await readSkills(reader, window(time.now())))].sort()).toEqual(["team/alpha", "team/beta"]);
      await store.close();
    });

    it("counts searches by their normalised words and those that found nothing", async () => {
      await reset(db);
      const store = new UsageStore({
        backend: db.kind,
        open: shared(db),
        now: () => T0,
        flushMs: 60_000,
        buffer: 100,
        retentionMs: 400 * DAY,
      });
      store.countSearch({ query: normaliseQuery("  Deploy   KUBERNETES "), client: "ci", surface: "tool", results: 0 });
      store.countSearch({ query: normaliseQuery("deploy kubernetes"), client: "web", surface: "page", results: 0 });
      store.countSearch({ query: normaliseQuery("deploy kubernetes"), client: "web", surface: "page", results: 3 });
      store.countSearch({ query: normaliseQuery("loki"), client: "ci", surface: "tool", results: 2 });
      store.countSearch({ query: normaliseQuery("ＴＥＲＲＡＦＯＲＭ"), client: "ci", surface: "tool", results: 0 });
      await store.flush();
      expect(await zeroResultSearches(await store.reader(), window(T0))).toEqual([
        { query: "deploy kubernetes", searches: 3, zeroResults: 2, clients: 2 },
        { query: "terraform", searches: 1, zeroResults: 1, clients: 1 },
      ]);
      await store.close();
    });

    it("migrates a version 1 database to 2 keeping its searches, which count as never followed", async () => {
      await reset(db);
      expect(await migrate(db, MIGRATIONS.slice(0, 1))).toEqual({ applied: [1], version: 3 });
      await db.query(`INSERT INTO usage_searches VALUES ('2026-03-10'::date, 'loki', 'ci', 'tool', 3, 1)`);
      expect(await migrate(db)).toEqual({ applied: [2, 3], version: 3 });
      expect(await unfollowedSearches(db, window(T0))).toEqual([{ query: "loki", searches: 3, unfollowed: 2, clients: 1 }]);
    });

    it("counts prompts rendered by prompt, client and surface, scoped to the prompts a viewer sees", async () => {
      await reset(db);
      const store = new UsageStore({
        backend: db.kind,
        open: shared(db),
        now: () => T0,
        flushMs: 60_000,
        buffer: 100,
        retentionMs: 400 * DAY,
      });
      store.countPrompt({ library: "team", prompt: "team_review", client: "ci", surface: "prompts/get" });
      store.countPrompt({ library: "team", prompt: "team_review", client: "ci", surface: "prompts/get" });
      store.countPrompt({ library: "team", prompt: "team_review", client: "ops", surface: "tool" });
      store.countPrompt({ library: "docs", prompt: "docs_summary", client: "ci", surface: "prompts/get" });
      await store.flush();
      expect(store.status()).toMatchObject({ pending: 0, written: 4 });
      const reader = await store.reader();
      expect(await promptsFetched(reader, window(T0))).toEqual([
        { library: "team", prompt: "team_review", fetches: 3, clients: 2 },
        { library: "docs", prompt: "docs_summary", fetches: 1, clients: 1 },
      ]);
      expect(await promptsFetched(reader, { ...window(T0), visible: { skills: [], prompts: ["docs_summary"] } })).toEqual([
        { library: "docs", prompt: "docs_summary", fetches: 1, clients: 1 },
      ]);
      const rows = await db.query("SELECT client, surface, fetches FROM usage_prompts WHERE prompt = 'team_review' ORDER BY client");
      expect(rows.map((row) => [row["client"], row["surface"], Number(row["fetches"])])).toEqual([
        ["ci", "prompts/get", 2],
        ["ops", "tool", 1],
      ]);
      await store.close();
    });

    it("marks a search followed when the same client reads one of its results within the window, in the search's day", async () => {
      await reset(db);
      const time = clock(new Date("2026-03-10T23:58:00Z"));
      const store = new UsageStore({
        backend: db.kind,
        open: shared(db),
        now: time.now,
        flushMs: 60_000,
        buffer: 100,
        retentionMs: 400 * DAY,
      });
      const search = (query: string, client: string, found: string[]) =>
        store.countSearch({ query, client, surface: "tool", results: found.length }, found);
      search("logs", "ci", ["team/alpha", "team/beta"]);
      search("logs", "ops", ["team/alpha"]);
      search("traces", "ci", ["team/gamma"]);
      search("nothing", "ci", []);
      await store.flush();
      // Past midnight: the follow is added to the search's day. Another client's read follows nothing of ci's.
      time.set(new Date("2026-03-11T00:05:00Z"));
      store.countRead({ ...read("beta"), client: "ci" });
      store.countRead({ ...read("beta"), client: "ci" }); // a search is followed once
      store.countRead({ ...read("gamma"), client: "web" });
      // ops's search ended its window at 00:08: a read after it follows nothing.
      time.set(new Date("2026-03-11T00:08:00.001Z"));
      store.countRead({ ...read("alpha"), client: "ops" });
      await store.flush();
      expect(store.status()).toMatchObject({ pending: 0, written: 4 + 4 + 1, searchesUntracked: 0 });
      const reader = await store.reader();
      expect(await unfollowedSearches(reader, window(time.now()))).toEqual([
        { query: "logs", searches: 2, unfollowed: 1, clients: 2 },
        { query: "traces", searches: 1, unfollowed: 1, clients: 1 },
      ]);
      const rows = await db.query(
        "SELECT day::text AS day, query, client, searches, zero_results, followed FROM usage_searches ORDER BY query, client",
      );
      expect(
        rows.map((row) => [
          row["day"],
          row["query"],
          row["client"],
          Number(row["searches"]),
          Number(row["zero_results"]),
          Number(row["followed"]),
        ]),
      ).toEqual([
        ["2026-03-10", "logs", "ci", 1, 0, 1],
        ["2026-03-10", "logs", "ops", 1, 0, 0],
        ["2026-03-10", "nothing", "ci", 1, 1, 0],
        ["2026-03-10", "traces", "ci", 1, 0, 0],
      ]);
      await store.close();
    });

    it("deletes daily rows older than the retention", async () => {
      await reset(db);
      const time = clock(T0);
      const store = new UsageStore({
        backend: db.kind,
        open: shared(db),
        now: time.now,
        flushMs: 60_000,
        buffer: 100,
        retentionMs: 30 * DAY,
      });
      store.countRead(read("old"));
      await store.flush();
      time.set(new Date(T0.getTime() + 29 * DAY));
      store.countRead(read("kept"));
      await store.flush();
      expect((await db.query("SELECT count(*) AS n FROM usage_reads")).map((row) => Number(row["n"]))).toEqual([2]);
      time.set(new Date(T0.getTime() + 30 * DAY));
      await store.flush();
      const rows = await db.query("SELECT skill FROM usage_reads ORDER BY skill");
      expect(rows.map((row) => row["skill"])).toEqual(["kept"]);
      await store.close();
    });

    it("holds counts while the database is away, drops past the bound, and writes the rest once it returns", async () => {
      await reset(db);
      const changes: string[] = [];
      let away = true;
      const store = new UsageStore({
        backend: db.kind,
        open: async () => {
          if (away) throw new Error("connection refused");
          return shared(db)();
        },
        now: () => T0,
        flushMs: 60_000,
        buffer: 2,
        retentionMs: 400 * DAY,
        onChange: (_level, message) => changes.push(message),
      });
      store.countRead(read("alpha"));
      store.countRead(read("beta"));
      await store.flush();
      expect(store.status()).toMatchObject({ state: "down", pending: 2, dropped: 0, lastError: "connection refused" });
      store.countRead(read("alpha"));
      store.countRead(read("gamma")); // a third row: no room
      store.countSearch({ query: "x", client: "ci", surface: "tool", results: 0 }); // no room either
      expect(store.status()).toMatchObject({ pending: 3, dropped: 2 });
      await expect(store.reader()).rejects.toThrow("the usage database is down: connection refused");
      away = false;
      await store.flush();
      expect(store.status()).toMatchObject({ state: "up", pending: 0, dropped: 2, written: 3 });
      expect(store.status().lastError).toBeUndefined();
      expect(await mostRead(await store.reader(), window(T0))).toEqual([
        { library: "team", skill: "alpha", reads: 2, skillMdReads: 2, clients: 1 },
        { library: "team", skill: "beta", reads: 1, skillMdReads: 1, clients: 1 },
      ]);
      expect(changes).toEqual([
        "usage database unavailable: counts are held in memory",
        "usage counts dropped: the buffer is full while the database is away",
        "usage database migrated",
        "usage database up: counting resumed",
      ]);
      await store.close();
    });

    if (name === "PostgreSQL") {
      it("survives the server going down and coming back: reads counted meanwhile are written", async () => {
        await reset(db);
        const store = new UsageStore({
          backend: db.kind,
          open: shared(db),
          now: () => T0,
          flushMs: 60_000,
          buffer: 100,
          retentionMs: 400 * DAY,
        });
        store.countRead(read("alpha"));
        await store.flush();
        await outage?.stop();
        store.countRead(read("alpha"));
        store.countRead(read("beta"));
        await store.flush();
        expect(store.status()).toMatchObject({ state: "down", pending: 2, written: 1 });
        await outage?.start();
        await store.flush();
        expect(store.status()).toMatchObject({ state: "up", pending: 0, written: 3, dropped: 0 });
        expect(await mostRead(await store.reader(), window(T0))).toEqual([
          { library: "team", skill: "alpha", reads: 2, skillMdReads: 2, clients: 1 },
          { library: "team", skill: "beta", reads: 1, skillMdReads: 1, clients: 1 },
        ]);
        await store.close();
      });

      it("two replicas migrate together once and their counts add up exactly", async () => {
        await reset(db);
        const url = (db as SqlBackend & { url?: string }).url as string;
        const stores = [0, 1].map(
          () =>
            new UsageStore({
              backend: "postgresql",
              open: () => openPostgres(url),
              now: () => T0,
              flushMs: 60_000,
              buffer: 1000,
              retentionMs: 400 * DAY,
            }),
        );
        stores.forEach((store, i) => {
          for (let n = 0; n < 250 + i; n++) store.countRead(read(`skill-${n % 7}`, `client-${i}`));
        });
        await Promise.all(stores.map((store) => store.flush()));
        stores.forEach((store, i) => {
          for (let n = 0; n < 10; n++) store.countRead(read("skill-0", `client-${i}`));
        });
        await Promise.all(stores.map((store) => store.flush()));
        const rows = await db.query("SELECT client, sum(reads) AS reads FROM usage_reads GROUP BY client ORDER BY client");
        expect(rows.map((row) => [row["client"], Number(row["reads"])])).toEqual([
          ["client-0", 260],
          ["client-1", 261],
        ]);
        const top = await mostRead(await stores[0]!.reader(), { ...window(T0), limit: 1, offset: 0 });
        // skill-0: 36 of each replica's first 250/251 (n % 7 == 0), plus 10 each.
        expect(top).toEqual([{ library: "team", skill: "skill-0", reads: 36 + 36 + 20, skillMdReads: 92, clients: 2 }]);
        expect((await db.query("SELECT count(*) AS n FROM skillshelf_migrations")).map((row) => Number(row["n"]))).toEqual([
          MIGRATIONS.length,
        ]);
        await Promise.all(stores.map((store) => store.close()));
      });
    }
  });
}

suite("embedded (PGlite)", async () => {
  const dir = path.join(tempDir("skillshelf-store-"), "usage");
  return { db: await openEmbedded(dir) };
});

const bin = postgresBin();
if (bin === null) {
  describe("PostgreSQL", () => {
    it.skip(POSTGRES_MISSING, () => undefined);
  });
} else {
  let cluster: TestCluster | undefined;
  let pg: SqlBackend | undefined;
  afterAll(async () => {
    await pg?.close();
    await cluster?.stop();
  });
  suite("PostgreSQL", async () => {
    cluster = await TestCluster.create(bin);
    pg = await openPostgres(cluster.url, { connectTimeoutSeconds: 2 });
    const c = cluster;
    return { db: Object.assign(pg, { url: c.url }), outage: { stop: () => c.stop(), start: () => c.start() } };
  });
}

describe("the embedded database's lock", () => {
  it("refuses a folder a live process holds and takes over one whose process is gone", async () => {
    const dir = tempDir("skillshelf-lock-");
    mkdirSync(dir, { recursive: true });
    const first = await lockDataDir(dir, 1001, () => true);
    await expect(lockDataDir(dir, 1002, () => true)).rejects.toThrow(
      `the embedded usage database ${dir} is in use by process 1001: give each server its own cache directory, or share PostgreSQL (usage.database)`,
    );
    const taken = await lockDataDir(dir, 1002, (pid) => pid !== 1001);
    await taken.release();
    await first.release();
    const again = await lockDataDir(dir, 1003, () => true);
    await again.release();
  });
});
