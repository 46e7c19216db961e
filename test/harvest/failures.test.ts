// Read failures a root user cannot cause with permissions, caused by failing the fs calls themselves: each is a
// skipped row with the error's code (never its message), and the rest of the plugin still serves.
import fs from "node:fs";
import path from "node:path";

import { afterAll, afterEach, describe, expect, test, vi } from "vitest";

import { REASONS } from "../../src/harvest/index.js";
import { sharedPacer } from "../../src/harvest/pacer.js";
import { harvest, makeTree, removeTrees, skillMd, skillsOf } from "./fixture.js";

afterAll(removeTrees);
afterEach(() => {
  vi.restoreAllMocks();
});

const fail = (code?: string): Error => Object.assign(new Error("/secret/absolute/path"), code === undefined ? {} : { code });

/** Make `fs[name]` throw, for a path, the error `errorFor` gives it (none: the call goes through). */
function failFs(name: "readdirSync" | "openSync" | "readFileSync" | "statSync", errorFor: (path: string) => Error | undefined): void {
  const original = fs[name].bind(fs) as (...args: unknown[]) => unknown;
  vi.spyOn(fs, name).mockImplementation(((...args: unknown[]) => {
    const error = typeof args[0] === "string" ? errorFor(args[0]) : undefined;
    if (error !== undefined) throw error;
    return original(...args);
  }) as never);
}

const when = (hit: boolean, error: Error): Error | undefined => (hit ? error : undefined);

describe("a directory that cannot be listed", () => {
  test("is a row at its path with the code; ENOENT (it vanished) says nothing; the rest serves", async () => {
    const root = makeTree({
      "skills/ok/SKILL.md": skillMd("ok"),
      "skills/locked/SKILL.md": skillMd("locked"),
      "skills/gone/SKILL.md": skillMd("gone"),
    });
    failFs("readdirSync", (p) => when(p.endsWith(`${path.sep}locked`), fail("EACCES")));
    const plugin = await harvest(root);
    expect(skillsOf(plugin)).toEqual({ "skills/gone": { address: "gone", files: [] }, "skills/ok": { address: "ok", files: [] } });
    expect(plugin.skipped).toEqual([{ path: "skills/locked", reason: REASONS.unreadableDirectory("EACCES") }]);
  });

  test("a vanished directory is passed over in silence", async () => {
    const root = makeTree({ "skills/ok/SKILL.md": skillMd("ok"), "skills/gone/SKILL.md": skillMd("gone") });
    failFs("readdirSync", (p) => when(p.endsWith(`${path.sep}gone`), fail("ENOENT")));
    const plugin = await harvest(root);
    expect(skillsOf(plugin)).toEqual({ "skills/ok": { address: "ok", files: [] } });
    expect(plugin.skipped).toEqual([]);
  });

  test("the root itself is named '.'", async () => {
    const root = makeTree({ "skills/ok/SKILL.md": skillMd("ok") });
    failFs("readdirSync", (p) => when(p === root, fail("EIO")));
    const plugin = await harvest(root);
    expect(plugin.status).toBe("ok");
    expect(plugin.skipped).toEqual([{ path: ".", reason: REASONS.unreadableDirectory("EIO") }]);
  });

  test("a hidden folder that cannot be searched for SKILL.md files is passed over; its siblings are still named", async () => {
    const root = makeTree({ ".a/x/SKILL.md": skillMd("x"), ".b/y/SKILL.md": skillMd("y") });
    failFs("readdirSync", (p) => when(p.endsWith(`${path.sep}.a`), fail("EACCES")));
    const plugin = await harvest(root);
    expect(plugin.skipped).toEqual([{ path: ".b/y", reason: REASONS.hiddenSkill(".b/y") }]);
  });
});

