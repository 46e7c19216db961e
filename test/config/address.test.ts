import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, test } from "vitest";
import { tempDir } from "../support/temp.js";
import { ADDRESS_GRAMMAR, parsePluginAddress, type SourceKinds } from "../../src/config/address.js";
import type { PluginAddress } from "../../src/config/types.js";

const BASE = tempDir("skillshelf-address-");
const SOURCES: SourceKinds = new Map([
  ["github", "git"],
  ["gitlab", "git"],
  ["shared", "file"],
]);
const src = (source: string, p: string, subdir: string, written: string, ref?: string): PluginAddress =>
  ref === undefined ? { kind: "source", source, path: p, subdir, written } : { kind: "source", source, path: p, subdir, ref, written };
const local = (abs: string, written: string): PluginAddress => ({ kind: "local", abs, written });

const absolute = path.join(BASE, "abs", "kit");
const fileUrl = pathToFileURL(path.join(BASE, "hand book")).href;

describe("valid addresses", () => {
  const rows: { written: string; expect: PluginAddress }[] = [
    { written: "github://grafana/skills", expect: src("github", "grafana/skills", "", "github://grafana/skills") },
    {
      written: "gitlab://my-team/notes//ops?ref=main",
      expect: src("gitlab", "my-team/notes", "ops", "gitlab://my-team/notes//ops?ref=main", "main"),
    },
    { written: "github://a/b//x/y?ref=v1.2.3", expect: src("github", "a/b", "x/y", "github://a/b//x/y?ref=v1.2.3", "v1.2.3") },
    { written: "github://a/b?ref=feature/x", expect: src("github", "a/b", "", "github://a/b?ref=feature/x", "feature/x") },
    {
      written: "github://a/b?ref=51d33e71e191b409bbd25fc7be2684c610d18166",
      expect: src(
        "github",
        "a/b",
        "",
        "github://a/b?ref=51d33e71e191b409bbd25fc7be2684c610d18166",
        "51d33e71e191b409bbd25fc7be2684c610d18166",
      ),
    },
    { written: "github://a/do..ts", expect: src("github", "a/do..ts", "", "github://a/do..ts") },
    { written: "shared://team/kit", expect: src("shared", "team/kit", "", "shared://team/kit") },
    { written: "shared://", expect: src("shared", "", "", "shared://") },
    { written: "./skills/kit", expect: local(path.join(BASE, "skills", "kit"), "./skills/kit") },
    { written: "../kit", expect: local(path.resolve(BASE, "..", "kit"), "../kit") },
    { written: "./a/../b", expect: local(path.join(BASE, "b"), "./a/../b") },
    { written: ".", expect: local(BASE, ".") },
    { written: absolute, expect: local(absolute, absolute) },
    { written: fileUrl, expect: local(path.join(BASE, "hand book"), fileUrl) },
  ];
  test.each(rows)("$written", ({ written, expect: address }) => {
    expect(parsePluginAddress(written, SOURCES, BASE)).toStrictEqual({ ok: true, address });
  });
});

describe("refused addresses", () => {
  const REF_RULE = "ref must be a commit, branch or tag name: letters, digits and . _ + @ / -, not starting with - or /, without '..'";
  const rows: { written: string; rule: string }[] = [
    { written: "", rule: "must not be empty; " + ADDRESS_GRAMMAR },
    { written: "github://a\tb", rule: "must not contain control characters" },
    { written: "skills/kit", rule: "is not an address; " + ADDRESS_GRAMMAR },
    { written: "github:/a/b", rule: "is not an address; " + ADDRESS_GRAMMAR },
    { written: "GitHub://a/b", rule: "must start with the name of a declared source before ://; " + ADDRESS_GRAMMAR },
    { written: "https://github.com/a/b", rule: "names source 'https', which is not declared; the sources are: github, gitlab, shared" },
    { written: "nope://a", rule: "names source 'nope', which is not declared; the sources are: github, gitlab, shared" },
    { written: "github://a/../b", rule: "the path must not contain '.' or '..' segments" },
    { written: "github://./a", rule: "the path must not contain '.' or '..' segments" },
    { written: "github://a/b//../c", rule: "the subdirectory must not contain '.' or '..' segments" },
    { written: "github://a/b//x/..", rule: "the subdirectory must not contain '.' or '..' segments" },
    { written: "github://a/b//", rule: "a '//' must be followed by a subdirectory" },
    { written: "github://a/b/", rule: "the path must not have an empty segment (a leading or trailing '/', or '///')" },
    { written: "github:///a/b", rule: "the path must not have an empty segment (a leading or trailing '/', or '///')" },
    { written: "github://a/b///c", rule: "the subdirectory must not have an empty segment (a leading or trailing '/', or '///')" },
    { written: "github://a/%2e%2e", rule: "the path must not contain percent escapes (%)" },
    { written: "github://a\\b", rule: "the path must not contain '\\'" },
    { written: "github://", rule: "a git address names a repository: github://<owner>/<repo>" },
    { written: "github://a/b#main", rule: "an address takes no fragment (#)" },
    { written: "github://a/b?ref=", rule: "ref must not be empty" },
    { written: "github://a/b?ref", rule: "the only query parameter is ref, as ?ref=<commit, branch or tag>" },
    { written: "github://a/b?rev=main", rule: "the only query parameter is ref, as ?ref=<commit, branch or tag>" },
    { written: "github://a/b?ref=main&depth=1", rule: "the only query parameter is ref, as ?ref=<commit, branch or tag>" },
    { written: "github://a/b?ref=a&ref=b", rule: "ref is given twice" },
    { written: "github://a/b?ref=--upload-pack=x", rule: REF_RULE },
    { written: "github://a/b?ref=a..b", rule: REF_RULE },
    { written: "github://a/b?ref=a b", rule: REF_RULE },
    { written: "github://a/b?ref=main.lock", rule: REF_RULE },
    { written: "shared://kit?ref=main", rule: "?ref= needs a git source, and 'shared' is a file source" },
    { written: "file://host/srv/x", rule: "a file: address must be absolute, as file:///path" },
    { written: "file:kit", rule: "a file: address must be absolute, as file:///path" },
    { written: "file:///srv/x?ref=main", rule: "a file:// address takes no query (?) or fragment (#)" },
    { written: "file:///a%2Fb", rule: "is not a valid file:// URL (a percent escape may encode '/' or be malformed)" },
  ];
  test.each(rows)("$written", ({ written, rule }) => {
    expect(parsePluginAddress(written, SOURCES, BASE)).toStrictEqual({ ok: false, rule });
  });

  test("no sources declared says so", () => {
    expect(parsePluginAddress("github://a/b", new Map(), BASE)).toStrictEqual({
      ok: false,
      rule: "names source 'github', which is not declared; no sources are declared",
    });
  });
});
