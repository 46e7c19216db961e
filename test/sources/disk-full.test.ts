// A full disk names its cause wherever a write fails: the git cache, a WebDAV export, the cache directory probe,
// the harvest record; other codes stay as they were.
import { expect, test } from "vitest";
import { describeErrorCode } from "../../src/address/index.js";
import { asGitFailure, classifyGitFailure } from "../../src/sources/git-errors.js";
import { describeDavFailure } from "../../src/sources/webdav-errors.js";

const full = Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });

test("the codes an operator fixes outside the server carry their cause; others are the code alone", () => {
  expect(describeErrorCode(full)).toBe("ENOSPC: the disk is full");
  expect(describeErrorCode({ code: "EDQUOT" })).toBe("EDQUOT: the disk quota is used up");
  expect(describeErrorCode({ code: "EROFS" })).toBe("EROFS: the file system is read-only");
  expect(describeErrorCode({ code: "EACCES" })).toBe("EACCES");
  expect(describeErrorCode("text", "unknown")).toBe("unknown");
});

test("git: a clone or fetch that found no room says the disk is full, not only its exit code", () => {
  const stderr = "Cloning into bare repository '/cache/git/x'...\nfatal: write error: No space left on device\nfatal: index-pack failed\n";
  expect(classifyGitFailure({ code: 128 }, stderr, "clone", false).message).toBe(
    "git clone failed: the disk holding the cache directory is full (ENOSPC)",
  );
  expect(asGitFailure(full, "recording the fetch").message).toBe("recording the fetch failed (ENOSPC: the disk is full)");
  expect(classifyGitFailure({ code: 128 }, "fatal: bad object\n", "fetch", false).message).toBe("git fetch failed (exit 128)");
});

test("WebDAV: an export that cannot be written says why", () => {
  expect(describeDavFailure(full, "skills", 30_000).message).toBe("the export could not be written (ENOSPC: the disk is full)");
  expect(describeDavFailure(Object.assign(new Error("x"), { code: "ECONNREFUSED" }), "skills", 30_000).message).toBe(
    "the share could not be reached (ECONNREFUSED)",
  );
});
