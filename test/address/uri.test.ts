import { posix } from "node:path";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { encodeSegment, formatSkillUri, isHiddenSegment, parseSkillUri } from "../../src/address/index.js";

describe("parseSkillUri: valid addresses", () => {
  const rows: { uri: string; library: string; segments: string[] }[] = [
    { uri: "skill://grafana/_index.md", library: "grafana", segments: ["_index.md"] },
    { uri: "skill://grafana", library: "grafana", segments: [] },
    { uri: "skill://grafana/", library: "grafana", segments: [] },
    { uri: "skill://other/../grafana/x/SKILL.md", library: "other", segments: ["grafana", "x", "SKILL.md"] },
    { uri: "skill://g/grafana-lgtm/loki/../tempo/SKILL.md", library: "g", segments: ["grafana-lgtm", "tempo", "SKILL.md"] },
    { uri: "skill://g/a/./b//c/", library: "g", segments: ["a", "b", "c"] },
    { uri: "skill://g/../../..", library: "g", segments: [] },
    { uri: "skill://g/a/../../b", library: "g", segments: ["b"] },
    { uri: "skill://g/a/%2e%2e/b", library: "g", segments: ["b"] },
    { uri: "skill://g/a/%2E/b", library: "g", segments: ["a", "b"] },
    { uri: "skill://g/%2e%2e/%2e%2e/x", library: "g", segments: ["x"] },
    { uri: "skill://g/.%2e/x", library: "g", segments: ["x"] },
    { uri: "skill://%67rafana/x", library: "grafana", segments: ["x"] },
    { uri: "skill://../x", library: "..", segments: ["x"] },
    { uri: "skill://g/my%20notes.md", library: "g", segments: ["my notes.md"] },
    { uri: "skill://g/caf%C3%A9", library: "g", segments: ["café"] },
    { uri: "skill://g/café", library: "g", segments: ["café"] },
    { uri: "skill://g/%252e%252e", library: "g", segments: ["%2e%2e"] },
    { uri: "skill://g/a?b#c", library: "g", segments: ["a?b#c"] },
    { uri: "skill://g/do..ts.txt", library: "g", segments: ["do..ts.txt"] },
    { uri: "skill://g/..a/b../...", library: "g", segments: ["..a", "b..", "..."] },
    { uri: "skill://g/.github/x", library: "g", segments: [".github", "x"] },
  ];
  test.each(rows)("$uri -> $library $segments", ({ uri, library, segments }) => {
    expect(parseSkillUri(uri)).toEqual({ library, segments });
  });
});

describe("parseSkillUri: not an address", () => {
  const rows = [
    { uri: "", why: "empty" },
    { uri: "skill://", why: "empty library" },
    { uri: "skill:///x", why: "empty library" },
    { uri: "skill://%2F/x", why: "decoded / in the library" },
    { uri: "skill://%/x", why: "bad escape in the library" },
    { uri: "skill://g/a%2Fb", why: "decoded /" },
    { uri: "skill://g/a%2fb", why: "decoded / (lower case)" },
    { uri: "skill://g/a%5Cb", why: "decoded backslash" },
    { uri: "skill://g/a\\b", why: "raw backslash" },
    { uri: "skill://g/a%00b", why: "decoded NUL" },
    { uri: "skill://g/a\u0000b", why: "raw NUL" },
    { uri: "skill://g/%", why: "truncated escape" },
    { uri: "skill://g/%2", why: "truncated escape" },
    { uri: "skill://g/%zz", why: "not hex" },
    { uri: "skill://g/%%41", why: "escape of an escape" },
    { uri: "skill://g/%C3", why: "invalid UTF-8" },
    { uri: "skill://g/%FF", why: "invalid UTF-8" },
    { uri: "skill://g/%ED%A0%80", why: "an encoded surrogate" },
    { uri: "skill://g/a%2F../b", why: "a refused segment stays refused after .." },
    { uri: "SKILL://g/x", why: "the scheme is spelled skill://" },
    { uri: "skill:/g/x", why: "one slash" },
    { uri: "http://g/x", why: "another scheme" },
    { uri: " skill://g/x", why: "leading space" },
  ];
  test.each(rows)("$uri -> null ($why)", ({ uri }) => {
    expect(parseSkillUri(uri)).toBeNull();
  });

  test("a non-string is null, not a throw", () => {
    expect(parseSkillUri(42 as unknown as string)).toBeNull();
  });
});

