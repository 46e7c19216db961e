// Skipped rows: one per path and reason, sorted by path, then reason, in code-unit order.
import { expect, test } from "vitest";

import { SkipRows } from "../../src/harvest/skip-rows.js";

test("a repeated row is kept once; rows sort by path, then by reason, in code-unit order", () => {
  const rows = new SkipRows();
  rows.add("b", "second");
  rows.add("a", "z");
  rows.add("b", "first");
  rows.add("B", "upper case sorts first");
  rows.add("a", "z");
  rows.add("a\u0000z", "");
  expect(rows.sorted()).toEqual([
    { path: "B", reason: "upper case sorts first" },
    { path: "a", reason: "z" },
    { path: "a\u0000z", reason: "" },
    { path: "b", reason: "first" },
    { path: "b", reason: "second" },
  ]);
});

test("no rows, an empty list", () => {
  expect(new SkipRows().sorted()).toEqual([]);
});
