// The memo helper on its own: one computation per key object.
import { describe, expect, test } from "vitest";
import { memoize } from "../../src/memo/index.js";

describe("memoize", () => {
  test("computes once per key object", () => {
    const calls: object[] = [];
    const size = memoize((key: { n: number }) => {
      calls.push(key);
      return { n: key.n * 2 };
    });
    const one = { n: 1 };
    const first = size(one);
    expect(size(one)).toBe(first);
    expect(size({ n: 1 })).not.toBe(first);
    expect(calls).toEqual([{ n: 1 }, { n: 1 }]);
  });
});
