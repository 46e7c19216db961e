// Page sessions in the store, on the embedded engine: kept over a restart of the server (a new process on the same
// folder), keyed so that the database alone names no session and holds no token, ended everywhere by a sign-out,
// kept by this process while the database is away (named once in the log), and one sealing key for all replicas.
import { createHash } from "node:crypto";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openEmbedded, StoredSessions, UsageStore } from "../../src/store/index.js";
import { ExpiringStore, parsePageSession, type PageSession } from "../../src/web/index.js";
import { tempDir } from "../support/temp.js";

const DAY = 86_400_000;
const NOW = Date.parse("2026-03-10T12:00:00Z");
const SESSION: PageSession = { accessToken: "at-0123456789-secret", displayName: "alice" };
const stores: UsageStore[] = [];

afterAll(async () => {
  for (const store of stores) await store.close();
});

function storeOn(dir: string, open = () => openEmbedded(dir)): UsageStore {
  const store = new UsageStore({
    backend: "embedded",
    open,
    now: () => new Date(NOW),
    flushMs: 60_000,
    buffer: 100,
    retentionMs: 400 * DAY,
  });
  stores.push(store);
  return store;
}

function sessionsOn(store: UsageStore, lines: string[] = []): StoredSessions<PageSession> {
  return new StoredSessions(store, new ExpiringStore<PageSession>(10, () => NOW), {
    parse: parsePageSession,
    now: () => NOW,
    onChange: (level, message) => lines.push(`${level} ${message}`),
  });
}

describe("page sessions in the embedded store", () => {
  it("are kept over a restart, and the database holds a hash of the id and a sealed value only", async () => {
    const dir = path.join(tempDir("skillshelf-sessions-"), "usage");
    const first = storeOn(dir);
    await first.flush();
    const id = await sessionsOn(first).add(SESSION, NOW + DAY);
    const rows = await (await first.reader()).query("SELECT id_hash, sealed FROM page_sessions");
    expect(rows).toHaveLength(1);
    expect(rows[0]?.["id_hash"]).toBe(createHash("sha256").update(id).digest("hex"));
    expect(String(rows[0]?.["sealed"])).not.toContain(id);
    expect(Buffer.from(String(rows[0]?.["sealed"]), "base64url").toString("latin1")).not.toContain("at-0123456789");
    await first.close();

    const second = storeOn(dir);
    await second.flush();
    const restarted = sessionsOn(second);
    expect(await restarted.get(id)).toEqual(SESSION);
    expect(await restarted.get(`${id.slice(0, 42)}A` === id ? `${id.slice(0, 42)}B` : `${id.slice(0, 42)}A`)).toBeUndefined();
    await restarted.delete(id);
    expect(await restarted.get(id)).toBeUndefined();
    await second.close();
  });

  it("answers nothing for an expired session, a malformed id, or a row sealed under another id", async () => {
    const store = storeOn(path.join(tempDir("skillshelf-sessions-"), "usage"));
    await store.flush();
    const sessions = sessionsOn(store);
    const expired = await sessions.add(SESSION, NOW - 1);
    const live = await sessions.add({ accessToken: "other", displayName: "bob" }, NOW + DAY);
    expect(await sessions.get(expired)).toBeUndefined();
    expect(await sessions.get("not-an-id")).toBeUndefined();
    expect(await sessions.get(undefined)).toBeUndefined();
    // A row moved under another id's hash does not open under it.
    const db = await store.reader();
    await db.query("DELETE FROM page_sessions WHERE id_hash = $1", [createHash("sha256").update(expired).digest("hex")]);
    await db.query("UPDATE page_sessions SET id_hash = $1 WHERE id_hash = $2", [
      createHash("sha256").update(expired).digest("hex"),
      createHash("sha256").update(live).digest("hex"),
    ]);
    await db.query("UPDATE page_sessions SET expires_at = $1", [new Date(NOW + DAY)]);
    expect(await sessions.get(expired)).toBeUndefined();
  });

  it("keeps a session in this process while the database is away, says so once, and again when it is back", async () => {
    let failing = true;
    const dir = path.join(tempDir("skillshelf-sessions-"), "usage");
    const store = storeOn(dir, () => (failing ? Promise.reject(new Error("connect ECONNREFUSED")) : openEmbedded(dir)));
    await store.flush();
    const lines: string[] = [];
    const sessions = sessionsOn(store, lines);
    const id = await sessions.add(SESSION, NOW + DAY);
    await sessions.add(SESSION, NOW + DAY);
    expect(await sessions.get(id)).toEqual(SESSION);
    expect(lines).toEqual(["warn page sessions kept by this process only: the store is unavailable"]);
    failing = false;
    await store.flush();
    // Kept by this process, it still answers; a new one goes to the store.
    expect(await sessions.get(id)).toEqual(SESSION);
    const stored = await sessions.add(SESSION, NOW + DAY);
    expect((await (await store.reader()).query("SELECT count(*)::int AS n FROM page_sessions"))[0]?.["n"]).toBe(1);
    expect(await sessions.get(stored)).toEqual(SESSION);
    expect(lines).toEqual([
      "warn page sessions kept by this process only: the store is unavailable",
      "info page sessions in the store again",
    ]);
  });

  it("gives every replica on one database the same sealing key, first its own until the store is up", async () => {
    const dir = path.join(tempDir("skillshelf-sessions-"), "usage");
    const store = storeOn(dir);
    const sessions = sessionsOn(store);
    const own = sessions.sealKeys();
    expect(own).toHaveLength(1);
    await store.flush();
    await sessions.ready();
    const keys = sessions.sealKeys();
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(own[0]);
    // Another replica of the same database reads the key the first one wrote.
    const other = sessionsOn(store);
    await other.ready();
    expect(Buffer.from(other.sealKeys()[0] as Uint8Array).equals(Buffer.from(keys[0] as Uint8Array))).toBe(true);
    expect(sessions.sealKeys()).toBe(keys);
  });
});
