// The guard's policy in the config: the top-level default, a library's own (its quarantine replaces the default's,
// its releases add to the default's), and the rules a release breaks, each with its exact message, path and line.
import { expect, test } from "vitest";
import { guardPolicyOf } from "../../src/config/guard-policy.js";
import { parseConfig } from "../../src/config/load.js";
import type { Config } from "../../src/config/types.js";

const FILE = "skillshelf.yaml";
const yaml = (...lines: string[]): string => lines.join("\n") + "\n";
const KIT = "plugins: [{name: kit, source: ./kit}]";
const SEVERITIES_RULE = "must be a list of severities, each at most once: critical, high, medium, low";
const DIGEST = `sha256:${"a".repeat(64)}`;

function configOf(text: string): Config {
  const result = parseConfig(text, FILE, "/srv");
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.config;
}

test("a library's quarantine replaces the default's, its releases add to the default's, and the default applies elsewhere", () => {
  const config = configOf(
    yaml(
      KIT,
      "libraries:",
      "  - name: strict",
      "    plugins: [kit]",
      "    guard:",
      "      quarantine: [critical, high]",
      "      allow: [{rule: exec-fetch-execute, file: skill://strict/a/run.sh}]",
      "  - name: loose",
      "    plugins: [kit]",
      "guard:",
      "  allow: [{rule: hidden-bidi, file: skill://loose/a/SKILL.md, digest: '" + DIGEST + "'}]",
    ),
  );
  expect(config.libraries[0]?.guard).toEqual({
    quarantine: ["critical", "high"],
    allow: [{ rule: "exec-fetch-execute", file: "skill://strict/a/run.sh" }],
  });
  expect(config.libraries[1]?.guard).toBeUndefined();
  expect(guardPolicyOf(config, "strict")).toEqual({
    quarantine: ["critical", "high"],
    allow: [
      { rule: "hidden-bidi", file: "skill://loose/a/SKILL.md", digest: DIGEST },
      { rule: "exec-fetch-execute", file: "skill://strict/a/run.sh" },
    ],
  });
  expect(guardPolicyOf(config, "loose")).toEqual({
    quarantine: ["critical"],
    allow: [{ rule: "hidden-bidi", file: "skill://loose/a/SKILL.md", digest: DIGEST }],
  });
});

test("with no guard anywhere there is no policy (the guard's default applies); a library's alone is over the schema's default", () => {
  const none = configOf(yaml(KIT, "libraries: [{name: lib, plugins: [kit]}]"));
  expect(guardPolicyOf(none, "lib")).toBeUndefined();
  const own = configOf(yaml(KIT, "libraries: [{name: lib, plugins: [kit], guard: {allow: [{rule: r, file: 'skill://lib/x'}]}}]"));
  expect(guardPolicyOf(own, "lib")).toEqual({ quarantine: ["critical"], allow: [{ rule: "r", file: "skill://lib/x" }] });
});

test("a release's file is stored as its canonical URI, the one /health names", () => {
  const config = configOf(
    yaml(KIT, "libraries: [{name: lib, plugins: [kit]}]", "guard: {allow: [{rule: r, file: 'skill://lib//a/./b/../c.sh'}]}"),
  );
  expect(config.guard?.allow).toEqual([{ rule: "r", file: "skill://lib/a/c.sh" }]);
});

const errors = (text: string): unknown => {
  const result = parseConfig(text, FILE, "/srv");
  return result.ok ? [] : result.errors;
};

test("a release of a file in an undeclared library, or of no file at all, is an error at its line", () => {
  expect(
    errors(
      yaml(
        KIT,
        "libraries: [{name: lib, plugins: [kit]}, {name: other, plugins: [kit]}]",
        "guard:",
        "  allow:",
        "    - {rule: r, file: 'skill://nope/a.sh'}",
        "    - {rule: r, file: 'skill://lib/'}",
        "    - {rule: r, file: 'skill://lib/a%2Fb'}",
      ),
    ),
  ).toStrictEqual([
    { file: FILE, path: "/guard/allow/0/file", line: 5, rule: "no library named 'nope' is declared; the libraries are: lib, other" },
    {
      file: FILE,
      path: "/guard/allow/1/file",
      line: 6,
      rule: "must be the skill:// URI of a file, as /health names it (skill://<library>/<path>)",
    },
    {
      file: FILE,
      path: "/guard/allow/2/file",
      line: 7,
      rule: "must be the skill:// URI of a file, as /health names it (skill://<library>/<path>)",
    },
  ]);
});

