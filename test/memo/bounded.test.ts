// The bounded map: exactly `capacity` entries, the oldest insertion evicted first, whatever was deleted before.
import { describe, expect, test } from "vitest";
import { BoundedMap } from "../../src/memo/index.js";

const keysOf = (map: BoundedMap<string, number>): string[] => [...map.keys()];

describe("BoundedMap", () => {
  test("evicts the oldest insertion once full", () => {
    const map = new BoundedMap<string, number>(3);
    for (const [i, key] of ["a", "b", "c", "d", "e"].entries()) map.set(key, i);
    expect(keysOf(map)).toEqual(["c", "d", "e"]);
    expect(map.get("a")).toBeUndefined();
    expect(map.get("e")).toBe(4);
    expect(map.size).toBe(3);
  });

  test("setting a held key keeps its place and evicts nothing", () => {
    const map = new BoundedMap<string, number>(2);
    map.set("a", 1).set("b", 2).set("a", 10);
    expect(keysOf(map)).toEqual(["a", "b"]);
    map.set("c", 3);
    expect(keysOf(map)).toEqual(["b", "c"]);
    expect(map.get("b")).toBe(2);
  });

  test("a key deleted and set again is as new as its last insertion", () => {
    const map = new BoundedMap<string, number>(3);
    map.set("a", 1).set("b", 2).set("c", 3);
    expect(map.delete("a")).toBe(true);
    expect(map.delete("a")).toBe(false);
    map.set("a", 4); // now the newest: b, c, a
    map.set("d", 5); // evicts b, not a
    expect(keysOf(map)).toEqual(["c", "a", "d"]);
    map.set("e", 6); // evicts c
    map.set("f", 7); // evicts a
    expect(keysOf(map)).toEqual(["d", "e", "f"]);
  });

  test("deleting many keys and inserting many more keeps the order exact", () => {
    const map = new BoundedMap<string, number>(100);
    for (let i = 0; i < 1000; i++) {
      map.set(`k${i}`, i);
      if (i % 3 === 0) map.delete(`k${i - 50}`);
    }
    const expected: string[] = [];
    // What a plain array does: every insertion appended, every delete removed, the oldest dropped past 100.
    for (let i = 0; i < 1000; i++) {
      expected.push(`k${i}`);
      if (expected.length > 100) expected.shift();
      if (i % 3 === 0) {
        const at = expected.indexOf(`k${i - 50}`);
        if (at !== -1) expected.splice(at, 1);
      }
    }
    expect(keysOf(map)).toEqual(expected);
    expect(map.size).toBe(expected.length);
  });

  test("refuses a capacity that is not a positive integer", () => {
    expect(() => new BoundedMap(0)).toThrow("capacity must be a positive integer, not 0");
    expect(() => new BoundedMap(1.5)).toThrow("capacity must be a positive integer, not 1.5");
  });
});
