// The page's server-side store of sessions and sign-ins under way: random ids, expiry, one use, and a bound that
// drops the expired first and then the oldest.
import { expect, test } from "vitest";
import { ExpiringStore } from "../../src/web/sessions.js";

test("ids are 256 random bits in base64url; a value lives until its time, and is gone after", () => {
  let now = 1_000;
  const store = new ExpiringStore<string>(10, () => now);
  const id = store.add("alice", 2_000);
  expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(store.add("alice", 2_000)).not.toBe(id);
  expect(store.get(id)).toBe("alice");
  now = 1_999;
  expect(store.get(id)).toBe("alice");
  now = 2_000;
  expect(store.get(id)).toBeUndefined();
  expect(store.size).toBe(1);
});

test("take answers a value once; ids of another shape, unknown or absent answer nothing", () => {
  const store = new ExpiringStore<string>(10, () => 0);
  const id = store.add("pending", 10);
  expect(store.get(undefined)).toBeUndefined();
  expect(store.get("x")).toBeUndefined();
  expect(store.get("A".repeat(43))).toBeUndefined();
  expect(store.take(id)).toBe("pending");
  expect(store.take(id)).toBeUndefined();
  expect(store.size).toBe(0);
});

test("at its bound, the expired go first, then the oldest", () => {
  let now = 0;
  const store = new ExpiringStore<string>(3, () => now);
  const a = store.add("a", 100);
  const b = store.add("b", 5);
  const c = store.add("c", 100);
  now = 10;
  const d = store.add("d", 100);
  expect([store.get(a), store.get(b), store.get(c), store.get(d)]).toEqual(["a", undefined, "c", "d"]);
  const e = store.add("e", 100);
  expect([store.get(a), store.get(c), store.get(d), store.get(e)]).toEqual([undefined, "c", "d", "e"]);
  expect(store.size).toBe(3);
  store.delete(c);
  expect(store.get(c)).toBeUndefined();
});
