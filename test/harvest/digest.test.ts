import fs from "node:fs";
import path from "node:path";

import { afterAll, describe, expect, test } from "vitest";

import { type HarvestedFile, type HarvestedPlugin, REASONS, SMALL_FILE_BYTES } from "../../src/harvest/index.js";
import { sameStat } from "../../src/harvest/digest.js";
import { harvest, makeTree, removeTrees, skillMd } from "./fixture.js";
import { sha256 } from "../support/digest.js";

afterAll(removeTrees);

const sha = sha256;
const fileOf = (plugin: HarvestedPlugin, rel: string): HarvestedFile | undefined => plugin.skills[0]?.files.find((f) => f.path === rel);
const MiB = 1024 * 1024;

describe("digests and text; no bytes kept", () => {
  // A two-byte é straddling the 1 MiB read chunk: a streamed decode must not call it invalid.
  const straddle = Buffer.concat([Buffer.alloc(MiB - 1, 0x61), Buffer.from("é", "utf8"), Buffer.alloc(10, 0x62)]);
  const badTail = Buffer.concat([Buffer.alloc(SMALL_FILE_BYTES + 10, 0x61), Buffer.from([0xc3])]);
  // Not UTF-8 in its first chunk only: the chunks after it decode, and must not make it text again.
  const badHead = Buffer.concat([Buffer.from([0xff]), Buffer.alloc(SMALL_FILE_BYTES + 10, 0x61)]);
  const small = "a".repeat(SMALL_FILE_BYTES);
  const over = "a".repeat(SMALL_FILE_BYTES + 1);
  const bigMd = skillMd("x", "d", `notes: ${"n".repeat(SMALL_FILE_BYTES)}\n`);

  test("each served file: sha256 over its bytes (read whole up to SMALL_FILE_BYTES, in chunks above), valid UTF-8 as text", async () => {
    const root = makeTree({
      "skills/x/SKILL.md": bigMd,
      "skills/x/small.md": small,
      "skills/x/over.md": over,
      "skills/x/straddle.txt": straddle,
      "skills/x/bad-tail.txt": badTail,
      "skills/x/bad-head.txt": badHead,
      "skills/x/crlf-bom.md": "\uFEFFa\r\nb\r\n",
      "skills/x/empty.md": "",
    });
    const plugin = await harvest(root);
    const skill = plugin.skills[0];
    expect(SMALL_FILE_BYTES).toBe(MiB);
    // A SKILL.md without placeholders keeps no bytes: it is served from disk like any file.
    expect(skill?.skillMd).toEqual({
      path: "SKILL.md",
      abs: path.join(root, "skills", "x", "SKILL.md"),
      size: bigMd.length,
      mtimeMs: expect.any(Number) as unknown,
      digest: sha(bigMd),
      text: true,
    });
    const summary = skill?.files.map((f) => [f.path, f.size, f.digest === sha(fs.readFileSync(f.abs)), f.text, f.bytes?.length]);
    expect(summary).toEqual([
      ["bad-head.txt", SMALL_FILE_BYTES + 11, true, false, undefined],
      ["bad-tail.txt", SMALL_FILE_BYTES + 11, true, false, undefined],
      ["crlf-bom.md", 9, true, true, undefined],
      ["empty.md", 0, true, true, undefined],
      ["over.md", SMALL_FILE_BYTES + 1, true, true, undefined],
      ["small.md", SMALL_FILE_BYTES, true, true, undefined],
      ["straddle.txt", MiB + 11, true, true, undefined],
    ]);
    // Byte for byte: the BOM and the CRLF are hashed as they are.
    expect(fileOf(plugin, "crlf-bom.md")?.digest).toBe(sha(new Uint8Array([0xef, 0xbb, 0xbf, 0x61, 0x0d, 0x0a, 0x62, 0x0d, 0x0a])));
    expect(fileOf(plugin, "small.md")?.digest).toBe(sha(small));
  });

  test("a previous harvest's reads are reused for files with the same size and mtime, re-read otherwise", async () => {
    const root = makeTree({ "skills/x/SKILL.md": skillMd("x"), "skills/x/a.md": "one", "skills/x/b.md": "two" });
    const a = path.join(root, "skills", "x", "a.md");
    const b = path.join(root, "skills", "x", "b.md");
    fs.utimesSync(a, 1000, 1000); // whole seconds, so the mtime can be put back exactly
    const first = await harvest(root);
    // Same size, same mtime: taken as unchanged (§9), so the stale digest proves the file was not read again.
    fs.writeFileSync(a, "ONE");
    fs.utimesSync(a, 1000, 1000);
    fs.writeFileSync(b, "TWO");
    fs.utimesSync(b, 2000, 2000); // explicit: two writes within one clock tick may share an mtime
    const second = await harvest(root, { previous: first });
    expect(fileOf(second, "a.md")?.digest).toBe(sha("one"));
    expect(fileOf(second, "b.md")?.digest).toBe(sha("TWO"));
    expect(second.skills[0]?.frontmatter).toEqual({ name: "x", description: "Use x." });
    // Without `previous`, everything is read.
    expect(fileOf(await harvest(root), "a.md")?.digest).toBe(sha("ONE"));
  });
});

