// `under`: the slice of a sorted path list inside one directory, found by binary search.
import { expect, test } from "vitest";

import { under } from "../../src/harvest/context.js";

const SORTED = ["a", "a-b/x", "a.b/x", "a/x", "a/y/z", "a0/x", "b/x", "b0"];

test.each([
  { dir: "", out: SORTED },
  { dir: "a", out: ["a/x", "a/y/z"] },
  { dir: "a/y", out: ["a/y/z"] },
  { dir: "a-b", out: ["a-b/x"] },
  { dir: "a0", out: ["a0/x"] },
  { dir: "b", out: ["b/x"] },
  { dir: "b0", out: [] },
  { dir: "0", out: [] },
  { dir: "c", out: [] },
  { dir: "a/x", out: [] },
])("under($dir)", ({ dir, out }) => {
  expect(under(SORTED, dir, (p) => p)).toEqual(out);
});

test("the first and the last entries of the list are found, by the path the accessor gives", () => {
  const items = [{ p: "d/1" }, { p: "d/2" }, { p: "e" }];
  expect(under(items, "d", (i) => i.p)).toEqual([{ p: "d/1" }, { p: "d/2" }]);
  expect(under([{ p: "x/1" }], "x", (i) => i.p)).toEqual([{ p: "x/1" }]);
  expect(under([], "x", (i: string) => i)).toEqual([]);
});