test("a library's release of another library's file is an error naming both", () => {
  expect(
    errors(
      yaml(
        KIT,
        "libraries:",
        "  - name: lib",
        "    plugins: [kit]",
        "    guard:",
        "      allow:",
        "        - {rule: r, file: 'skill://other/a.sh'}",
        "  - {name: other, plugins: [kit]}",
      ),
    ),
  ).toStrictEqual([
    {
      file: FILE,
      path: "/libraries/0/guard/allow/0/file",
      line: 7,
      rule: "names a file of library 'other', and library 'lib' releases only its own files: move the entry to library 'other' or to the top-level guard",
    },
  ]);
});

test("a library's guard takes the schema's keys and severities only", () => {
  expect(
    errors(yaml(KIT, "libraries:", "  - name: lib", "    plugins: [kit]", "    guard: {quarantine: [critical, severe], warn: [low]}")),
  ).toStrictEqual([
    { file: FILE, path: "/libraries/0/guard/warn", line: 5, rule: "unknown key 'warn'; the keys here are: quarantine, allow" },
    { file: FILE, path: "/libraries/0/guard/quarantine/1", line: 5, rule: "must be one of: critical, high, medium, low" },
  ]);
  expect(errors(yaml(KIT, "libraries:", "  - name: lib", "    plugins: [kit]", "    guard: {quarantine: [high, high]}"))).toStrictEqual([
    { file: FILE, path: "/libraries/0/guard/quarantine", line: 5, rule: SEVERITIES_RULE },
  ]);
  expect(errors(yaml(KIT, "libraries: [{name: lib, plugins: [kit]}]", "guard: {quarantine: high}"))).toStrictEqual([
    { file: FILE, path: "/guard/quarantine", line: 3, rule: SEVERITIES_RULE },
  ]);
});

test("a scanner's program given as a path is taken from the config file's directory; its defaults are the schema's", () => {
  const config = configOf(yaml(KIT, "libraries: [{name: lib, plugins: [kit]}]", "guard:", "  scanner: {command: [./bin/scan, --sarif]}"));
  expect(config.guard).toEqual({
    quarantine: ["critical"],
    allow: [],
    scanner: { command: ["/srv/bin/scan", "--sarif"], timeoutMs: 30_000, concurrency: 2, onFailure: "quarantine" },
  });
  const named = configOf(
    yaml(
      KIT,
      "libraries: [{name: lib, plugins: [kit]}]",
      "guard:",
      "  scanner: {command: [scan-skills], timeout: 2m, concurrency: 8, onFailure: warn}",
    ),
  );
  expect(named.guard?.scanner).toEqual({ command: ["scan-skills"], timeoutMs: 120_000, concurrency: 8, onFailure: "warn" });
  expect(guardPolicyOf(named, "lib")).toEqual({ quarantine: ["critical"], allow: [], scannerFailure: "warn" });
});

test("a scanner's command, timeout, concurrency and onFailure are checked", () => {
  const lib = "libraries: [{name: lib, plugins: [kit]}]";
  expect(errors(yaml(KIT, lib, "guard:", "  scanner: {command: [], timeout: 50ms, concurrency: 0, onFailure: ignore}"))).toStrictEqual([
    { file: FILE, path: "/guard/scanner/command", line: 4, rule: "must list at least 1" },
    { file: FILE, path: "/guard/scanner/concurrency", line: 4, rule: "must be at least 1" },
    { file: FILE, path: "/guard/scanner/onFailure", line: 4, rule: "must be one of: quarantine, warn" },
  ]);
  expect(errors(yaml(KIT, lib, "guard:", "  scanner: {command: [scan], timeout: 50ms}"))).toStrictEqual([
    { file: FILE, path: "/guard/scanner/timeout", line: 4, rule: "must be at least 100ms" },
  ]);
  expect(errors(yaml(KIT, lib, "guard:", "  scanner: {command: [scan], timeout: 2h}"))).toStrictEqual([
    { file: FILE, path: "/guard/scanner/timeout", line: 4, rule: "must be at most 1h: a scan holds up the build it is part of" },
  ]);
  expect(errors(yaml(KIT, lib, "guard:", "  scanner: {timeout: 1s}"))).toStrictEqual([
    { file: FILE, path: "/guard/scanner", line: 4, rule: "missing required key 'command'" },
  ]);
});
