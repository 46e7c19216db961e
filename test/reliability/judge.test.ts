// The fuzz suite's judge: what counts as an escape or an internal error. A judge that let these through would
// make "0 escapes" say nothing.
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { judge } from "./fuzz-run.js";

// A fixture directory as the suite would name it: an absolute path under the OS temporary folder (never created).
const FIXTURE_DIR = path.join(os.tmpdir(), "skillshelf-judge-fixture");
const FORBIDDEN = ["MARKER-X", FIXTURE_DIR];
const sse = (message: unknown): string => `event: message\ndata: ${JSON.stringify(message)}\n\n`;
const read = (uri: string, text: string) => sse({ jsonrpc: "2.0", id: 1, result: { contents: [{ uri, text }] } });

describe("judge", () => {
  it.each([
    { name: "a read of the caller's library", status: 200, text: read("skill://lib/a/SKILL.md", "hello"), verdict: "served" },
    { name: "an escaped library name", status: 200, text: read("SKILL://l%69b/a/SKILL.md", "hello"), verdict: "served" },
    {
      name: "a -32602 refusal",
      status: 200,
      text: sse({ jsonrpc: "2.0", id: 1, error: { code: -32602, message: "Not found" } }),
      verdict: "refused",
    },
    {
      name: "a tool error result",
      status: 200,
      text: sse({ jsonrpc: "2.0", id: 1, result: { content: [{ text: "no" }], isError: true } }),
      verdict: "refused",
    },
  ])("$name is $verdict", ({ status, text, verdict }) => {
    expect(judge(status, text, FORBIDDEN, "lib")).toBe(verdict);
  });

  it.each([
    { name: "a marker in a read", status: 200, text: read("skill://lib/a/x.md", "MARKER-X"), kind: "escape" },
    {
      name: "a marker in an error message",
      status: 200,
      text: sse({ jsonrpc: "2.0", id: 1, error: { code: -32602, message: "MARKER-X" } }),
      kind: "escape",
    },
    {
      name: "the fixture's path",
      status: 200,
      text: sse({ jsonrpc: "2.0", id: 1, error: { code: -32602, message: path.join(FIXTURE_DIR, "a") } }),
      kind: "escape",
    },
    { name: "a file of another library", status: 200, text: read("skill://other/b/SKILL.md", "hi"), kind: "escape" },
    { name: "a -32603", status: 200, text: sse({ jsonrpc: "2.0", id: 1, error: { code: -32603, message: "boom" } }), kind: "internal" },
    { name: "a 500", status: 500, text: "{}", kind: "internal" },
    { name: "an HTML page", status: 400, text: "<html>", kind: "internal" },
  ])("$name is $kind", ({ status, text, kind }) => {
    expect(judge(status, text, FORBIDDEN, "lib")).toMatchObject({ kind });
  });
});
