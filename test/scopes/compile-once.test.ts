// Issue 4 §1: each distinct scope is compiled once per shelf (a bounded cache), so the scopes of a busy server
// cost a map hit per request; and a refused scope is refused the same way on every request.
import { afterAll, beforeAll, expect, test } from "vitest";
import { compileScope } from "../../src/resolve/compile-scope.js";
import { startFixture, type Served } from "./harness.js";

let served: Served;
beforeAll(async () => {
  served = await startFixture();
});
afterAll(() => served.stop());

test("an equal scope, lists in any order, is the same compiled result", () => {
  const shelf = served.service.current;
  const first = compileScope(shelf, { categories: ["engineering"] }, { tags: ["review", "oncall,runbooks"], categories: ["engineering"] });
  const again = compileScope(shelf, { categories: ["engineering"] }, { categories: ["engineering"], tags: ["oncall,runbooks", "review"] });
  expect(again).toBe(first);
  expect(first.ok && [...(first.scope.plugins ?? [])].sort()).toEqual(["ops-kit", "review-kit"]);
});

test("the same request under another ceiling is another scope", () => {
  const shelf = served.service.current;
  const open = compileScope(shelf, null, { library: "docs" });
  const capped = compileScope(shelf, { tags: ["public"] }, { library: "docs" });
  if (!open.ok || !capped.ok) throw new Error("both scopes must compile");
  expect(open.scope.key).not.toBe(capped.scope.key);
  expect([...(capped.scope.plugins ?? [])]).toEqual(["writing-kit"]);
});

test("a refused scope is refused identically every time", () => {
  const shelf = served.service.current;
  expect(compileScope(shelf, null, { library: "nope" })).toBe(compileScope(shelf, null, { library: "nope" }));
});

test("the cache is bounded: after many distinct scopes an early one still compiles to an equal result", () => {
  const shelf = served.service.current;
  const early = compileScope(shelf, null, { tags: ["quality"] });
  for (let i = 0; i < 600; i++) compileScope(shelf, null, { library: `nope-${i}` });
  const later = compileScope(shelf, null, { tags: ["quality"] });
  expect(later).toEqual(early);
});

test("no narrowing is the full scope, shared by every such request", () => {
  const shelf = served.service.current;
  const none = compileScope(shelf, null, {});
  expect(none).toEqual({ ok: true, scope: { library: null, plugins: null, key: "*" } });
  expect(compileScope(shelf, null, { categories: [], tags: [] })).toEqual(none);
});
