// Whether a search was followed by a read: the window, once per search, per client, and the bound.
import { describe, expect, it } from "vitest";
import { FOLLOW_WINDOW_MS, SearchFollows, UsageStore } from "../../src/store/index.js";

const key = (query: string, client = "ci") => ({ day: "2026-03-10", query, client, surface: "tool" });

describe("searches followed by a read", () => {
  it("answers each search that found the skill, for the same client, within the window, once", () => {
    const follows = new SearchFollows(1000, 10);
    follows.searched(key("a"), ["lib/x", "lib/y"], 0);
    follows.searched(key("b"), ["lib/y"], 10);
    follows.searched(key("c", "ops"), ["lib/y"], 20);
    follows.searched(key("empty"), [], 30);
    expect(follows.size).toBe(3);
    expect(follows.read("ci", "lib/z", 100)).toEqual([]);
    expect(follows.read("ci", "lib/y", 1000)).toEqual([key("a"), key("b")]);
    expect(follows.read("ci", "lib/x", 1000)).toEqual([]);
    // ops's search, made at 20, is held up to 1020 included.
    expect(follows.read("ops", "lib/y", 1021)).toEqual([]);
    expect(follows.size).toBe(0);
    expect(follows.untracked).toBe(0);
  });

  it("pushes the oldest search out past the bound and counts it as untracked", () => {
    const follows = new SearchFollows(1000, 2);
    expect(follows.searched(key("a"), ["lib/x"], 0)).toBe(false);
    expect(follows.searched(key("b"), ["lib/x"], 1)).toBe(false);
    expect(follows.searched(key("c"), ["lib/x"], 2)).toBe(true);
    expect(follows.untracked).toBe(1);
    expect(follows.read("ci", "lib/x", 3)).toEqual([key("b"), key("c")]);
  });

  it("after a search in the middle was followed, the bound pushes out the oldest search still held", () => {
    const follows = new SearchFollows(1000, 3);
    follows.searched(key("a"), ["lib/x"], 0);
    follows.searched(key("b"), ["lib/y"], 1);
    follows.searched(key("c"), ["lib/x"], 2);
    expect(follows.read("ci", "lib/y", 3)).toEqual([key("b")]);
    expect(follows.searched(key("d"), ["lib/z"], 4)).toBe(false);
    expect(follows.searched(key("e"), ["lib/z"], 5)).toBe(true);
    expect(follows.read("ci", "lib/x", 6)).toEqual([key("c")]);
    expect(follows.read("ci", "lib/z", 1004)).toEqual([key("d"), key("e")]);
    expect(follows.size).toBe(0);
    // Past the window of everything: expiring an empty set stays empty, and new searches are held again.
    follows.searched(key("f"), ["lib/x"], 5000);
    expect(follows.size).toBe(1);
    expect(follows.read("ci", "lib/x", 6001)).toEqual([]);
    expect(follows.size).toBe(0);
  });

  it("shows untracked searches on the store's status and logs the first once", () => {
    const logged: string[] = [];
    const store = new UsageStore({
      backend: "embedded",
      open: () => Promise.reject(new Error("not opened in this test")),
      now: () => new Date(0),
      flushMs: 1000,
      buffer: 10,
      retentionMs: 86_400_000,
      follows: new SearchFollows(FOLLOW_WINDOW_MS, 1),
      onChange: (_level, message) => logged.push(message),
    });
    for (const query of ["a", "b", "c"]) store.countSearch({ query, client: "ci", surface: "tool", results: 1 }, ["lib/x"]);
    expect(store.status()).toMatchObject({ pending: 3, searchesUntracked: 2 });
    expect(logged).toEqual(["searches pushed out before their follow window ended: the count of searches never followed is not exact"]);
  });
});