describe("parseSkillUri against path.posix.normalize (inputs that do not escape)", () => {
  const ours = (path: string): string[] | undefined => parseSkillUri(`skill://lib/${path}`)?.segments;
  const theirs = (path: string): string[] =>
    posix
      .normalize(path)
      .split("/")
      .filter((s) => s !== "" && s !== ".");
  const escapes = (path: string): boolean => {
    const normal = posix.normalize(path);
    return normal === ".." || normal.startsWith("../");
  };

  const rows = ["a/b/../c", "a/./b/", "./a", "a//b", "a/b/c/../../d", "/a/../b", "a/..", "x/y/./../z/.", "a/.../b"];
  test.each(rows.map((path) => ({ path })))("$path", ({ path }) => {
    expect(ours(path)).toEqual(theirs(path));
  });

  test("random paths", () => {
    const segment = fc.constantFrom("a", "b", "c.d", "..", ".", "", "...", ".e", "f..");
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 12 }), (segments) => {
        const path = segments.join("/");
        fc.pre(!escapes(path));
        expect(ours(path)).toEqual(theirs(path));
      }),
      { numRuns: 2000 },
    );
  });
});

describe("formatSkillUri", () => {
  const rows = [
    { library: "grafana", segments: ["loki", "SKILL.md"], uri: "skill://grafana/loki/SKILL.md" },
    { library: "g", segments: ["my notes", "_index.md"], uri: "skill://g/my%20notes/_index.md" },
    { library: "g", segments: ["100% sure.md"], uri: "skill://g/100%25%20sure.md" },
    { library: "g", segments: ["a?b#c"], uri: "skill://g/a%3Fb%23c" },
    { library: "g", segments: ["café"], uri: "skill://g/café" },
    { library: "g", segments: [".github", "x"], uri: "skill://g/.github/x" },
  ];
  test.each(rows)("$library $segments -> $uri", ({ library, segments, uri }) => {
    expect(formatSkillUri(library, segments)).toBe(uri);
    expect(parseSkillUri(uri)).toEqual({ library, segments });
  });

  test("parse(format(x)) = x for every addressable segment list", () => {
    const segment = fc
      .string({ minLength: 1, maxLength: 8, unit: "grapheme" })
      .filter((s) => s !== "." && s !== ".." && !/[/\\\0]/.test(s));
    fc.assert(
      fc.property(segment, fc.array(segment, { maxLength: 5 }), (library, segments) => {
        expect(parseSkillUri(formatSkillUri(library, segments))).toEqual({ library, segments });
      }),
      { numRuns: 1000 },
    );
  });

  test("encodeSegment leaves plain names alone", () => {
    expect(encodeSegment("grafana-lgtm")).toBe("grafana-lgtm");
  });
});

describe("isHiddenSegment", () => {
  const rows = [
    { segment: ".git", hidden: true },
    { segment: ".env", hidden: true },
    { segment: ".claude-plugin", hidden: true },
    { segment: ".github", hidden: false },
    { segment: ".claude", hidden: false },
    { segment: ".agents", hidden: false },
    { segment: "a.md", hidden: false },
    { segment: "do..ts", hidden: false },
  ];
  test.each(rows)("$segment -> $hidden", ({ segment, hidden }) => {
    expect(isHiddenSegment(segment)).toBe(hidden);
  });
});
