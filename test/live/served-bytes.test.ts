// Reading served bytes back: a file is served only while it still is what the harvest recorded.
import { mkdtempSync, rmSync, symlinkSync, writeFileSync, statSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { readFallbackFile, readServedFile } from "../../src/live/served-bytes.js";
import { createHash } from "node:crypto";
import type { DiskFile } from "../../src/harvest/index.js";
import type { ServedFile } from "../../src/shelf/index.js";

const dir = mkdtempSync(path.join(tmpdir(), "skillshelf-content-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function record(name: string, text: string): ServedFile {
  const abs = path.join(dir, name);
  writeFileSync(abs, text);
  const stat = statSync(abs);
  const disk: DiskFile = { path: name, abs, size: stat.size, mtimeMs: stat.mtimeMs };
  return {
    size: stat.size,
    digest: `sha256:${createHash("sha256").update(text).digest("hex")}`,
    mimeType: "text/markdown",
    text: true,
    disk,
  };
}

const decode = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

describe("readServedFile", () => {
  test("serves an unchanged file from disk, small or large", async () => {
    for (const [name, text] of [
      ["small.md", "hello"],
      ["large.md", "x".repeat(100_000)],
    ] as const) {
      const got = await readServedFile(record(name, text));
      expect(got.ok && decode(got.bytes)).toBe(text);
    }
  });

  test("refuses a file whose bytes no longer match the published digest", async () => {
    const file = record("changed.md", "before");
    writeFileSync(file.disk.abs, "after!");
    utimesSync(file.disk.abs, new Date(), new Date(Date.now() + 10_000));
    expect(await readServedFile(file)).toEqual({ ok: false });
  });

  test("serves a touched file whose bytes still match", async () => {
    const file = record("touched.md", "same");
    utimesSync(file.disk.abs, new Date(), new Date(Date.now() + 10_000));
    const got = await readServedFile(file);
    expect(got.ok && decode(got.bytes)).toBe("same");
  });

  test("refuses a file replaced by a symlink, wherever it points", async () => {
    const outside = mkdtempSync(path.join(tmpdir(), "skillshelf-outside-"));
    try {
      writeFileSync(path.join(outside, "secret"), "same");
      const file = record("linked.md", "same");
      rmSync(file.disk.abs);
      symlinkSync(path.join(outside, "secret"), file.disk.abs);
      expect(await readServedFile(file)).toEqual({ ok: false });
      expect(await readFallbackFile(file.disk)).toEqual({ ok: false });
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  test("a vanished file is refused, never thrown", async () => {
    const file = record("gone.md", "bye");
    rmSync(file.disk.abs);
    expect(await readServedFile(file)).toEqual({ ok: false });
    expect(await readFallbackFile(file.disk)).toEqual({ ok: false });
  });
});
