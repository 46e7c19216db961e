// A map of entries with lifetimes of their own, bounded: the expired go first, then the oldest insertion; a full
// map is swept for the expired once per quarter of its bound, never on every insertion.
import { expect, test } from "vitest";
import { ExpiringMap } from "../../src/memo/index.js";

test("an entry lives while now < until; an expired one is dropped when asked for", () => {
  let now = 0;
  const map = new ExpiringMap<string, string>(4, () => now);
  map.set("a", "alpha", 10);
  expect(map.get("a")).toBe("alpha");
  now = 9;
  expect(map.get("a")).toBe("alpha");
  now = 10;
  expect(map.get("a")).toBeUndefined();
  expect(map.size).toBe(0);
  expect(map.get("never")).toBeUndefined();
});

test("a full map's first insertion sweeps the expired; setting a held key evicts nothing", () => {
  let now = 0;
  const map = new ExpiringMap<string, number>(4, () => now);
  map.set("a", 1, 100);
  map.set("b", 2, 5);
  map.set("c", 3, 5);
  map.set("d", 4, 100);
  now = 5;
  map.set("a", 10, 100);
  expect(map.size).toBe(4);
  map.set("e", 5, 100);
  expect([map.get("a"), map.get("b"), map.get("c"), map.get("d"), map.get("e")]).toEqual([10, undefined, undefined, 4, 5]);
  expect(map.size).toBe(3);
});

test("between sweeps the oldest insertion goes, expired or not elsewhere", () => {
  let now = 0;
  // A bound of 8: swept on the first insertion into the full map, then once per 2.
  const map = new ExpiringMap<number, number>(8, () => now);
  for (let key = 0; key < 8; key++) map.set(key, key, 100);
  map.set(8, 8, 100); // sweeps (nothing expired), then the oldest goes: 0
  map.set(9, 9, 1); // no sweep: 1 goes
  now = 50;
  map.set(10, 10, 100); // sweeps: 9 expired, goes; the map had room
  expect([...Array(11).keys()].map((key) => map.get(key) !== undefined)).toEqual([
    false,
    false,
    true,
    true,
    true,
    true,
    true,
    true,
    true,
    false,
    true,
  ]);
});

test("a flood of insertions into a full map sweeps it once per quarter of its bound", () => {
  let clockReads = 0;
  const map = new ExpiringMap<number, number>(1000, () => {
    clockReads++;
    return 0;
  });
  for (let key = 0; key < 1000; key++) map.set(key, key, 1);
  expect(clockReads).toBe(0);
  for (let key = 1000; key < 11_000; key++) map.set(key, key, 1);
  // 10,000 insertions into a full map of 1,000: 40 sweeps (the first at once, then one per 250), each one clock read.
  expect(clockReads).toBe(40);
  expect(map.size).toBe(1000);
  expect(map.get(10_999)).toBe(10_999);
  // The newest 1,000 are held: 10,000 to 10,999.
  expect(map.get(10_000)).toBe(10_000);
  expect(map.get(9_999)).toBeUndefined();
});

test("a bound below 1 is refused", () => {
  expect(() => new ExpiringMap(0, () => 0)).toThrow(RangeError);
});
