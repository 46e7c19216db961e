// Reading served bytes back: a file is served only while it still is what the harvest recorded.
import {
  closeSync,
  fstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  statSync,
  utimesSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { isOpenedAt, readFallbackFile, readServedFile } from "../../src/live/served-bytes.js";
import type { DiskFile } from "../../src/harvest/index.js";
import type { ServedFile } from "../../src/shelf/index.js";
import { sha256 } from "../support/digest.js";

const dir = mkdtempSync(path.join(tmpdir(), "skillshelf-content-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function record(name: string, text: string): ServedFile {
  const abs = path.join(dir, name);
  writeFileSync(abs, text);
  const stat = statSync(abs);
  const disk: DiskFile = { path: name, abs, size: stat.size, mtimeMs: stat.mtimeMs };
  return {
    size: stat.size,
    digest: sha256(text),
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

describe("readFallbackFile", () => {
  test("serves a file while its size and mtime are the harvest's; a touched or rewritten one is refused", async () => {
    const file = record("fallback.md", "fallback bytes");
    const got = await readFallbackFile(file.disk);
    expect(got.ok && decode(got.bytes)).toBe("fallback bytes");
    utimesSync(file.disk.abs, new Date(), new Date(Date.now() + 10_000));
    expect(await readFallbackFile(file.disk)).toEqual({ ok: false });
    const grown = record("grown.md", "short");
    writeFileSync(grown.disk.abs, "longer now");
    utimesSync(grown.disk.abs, new Date(grown.disk.mtimeMs), new Date(grown.disk.mtimeMs));
    expect(await readFallbackFile(grown.disk)).toEqual({ ok: false });
  });
});

describe("isOpenedAt", () => {
  // Both ways of telling: the name the kernel gives the descriptor (/proc/self/fd), and, where there is none, the
  // recorded path resolved again and compared by device and inode with the file opened.
  test.each([
    ["/proc/self/fd", true],
    ["the path's real path and inode", false],
  ])(
    "by %s: the file at its real path passes; one reached through a linked parent, or swapped back after the open, fails",
    (_how, fdPaths) => {
      const base = mkdtempSync(path.join(dir, "opened-"));
      const outside = mkdtempSync(path.join(tmpdir(), "skillshelf-outside-"));
      try {
        mkdirSync(path.join(base, "p"));
        writeFileSync(path.join(base, "p", "f.md"), "inside");
        writeFileSync(path.join(outside, "f.md"), "decoy!");
        const abs = path.join(base, "p", "f.md");
        const opened = (at: string, check: (fd: number) => boolean): boolean => {
          const fd = openSync(at, "r");
          try {
            return check(fd);
          } finally {
            closeSync(fd);
          }
        };
        expect(opened(abs, (fd) => isOpenedAt(fd, fstatSync(fd), abs, fdPaths))).toBe(true);
        // The parent swapped for a link out: the same path opens the file outside.
        renameSync(path.join(base, "p"), path.join(base, "p-moved"));
        symlinkSync(outside, path.join(base, "p"));
        expect(opened(abs, (fd) => isOpenedAt(fd, fstatSync(fd), abs, fdPaths))).toBe(false);
        // Opened through the link, then the link swapped back for the directory before the check.
        const swappedBack = opened(abs, (fd) => {
          rmSync(path.join(base, "p"));
          renameSync(path.join(base, "p-moved"), path.join(base, "p"));
          return isOpenedAt(fd, fstatSync(fd), abs, fdPaths);
        });
        expect(swappedBack).toBe(false);
        expect(opened(abs, (fd) => isOpenedAt(fd, fstatSync(fd), abs, fdPaths))).toBe(true);
      } finally {
        rmSync(outside, { recursive: true, force: true });
      }
    },
  );
});
