// What a read returns, and the bounded, content-addressed cache of bodies in front of the disk.
import { mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { ContentCache } from "../../src/live/content-cache.js";
import { readAnswer } from "../../src/live/reader.js";
import type { Answer } from "../../src/resolve/index.js";
import type { ServedFile } from "../../src/shelf/index.js";
import { sha256 } from "../support/digest.js";

const dir = mkdtempSync(path.join(tmpdir(), "skillshelf-read-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sha = sha256;

function fileAnswer(name: string, content: string | Uint8Array, mimeType = "text/markdown"): Answer & { kind: "file" } {
  const abs = path.join(dir, name);
  writeFileSync(abs, content);
  const stat = statSync(abs);
  const file: ServedFile = {
    size: stat.size,
    digest: sha(content),
    mimeType,
    text: typeof content === "string",
    disk: { path: name, abs, size: stat.size, mtimeMs: stat.mtimeMs },
  };
  return { kind: "file", uri: `skill://lib/s/${name}`, mimeType: "text/markdown", file };
}

const bytesOf = (length: number): Uint8Array => new Uint8Array(length).fill(0x61);

describe("ContentCache", () => {
  test("holds bytes up to its budget and evicts the least recently read first", () => {
    const cache = new ContentCache(10, 6);
    const [a, b, c, d] = [bytesOf(4), bytesOf(4), bytesOf(2), bytesOf(1)];
    cache.set("a", a);
    cache.set("b", b);
    expect(cache.get("a")).toBe(a); // a is now the most recently read
    cache.set("c", c); // 10 bytes: still within the budget
    expect(cache.size).toEqual({ entries: 3, bytes: 10 });
    cache.set("d", d); // 11: b, the least recently read, goes
    expect([cache.get("a"), cache.get("b"), cache.get("c"), cache.get("d")]).toEqual([a, undefined, c, d]);
    expect(cache.size).toEqual({ entries: 3, bytes: 7 });
  });

  test("bytes over the entry limit are never held; a digest already held is not counted twice", () => {
    const cache = new ContentCache(100, 6);
    cache.set("big", bytesOf(7));
    cache.set("a", bytesOf(3));
    cache.set("a", bytesOf(3));
    expect(cache.get("big")).toBeUndefined();
    expect(cache.size).toEqual({ entries: 1, bytes: 3 });
  });
});

describe("readAnswer", () => {
  test("a file is read from disk once, then served from the cache under its digest", async () => {
    const cache = new ContentCache();
    const answer = fileAnswer("once.md", "# once\n");
    const first = await readAnswer(answer, cache);
    expect(first).toEqual({ ok: true, uri: "skill://lib/s/once.md", mimeType: "text/markdown", text: "# once\n" });
    rmSync(answer.file.disk.abs); // The second read cannot have come from disk.
    expect(await readAnswer(answer, cache)).toEqual(first);
    expect(cache.size).toEqual({ entries: 1, bytes: 7 });
  });

  test("bytes that disagree with the published digest are refused and not held", async () => {
    const cache = new ContentCache();
    const answer = fileAnswer("moved.md", "before");
    writeFileSync(answer.file.disk.abs, "after!");
    const outcome = await readAnswer({ ...answer, file: { ...answer.file, disk: { ...answer.file.disk, mtimeMs: 1 } } }, cache);
    expect(outcome).toEqual({
      ok: false,
      uri: "skill://lib/s/moved.md",
      message: expect.stringMatching(/^Not found: skill:\/\/lib\/s\/moved\.md\. /) as unknown,
      stale: true, // readUri waits for a pending rescan on this
    });
    expect(cache.size).toEqual({ entries: 0, bytes: 0 });
  });

  test("a binary file is a base64 blob with the file's own type; substituted bytes are served from the shelf", async () => {
    const cache = new ContentCache();
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0xff, 0xfe]);
    const binary = fileAnswer("logo.png", png, "image/png");
    expect(await readAnswer(binary, cache)).toEqual({
      ok: true,
      uri: "skill://lib/s/logo.png",
      mimeType: "image/png",
      blob: Buffer.from(png).toString("base64"),
    });
    const served = new TextEncoder().encode("see skill://lib/a.md\n");
    const substituted = fileAnswer("SKILL.md", "see ${CLAUDE_PLUGIN_ROOT}/a.md\n");
    const outcome = await readAnswer(
      { ...substituted, file: { ...substituted.file, bytes: served, size: served.length, digest: sha(served) } },
      cache,
    );
    expect(outcome).toEqual({ ok: true, uri: "skill://lib/s/SKILL.md", mimeType: "text/markdown", text: "see skill://lib/a.md\n" });
  });
});

describe("the cache is never poisoned", () => {
  test("a file rewritten under its old size and mtime is refused, and does not answer for another file with its digest", async () => {
    const cache = new ContentCache();
    const a = fileAnswer("a.md", "SAME");
    const b = fileAnswer("b.md", "SAME");
    writeFileSync(a.file.disk.abs, "EVIL");
    utimesSync(a.file.disk.abs, new Date(a.file.disk.mtimeMs), new Date(a.file.disk.mtimeMs));
    expect(await readAnswer(a, cache)).toMatchObject({ ok: false, stale: true });
    expect(cache.size).toEqual({ entries: 0, bytes: 0 });
    expect(await readAnswer(b, cache)).toMatchObject({ ok: true, text: "SAME" });
    expect(await readAnswer(a, cache)).toMatchObject({ ok: true, text: "SAME" }); // b's verified bytes, under the digest a published
  });
});
