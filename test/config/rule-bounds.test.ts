// Each config rule on its own: a refusal that passes for another reason proves nothing about the rule.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { parsePluginAddress, type SourceKinds } from "../../src/config/address.js";
import { parseConfig } from "../../src/config/load.js";
import { normaliseTagItem, parseTagItem, parseTagSelector } from "../../src/config/tags.js";
import { parseDuration, parseSize } from "../../src/config/units.js";

const BASE = fs.mkdtempSync(path.join(os.tmpdir(), "skillshelf-config-rule-bounds-"));
afterAll(() => fs.rmSync(BASE, { recursive: true, force: true }));
const SOURCES: SourceKinds = new Map([["github", "git"]]);
const REF_RULE = "ref must be a commit, branch or tag name: letters, digits and . _ + @ / -, not starting with - or /, without '..'";

describe("each ref rule on its own (every character here is allowed)", () => {
  const rows = [
    { ref: "-x", ok: false, why: "a leading '-' would reach git as an option" },
    { ref: "x-", ok: true },
    { ref: "a-b", ok: true },
    { ref: "/x", ok: false, why: "leading '/'" },
    { ref: "x/", ok: false, why: "trailing '/'" },
    { ref: "x.", ok: false, why: "trailing '.'" },
    { ref: ".x", ok: true },
    { ref: "v1.2", ok: true },
    { ref: "a//b", ok: false },
    { ref: "a..b", ok: false },
    { ref: "x.lock", ok: false },
    { ref: "x.locked", ok: true },
    { ref: "a@b", ok: true },
  ];
  test.each(rows)("?ref=$ref -> $ok", ({ ref, ok }) => {
    const written = `github://a/b?ref=${ref}`;
    expect(parsePluginAddress(written, SOURCES, BASE)).toEqual(
      ok
        ? { ok: true, address: { kind: "source", source: "github", path: "a/b", subdir: "", ref, written } }
        : { ok: false, rule: REF_RULE },
    );
  });
});

describe("local addresses", () => {
  test.each([".", "..", "./", "../"])("%s is the folder it names", (written) => {
    expect(parsePluginAddress(written, SOURCES, BASE)).toEqual({
      ok: true,
      address: { kind: "local", abs: path.resolve(BASE, written), written },
    });
  });

  test("'...' is no local path", () => {
    expect(parsePluginAddress("...", SOURCES, BASE)).toMatchObject({ ok: false });
  });
});

describe("sizes and durations at their bounds", () => {
  test.each([
    { value: 0, bytes: 0 },
    { value: 1, bytes: 1 },
    { value: 1.9, bytes: 1 },
    { value: -1, bytes: undefined },
    { value: -0.5, bytes: undefined },
    { value: Number.POSITIVE_INFINITY, bytes: undefined },
    { value: "-1", bytes: undefined },
    { value: "0", bytes: 0 },
  ])("size $value -> $bytes", ({ value, bytes }) => {
    expect(parseSize(value)).toBe(bytes);
  });

  test.each([
    { value: 0.4, ms: 0 },
    { value: 0.5, ms: 1 },
    { value: -0.5, ms: undefined },
    { value: Number.NaN, ms: undefined },
  ])("duration $value -> $ms", ({ value, ms }) => {
    expect(parseDuration(value)).toBe(ms);
  });
});

const yaml = (...lines: string[]) => lines.join("\n") + "\n";
const KIT = "plugins: [{name: kit, source: ./kit}]";
const LIB = "libraries: [{name: lib, plugins: [kit]}]";
const FILE = "plugins.yaml";

describe("config rules tested on their own", () => {
  const rows = [
    {
      name: "a source refresh longer than a timer holds",
      text: yaml("sources: [{name: gh, url: git+https://github.com, refresh: 25d}]", KIT, LIB),
      errors: [{ path: "/sources/0/refresh", line: 1, rule: "must be at most 2147483647 ms (about 24.8 days)" }],
    },
    {
      name: "a space in a source URL",
      text: yaml('sources: [{name: gh, url: "git+https://github.com/a b"}]', KIT, LIB),
      errors: [{ path: "/sources/0/url", line: 1, rule: "a source URL must not contain spaces or control characters" }],
    },
    {
      name: "a tab in a source URL",
      text: yaml('sources: [{name: gh, url: "git+https://github.com/a\\tb"}]', KIT, LIB),
      errors: [{ path: "/sources/0/url", line: 1, rule: "a source URL must not contain spaces or control characters" }],
    },
    {
      name: "DEL in a source URL",
      text: yaml('sources: [{name: gh, url: "file:///srv/a\\x7fb"}]', KIT, LIB),
      errors: [{ path: "/sources/0/url", line: 1, rule: "a source URL must not contain spaces or control characters" }],
    },
  ];
  test.each(rows)("$name", ({ text, errors }) => {
    expect(parseConfig(text, FILE, BASE)).toStrictEqual({ ok: false, errors: errors.map((e) => ({ file: FILE, ...e })) });
  });

  test("a refresh of exactly the longest timer is accepted", () => {
    const result = parseConfig(yaml("sources: [{name: gh, url: git+https://github.com, refresh: 2147483647}]", KIT, LIB), FILE, BASE);
    expect(result.ok && result.config.sources.map((s) => s.refreshMs)).toEqual([2147483647]);
  });

  test("fileBytes: 1 is the smallest limit", () => {
    const result = parseConfig(yaml(KIT, LIB, "limits: {fileBytes: 1}"), FILE, BASE);
    expect(result.ok && result.config.limits).toEqual({ fileBytes: 1 });
  });

  test("a negative fileBytes is refused", () => {
    const result = parseConfig(yaml(KIT, LIB, "limits: {fileBytes: -1}"), FILE, BASE);
    expect(result).toStrictEqual({ ok: false, errors: [{ file: FILE, path: "/limits/fileBytes", line: 3, rule: "must be at least 1" }] });
  });
});

describe("tag items", () => {
  const rows = [
    { item: "a, b", group: ["a", "b"], normal: "a,b" },
    { item: "a,,b", group: ["a", "b"], normal: "a,,b" },
    { item: "a,", group: ["a"], normal: "a," },
    { item: " a ", group: ["a"], normal: "a" },
    { item: "", group: [], normal: "" },
  ];
  test.each(rows)("'$item' -> $group", ({ item, group, normal }) => {
    expect(parseTagItem(item)).toEqual(group);
    expect(normaliseTagItem(item)).toBe(normal);
  });

  test("a selector is one group per item", () => {
    expect(parseTagSelector(["a, b", "c,"])).toEqual([["a", "b"], ["c"]]);
  });
});