describe("a plugin root that cannot be harvested", () => {
  test("a missing root fails with a message naming the fetch and subdir, never the absolute path", async () => {
    const base = makeTree({ "plugins/present/x.md": "x" });
    const missing = await harvest(path.join(base, "plugins", "absent"), { root: "plugins/absent" });
    expect(missing).toEqual({
      id: "kit",
      meta: { description: "a plugin", tags: [], keywords: [] },
      fetch: "./kit",
      root: "plugins/absent",
      status: "failed",
      error: "The plugin root, the subdirectory plugins/absent of fetch ./kit, does not exist.",
      skills: [],
      libraryFiles: [],
      tree: new Map(),
      skillDirs: [],
      prompts: [],
      skipped: [],
    });
    const file = await harvest(path.join(base, "plugins", "present", "x.md"));
    expect(file.status).toBe("failed");
    expect(file.error).toBe("The plugin root, the root of fetch ./kit, is not a directory.");
    expect(JSON.stringify([missing, file])).not.toContain(base);
  });
});

describe("an unchanged walk", () => {
  test("hands back the previous harvest itself; a moved mtime or another spec harvests again", async () => {
    const root = makeTree({ "skills/x/SKILL.md": skillMd("x"), "skills/x/a.md": "one" });
    const first = await harvest(root);
    expect(first.walkKey).toMatch(/^[0-9a-f]{64}$/);
    expect(await harvest(root, { previous: first })).toBe(first);
    expect(await harvest(root, { previous: first, files: ["**/*.md"] })).not.toBe(first);
    fs.utimesSync(path.join(root, "skills", "x", "a.md"), 5000, 5000);
    const touched = await harvest(root, { previous: first });
    expect(touched).not.toBe(first);
    expect(touched.walkKey).not.toBe(first.walkKey);
    expect(fileOf(touched, "a.md")?.digest).toBe(sha("one"));
    // A read that failed last time is tried again, whatever the walk says.
    const failedOnce = { ...touched, skipped: [...touched.skipped, { path: "skills/x/a.md", reason: REASONS.unreadable("EIO") }] };
    const retried = await harvest(root, { previous: failedOnce });
    expect(retried).not.toBe(failedOnce);
    expect(retried.skipped).toEqual(touched.skipped);
  });
});

describe("reads a previous harvest hands on", () => {
  test("library files and a whole-plugin skill's files are reused by their path from the root", async () => {
    const root = makeTree({ "SKILL.md": skillMd("whole"), "ref.md": "one", "lib/a.md": "uno" });
    const ref = path.join(root, "ref.md");
    const lib = path.join(root, "lib", "a.md");
    for (const file of [ref, lib]) fs.utimesSync(file, 1000, 1000);
    const first = await harvest(root, { skills: ["SKILL.md"], files: ["lib/*"] });
    expect(first.skills[0]?.files.map((f) => f.path)).toEqual(["lib/a.md", "ref.md"]);
    // Same size and mtime: taken as unchanged, so a stale digest proves no second read.
    fs.writeFileSync(ref, "ONE");
    fs.writeFileSync(lib, "UNO");
    for (const file of [ref, lib]) fs.utimesSync(file, 1000, 1000);
    fs.writeFileSync(path.join(root, "new.md"), "changes the walk");
    const second = await harvest(root, { skills: ["SKILL.md"], files: ["lib/*", "new.md"], previous: first });
    expect(second.skills[0]?.files.map((f) => [f.path, f.digest])).toEqual([
      ["lib/a.md", sha("uno")],
      ["new.md", sha("changes the walk")],
      ["ref.md", sha("one")],
    ]);
  });

  test("a library file is reused by its path", async () => {
    const root = makeTree({ "lib/a.md": "uno" });
    const lib = path.join(root, "lib", "a.md");
    fs.utimesSync(lib, 1000, 1000);
    const first = await harvest(root, { files: ["lib/*"] });
    fs.writeFileSync(lib, "UNO");
    fs.utimesSync(lib, 1000, 1000);
    const second = await harvest(root, { files: ["lib/*", "x"], previous: first });
    expect(second.libraryFiles.map((f) => [f.path, f.digest])).toEqual([["lib/a.md", sha("uno")]]);
  });

  test("a failed previous harvest hands on no reads", async () => {
    const root = makeTree({ "skills/x/SKILL.md": skillMd("x"), "skills/x/a.md": "one" });
    const a = path.join(root, "skills", "x", "a.md");
    fs.utimesSync(a, 1000, 1000);
    const first = await harvest(root);
    fs.writeFileSync(a, "ONE");
    fs.utimesSync(a, 1000, 1000);
    fs.writeFileSync(path.join(root, "new.md"), "changes the walk");
    const second = await harvest(root, { previous: { ...first, status: "failed" } });
    expect(fileOf(second, "a.md")?.digest).toBe(sha("ONE"));
  });

  test("a file read once serves both the outer and the nested skill", async () => {
    const root = makeTree({ "skills/o/SKILL.md": skillMd("o"), "skills/o/i/SKILL.md": skillMd("i"), "skills/o/i/r.md": "r" });
    const plugin = await harvest(root);
    const outer = plugin.skills.find((s) => s.dir === "skills/o")?.files.find((f) => f.path === "i/r.md");
    const inner = plugin.skills.find((s) => s.dir === "skills/o/i")?.files.find((f) => f.path === "r.md");
    expect(outer).toEqual({ ...inner, path: "i/r.md" });
    expect(outer?.digest).toBe(sha("r"));
  });
});

describe("sameStat", () => {
  const file = { path: "a.md", abs: "/r/a.md", size: 3, mtimeMs: 1000 };
  test.each([
    { title: "the same record", other: file, same: true },
    { title: "another real path", other: { ...file, abs: "/r/b.md" }, same: false },
    { title: "another size", other: { ...file, size: 4 }, same: false },
    { title: "another mtime", other: { ...file, mtimeMs: 1001 }, same: false },
    { title: "another reported path only", other: { ...file, path: "b.md" }, same: true },
  ])("$title: $same", ({ other, same }) => {
    expect(sameStat(file, other)).toBe(same);
  });
});
