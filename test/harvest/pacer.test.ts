// The pacer: a slice of synchronous disk work ends after 8 ms, and every step of a harvest asks it before more work.
import { afterAll, afterEach, describe, expect, test, vi } from "vitest";

import { sharedPacer } from "../../src/harvest/pacer.js";
import { harvest, makeTree, removeTrees, skillMd } from "./fixture.js";

afterAll(removeTrees);
afterEach(() => {
  vi.restoreAllMocks();
});

describe("the pacer", () => {
  test("one per process; a slice is due 8 ms after it starts, and a pause starts the next", async () => {
    const pacer = sharedPacer();
    expect(sharedPacer()).toBe(pacer);
    const now = vi.spyOn(performance, "now").mockReturnValue(1000);
    await pacer.pause();
    expect(pacer.due()).toBe(false);
    now.mockReturnValue(1007.9);
    expect(pacer.due()).toBe(false);
    now.mockReturnValue(1008);
    expect(pacer.due()).toBe(true);
    now.mockReturnValue(1500);
    expect(pacer.due()).toBe(true);
    await pacer.pause();
    expect(pacer.due()).toBe(false);
  });

  test("waiters wake one per turn, in the order they paused", async () => {
    const pacer = sharedPacer();
    const woke: number[] = [];
    await Promise.all([1, 2, 3].map((n) => pacer.pause().then(() => woke.push(n))));
    expect(woke).toEqual([1, 2, 3]);
  });
});

describe("a harvest asks the pacer before each slice of work", () => {
  const tree = {
    "skills/x/SKILL.md": skillMd("x"),
    "skills/x/a.md": "a",
    "skills/x/big.bin": new Uint8Array(2 * 1024 * 1024 + 5),
    "prompts/p.md": "p",
    "lib/l.md": "l",
  };

  test("always due: a pause per directory walked, per file read, per chunk hashed, per prompt read", async () => {
    const pacer = sharedPacer();
    vi.spyOn(pacer, "due").mockReturnValue(true);
    const pause = vi.spyOn(pacer, "pause");
    const plugin = await harvest(makeTree(tree), { files: ["lib/*"] });
    expect(plugin.skills[0]?.files.map((f) => f.path)).toEqual(["a.md", "big.bin"]);
    // 5 directories (the root, skills, skills/x, prompts, lib); 4 reads (SKILL.md, a.md, big.bin, l.md);
    // big.bin's 3 chunks; 1 prompt.
    expect(pause).toHaveBeenCalledTimes(5 + 4 + 3 + 1);
  });

  test("never due: no pause", async () => {
    const pacer = sharedPacer();
    vi.spyOn(pacer, "due").mockReturnValue(false);
    const pause = vi.spyOn(pacer, "pause");
    await harvest(makeTree(tree), { files: ["lib/*"] });
    expect(pause).not.toHaveBeenCalled();
  });
});

test("once every waiter is awake, nothing else starts a slice", async () => {
  const pacer = sharedPacer();
  const now = vi.spyOn(performance, "now").mockReturnValue(5000);
  await Promise.all([pacer.pause(), pacer.pause()]);
  now.mockReturnValue(6000);
  await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setImmediate(resolve));
  expect(pacer.due()).toBe(true);
});
