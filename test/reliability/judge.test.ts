// The fuzz suite's judge: what counts as an escape or an internal error. A judge that let these through would
// make "0 escapes" say nothing.
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { judge, judgePage, pageTarget } from "./fuzz-run.js";

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
    {
      name: "a skill whose resources reach another library",
      status: 200,
      text: sse({
        jsonrpc: "2.0",
        id: 1,
        result: {
          skill: { uri: "skill://lib/a/SKILL.md", resources: [{ uri: "skill://lib/a/SKILL.md" }, { uri: "skill://other/b/x.md" }] },
        },
      }),
      kind: "escape",
    },
    {
      name: "a directory entry of another library",
      status: 200,
      text: sse({ jsonrpc: "2.0", id: 1, result: { resources: [{ uri: "skill://lib/a" }, { uri: "skill://other/b" }] } }),
      kind: "escape",
    },
    { name: "a result with nothing in it", status: 200, text: sse({ jsonrpc: "2.0", id: 1, result: {} }), kind: "internal" },
    { name: "a -32603", status: 200, text: sse({ jsonrpc: "2.0", id: 1, error: { code: -32603, message: "boom" } }), kind: "internal" },
    { name: "a 500", status: 500, text: "{}", kind: "internal" },
    { name: "an HTML page", status: 400, text: "<html>", kind: "internal" },
  ])("$name is $kind", ({ status, text, kind }) => {
    expect(judge(status, text, FORBIDDEN, "lib")).toMatchObject({ kind });
  });

  it("serves a skill and a directory of the caller's library", () => {
    const skill = sse({
      jsonrpc: "2.0",
      id: 1,
      result: { skill: { uri: "skill://lib/a/SKILL.md", resources: [{ uri: "skill://lib/a/n.md" }] } },
    });
    expect(judge(200, skill, FORBIDDEN, "lib")).toBe("served");
    expect(judge(200, sse({ jsonrpc: "2.0", id: 1, result: { resources: [{ uri: "skill://lib/a/n.md" }] } }), FORBIDDEN, "lib")).toBe(
      "served",
    );
  });
});

describe("judgePage", () => {
  it.each([
    { status: 200, text: "<html>a page</html>", verdict: "served" },
    { status: 404, text: "<html>not found</html>", verdict: "refused" },
    { status: 400, text: "<html>bad address</html>", verdict: "refused" },
  ])("HTTP $status is $verdict", ({ status, text, verdict }) => {
    expect(judgePage(status, text, FORBIDDEN)).toBe(verdict);
  });

  it.each([
    { name: "a marker in a 404", status: 404, text: "MARKER-X", kind: "escape" },
    { name: "the fixture's path in a header", status: 200, text: `{"location":"${FIXTURE_DIR}/a"}\nok`, kind: "escape" },
    { name: "a 500", status: 500, text: "oops", kind: "internal" },
    { name: "a redirect", status: 302, text: "", kind: "internal" },
  ])("$name is $kind", ({ status, text, kind }) => {
    expect(judgePage(status, text, FORBIDDEN)).toMatchObject({ kind });
  });
});

describe("pageTarget", () => {
  it.each([
    { route: "raw", uri: "skill://lib/a/SKILL.md", target: "/raw/lib/a/SKILL.md" },
    { route: "files", uri: "SKILL://lib/../other/b/x.md", target: "/files/lib/../other/b/x.md" },
    { route: "skills", uri: "skill://lib/a%2f..\\b#f?q", target: "/skills/lib/a%2f..\\b#f?q" },
    { route: "libraries", uri: "skill://lib/a b\u0000\u2024", target: "/libraries/lib/a%20b%00%E2%80%A4" },
    { route: "raw", uri: "file:///etc/passwd", target: "/raw/file:///etc/passwd" },
  ] as const)("$uri on $route is sent as $target", ({ route, uri, target }) => {
    expect(pageTarget(route, uri)).toBe(target);
  });
});
