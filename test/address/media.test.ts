// Media types and code-unit order, asserted on their own rather than through a shelf.
import { describe, expect, test } from "vitest";
import { compareCodeUnits, mimeTypeFor } from "../../src/address/index.js";

describe("mimeTypeFor", () => {
  const rows = [
    { path: "references/a.py", text: true, type: "text/x-python" },
    { path: "scripts/run.sh", text: true, type: "application/x-sh" },
    { path: "README.MD", text: true, type: "text/markdown" },
    { path: "data/x.json", text: true, type: "application/json" },
    { path: "img/logo.png", text: false, type: "image/png" },
    { path: "LICENSE", text: true, type: "text/markdown" },
    { path: "LICENSE", text: false, type: "application/octet-stream" },
    { path: ".env", text: true, type: "text/markdown", why: "a dot-name has no extension" },
    { path: "a.d/file", text: true, type: "text/markdown", why: "the dot of a directory is no extension" },
    { path: "a.d/file", text: false, type: "application/octet-stream" },
    { path: "x.", text: false, type: "application/octet-stream" },
    { path: "x.unknownext", text: true, type: "text/markdown" },
    { path: "x.unknownext", text: false, type: "application/octet-stream" },
    { path: "blob.bin", text: true, type: "text/markdown", why: "text is never served as octet-stream" },
    { path: "blob.bin", text: false, type: "application/octet-stream" },
  ];
  test.each(rows)("$path (text: $text) -> $type", ({ path, text, type }) => {
    expect(mimeTypeFor(path, text)).toBe(type);
  });

  test("text is the default", () => {
    expect(mimeTypeFor("LICENSE")).toBe("text/markdown");
  });
});

describe("compareCodeUnits", () => {
  const rows = [
    { a: "a", b: "a", order: 0 },
    { a: "a", b: "b", order: -1 },
    { a: "b", b: "a", order: 1 },
    { a: "SKILL.md", b: "assets/x", order: -1, why: "upper case before lower case" },
    { a: "z", b: "é", order: -1 },
    { a: "a", b: "ab", order: -1 },
  ];
  test.each(rows)("$a vs $b -> $order", ({ a, b, order }) => {
    expect(compareCodeUnits(a, b)).toBe(order);
  });
});