describe("a file that cannot be read", () => {
  test("a skill's file, a library file and SKILL.md: each a row with the code; a missing code is an I/O error", async () => {
    const root = makeTree({
      "skills/a/SKILL.md": skillMd("a"),
      "skills/a/bad.md": "x",
      "skills/a/good.md": "y",
      "skills/b/SKILL.md": skillMd("b"),
      "lib/bad.md": "z",
      "lib/good.md": "w",
    });
    const sep = path.sep;
    failFs("openSync", (p) => when(p.endsWith(`${sep}a${sep}bad.md`) || p.endsWith(`${sep}b${sep}SKILL.md`), fail("EIO")));
    const plugin = await harvest(root, { files: ["lib/*"] });
    expect(skillsOf(plugin)).toEqual({ "skills/a": { address: "a", files: ["good.md"] } });
    expect(plugin.libraryFiles.map((f) => f.path)).toEqual(["lib/bad.md", "lib/good.md"]);
    expect(plugin.skipped).toEqual([
      { path: "skills/a/bad.md", reason: REASONS.unreadable("EIO") },
      { path: "skills/b", reason: REASONS.unreadable("EIO") },
    ]);
    vi.restoreAllMocks();
    failFs("openSync", (p) => when(p.endsWith(`${sep}lib${sep}bad.md`), fail()));
    const again = await harvest(root, { files: ["lib/*"] });
    expect(again.libraryFiles.map((f) => f.path)).toEqual(["lib/good.md"]);
    expect(again.skipped).toEqual([{ path: "lib/bad.md", reason: REASONS.unreadable("I/O error") }]);
    expect(JSON.stringify(again)).not.toContain("secret");
  });

  test("a prompt file: a row with the code, or an I/O error without one", async () => {
    const root = makeTree({ "prompts/a.md": "A", "prompts/b.md": "B", "prompts/c.md": "C" });
    failFs("readFileSync", (p) => when(p.endsWith(`${path.sep}a.md`), fail("EACCES")) ?? when(p.endsWith(`${path.sep}b.md`), fail()));
    const plugin = await harvest(root);
    expect(plugin.prompts.map((p) => p.path)).toEqual(["prompts/c.md"]);
    expect(plugin.skipped).toEqual([
      { path: "prompts/a.md", reason: REASONS.unreadable("EACCES") },
      { path: "prompts/b.md", reason: REASONS.unreadable("I/O error") },
    ]);
  });

  test("a file whose stat fails is left out of the walk", async () => {
    const root = makeTree({ "skills/a/SKILL.md": skillMd("a"), "skills/a/x.md": "x" });
    failFs("statSync", (p) => when(p.endsWith(`${path.sep}x.md`), fail("EIO")));
    const plugin = await harvest(root);
    expect(skillsOf(plugin)).toEqual({ "skills/a": { address: "a", files: [] } });
    expect([...plugin.tree.keys()]).toEqual(["skills/a/SKILL.md"]);
  });
});

describe("something other than a file where a file was listed", () => {
  test("is never read (a FIFO would block): a row, and the descriptor is closed", async () => {
    const root = makeTree({
      "skills/a/SKILL.md": skillMd("a"),
      "skills/a/swapped.md": "x",
      "skills/a/big.bin": { sparse: 2 * 1024 * 1024 },
    });
    const open = fs.openSync.bind(fs) as (...args: unknown[]) => number;
    const fstat = fs.fstatSync.bind(fs) as (...args: unknown[]) => fs.Stats;
    const swapped = new Set<number>();
    vi.spyOn(fs, "openSync").mockImplementation(((...args: unknown[]) => {
      const fd = open(...args);
      if (typeof args[0] === "string" && /(swapped\.md|big\.bin)$/.test(args[0])) swapped.add(fd);
      return fd;
    }) as never);
    vi.spyOn(fs, "fstatSync").mockImplementation(((...args: unknown[]) =>
      swapped.has(args[0] as number) ? { isFile: () => false } : fstat(...args)) as never);
    const close = vi.spyOn(fs, "closeSync");
    const plugin = await harvest(root);
    expect(skillsOf(plugin)).toEqual({ "skills/a": { address: "a", files: [] } });
    expect(plugin.skipped).toEqual([
      { path: "skills/a/big.bin", reason: REASONS.unreadable("not a regular file") },
      { path: "skills/a/swapped.md", reason: REASONS.unreadable("not a regular file") },
    ]);
    for (const fd of swapped) expect(close).toHaveBeenCalledWith(fd);
  });
});

describe("a harvest that fails as a whole", () => {
  test("names the root and the error's code, never its message", async () => {
    const root = makeTree({ "skills/a/SKILL.md": skillMd("a") });
    vi.spyOn(sharedPacer(), "due").mockImplementation(() => {
      throw fail("EMFILE");
    });
    const plugin = await harvest(root, { root: "sub" });
    expect([plugin.status, plugin.error]).toEqual(["failed", "Harvesting the subdirectory sub of fetch ./kit failed (EMFILE)."]);
    vi.spyOn(sharedPacer(), "due").mockImplementation(() => {
      throw fail();
    });
    expect((await harvest(root)).error).toBe("Harvesting the root of fetch ./kit failed (I/O error).");
  });
});
