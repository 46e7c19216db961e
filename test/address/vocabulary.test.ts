// The small rules of the shared vocabulary, each pinned by exact values: row text, errno codes, page names
// of generated documents, ancestors and media types at their edges.
import { describe, expect, test } from "vitest";
import {
  ancestorsOf,
  cutAtWord,
  errorCode,
  formatOneLine,
  generatedDocumentOf,
  mimeTypeFor,
  parseSkillUri,
} from "../../src/address/index.js";

describe("cutAtWord and formatOneLine", () => {
  test.each([
    ["fits exactly", "alpha beta", 10, "alpha beta"],
    ["one over: cut after the last whole word", "alpha beta", 9, "alpha…"],
    ["no space to cut at: cut inside the word", "abcdefghij", 5, "abcd…"],
    ["a space right before the cut is not kept", "alpha beta gamma", 7, "alpha…"],
    ["counts code points, not UTF-16 units", "😀😀😀 ab", 4, "😀😀😀…"],
    ["a leading space is no word boundary", " abcdefgh", 5, " abc…"],
  ])("%s", (_name, text, max, expected) => {
    expect(cutAtWord(text, max)).toBe(expected);
  });

  test("formatOneLine folds every whitespace run, trims, then cuts", () => {
    expect(formatOneLine("  one\n\ttwo   three  ")).toBe("one two three");
    expect(formatOneLine("one\n two three four", 12)).toBe("one two…");
    expect(formatOneLine("", 5)).toBe("");
  });
});

describe("errorCode", () => {
  test.each([
    ["a Node errno error", Object.assign(new Error("x"), { code: "EACCES" }), "EACCES"],
    ["a numeric code", { code: 13 }, "13"],
    ["an error without a code", new Error("x"), "unknown"],
    ["null", null, "unknown"],
    ["a string", "EACCES", "unknown"],
  ])("%s", (_name, error, expected) => {
    expect(errorCode(error)).toBe(expected);
  });

  test("the fallback is the caller's", () => {
    expect(errorCode(undefined, "EIO")).toBe("EIO");
  });
});

describe("generatedDocumentOf: the whole name, nothing around it", () => {
  test.each(["x_index.md", "_index.md.bak", "_index-2.md.bak", "a/_index.md", "_INDEX.md", "_index-2x.md", "_files-0.md"])("%s", (name) => {
    expect(generatedDocumentOf(name)).toBeNull();
  });

  test("page numbers up to six digits", () => {
    expect(generatedDocumentOf("_index-999999.md")).toEqual({ document: "index", page: 999999 });
    expect(generatedDocumentOf("_files-10.md")).toEqual({ document: "files", page: 10 });
  });
});

describe("edges of paths, URIs and media types", () => {
  test("ancestorsOf yields every proper ancestor, nearest first, and never the empty root", () => {
    expect([...ancestorsOf("a/b/c")]).toEqual(["a/b", "a"]);
    expect([...ancestorsOf("a")]).toEqual([]);
    expect([...ancestorsOf("/a/b")]).toEqual(["/a"]);
  });

  test("an empty library is refused whatever follows", () => {
    expect(parseSkillUri("skill:///x")).toBeNull();
    expect(parseSkillUri("skill://%2e/x")).toEqual({ library: ".", segments: ["x"] });
  });

  test("the extension is the base name's: a dotted folder or a dotfile has none", () => {
    expect(mimeTypeFor("release.v2/LICENSE")).toBe("text/markdown");
    expect(mimeTypeFor("dir/.json")).toBe("text/markdown");
    expect(mimeTypeFor("dir/a.JSON")).toBe("application/json");
    expect(mimeTypeFor("dir/blob", false)).toBe("application/octet-stream");
  });
});
