// Marketplace files, pure: every source form an entry may take, and every reason an entry is skipped.
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import type { SourceConfig } from "../../src/config/types.js";
import {
  hasMarketplaceFile,
  parseMarketplace,
  parseRelativePath,
  readMarketplace,
  type MarketplaceRead,
} from "../../src/harvest/marketplace.js";
import { makeTree, removeTrees } from "./fixture.js";

afterAll(removeTrees);

const SHA = "51d33e71e191b409bbd25fc7be2684c610d18166";
const SOURCES: SourceConfig[] = [
  { name: "gh", kind: "git", url: "git+https://github.com", watch: true },
  { name: "corp", kind: "git", url: "git+https://git.example.com", watch: true },
  { name: "team", kind: "git", url: "git+https://git.example.com/team/", watch: true },
  { name: "disk", kind: "file", url: "file:///srv/skills", watch: true },
];

function parse(plugins: unknown[], metadata: unknown = undefined, sources = SOURCES): MarketplaceRead {
  return parseMarketplace(
    { name: "m", ...(metadata === undefined ? {} : { metadata }), plugins },
    ".claude-plugin/marketplace.json",
    sources,
  );
}

function sourceOf(source: unknown, metadata?: unknown): unknown {
  const read = parse([{ name: "x", source }], metadata);
  if (!read.ok) return read.error;
  const entry = read.marketplace.entries[0]?.source;
  // A git entry carries its parsed address; the table names it as written.
  return entry?.kind === "git" ? { kind: "git", address: entry.address.written } : (entry ?? read.marketplace.skipped[0]?.reason);
}

describe("entry sources that serve", () => {
  test.each([
    { name: "./plugins/x", source: "./plugins/x", expect: { kind: "relative", path: "plugins/x" } },
    { name: "./ (the marketplace root)", source: "./", expect: { kind: "relative", path: "" } },
    { name: "a trailing slash and ./ segments", source: "./plugins/./x/", expect: { kind: "relative", path: "plugins/x" } },
    { name: "github", source: { source: "github", repo: "owner/repo" }, expect: { kind: "git", address: "gh://owner/repo" } },
    {
      name: "github with a ref",
      source: { source: "github", repo: "owner/repo", ref: "v1" },
      expect: { kind: "git", address: "gh://owner/repo?ref=v1" },
    },
    {
      name: "github: sha wins over ref",
      source: { source: "github", repo: "o/r", ref: "v1", sha: SHA },
      expect: { kind: "git", address: `gh://o/r?ref=${SHA}` },
    },
    { name: "url", source: { source: "url", url: "https://github.com/o/r.git" }, expect: { kind: "git", address: "gh://o/r.git" } },
    {
      name: "url: the longest source prefix wins",
      source: { source: "url", url: "https://git.example.com/team/x" },
      expect: { kind: "git", address: "team://x" },
    },
    {
      name: "url: on a segment boundary only",
      source: { source: "url", url: "https://git.example.com/teamwork/x" },
      expect: { kind: "git", address: "corp://teamwork/x" },
    },
    {
      name: "git-subdir",
      source: { source: "git-subdir", url: "https://github.com/o/r.git", path: "./integrations/claude/", ref: "main" },
      expect: { kind: "git", address: "gh://o/r.git//integrations/claude?ref=main" },
    },
    {
      name: "git-subdir: owner/repo shorthand",
      source: { source: "git-subdir", url: "o/r", path: "sub" },
      expect: { kind: "git", address: "gh://o/r//sub" },
    },
  ])("$name", ({ source, expect: expected }) => {
    expect(sourceOf(source)).toEqual(expected);
  });

  test("metadata.pluginRoot prefixes a bare relative source, not a ./ one", () => {
    expect(sourceOf("formatter", { pluginRoot: "./plugins" })).toEqual({ kind: "relative", path: "plugins/formatter" });
    expect(sourceOf("./formatter", { pluginRoot: "./plugins" })).toEqual({ kind: "relative", path: "formatter" });
  });
});

describe("entries that are skipped, with their reason", () => {
  test.each([
    {
      name: "npm",
      source: { source: "npm", package: "@x/y" },
      reason: "Its source is an npm package: skillshelf never installs packages.",
    },
    { name: "pip", source: { source: "pip", package: "y" }, reason: "Its source is a pip package: skillshelf never installs packages." },
    {
      name: "an archive",
      source: { source: "url", url: "https://github.com/o/r/archive/v1.tar.gz" },
      reason: "Its source is an archive, which skillshelf does not fetch.",
    },
    {
      name: "an undeclared host",
      source: { source: "url", url: "https://gitlab.com/o/r.git" },
      reason: "Its repository is on https://gitlab.com, which no declared git source serves.",
    },
    {
      name: "an SSH URL",
      source: { source: "url", url: "git@github.com:o/r.git" },
      reason: "Its repository is on github.com, which no declared git source serves.",
    },
    {
      name: "a file source is not a git source",
      source: { source: "url", url: "file:///srv/skills/x" },
      reason: "Its repository is on file://, which no declared git source serves.",
    },
    {
      name: "credentials in the URL",
      source: { source: "url", url: "https://user:secret@github.com/o/r" },
      reason: "Its source URL carries credentials (user:password@), which skillshelf refuses.",
    },
    { name: "a path that climbs out", source: "./plugins/../../x", reason: 'Its source path "./plugins/../../x" escapes the marketplace.' },
    { name: "an absolute path", source: "/etc", reason: 'Its source path "/etc" escapes the marketplace.' },
    {
      name: "a URL string",
      source: "https://github.com/o/r",
      reason: 'Its source "https://github.com/o/r" is not a relative path (./…); a repository is given as {source: github|url|git-subdir}.',
    },
    {
      name: "a git-subdir path that climbs out",
      source: { source: "git-subdir", url: "o/r", path: "../x" },
      reason: 'Its git-subdir path "../x" escapes the repository.',
    },
    { name: "a git-subdir without a path", source: { source: "git-subdir", url: "o/r" }, reason: "Its git-subdir source has no path." },
    { name: "a github source without a repo", source: { source: "github" }, reason: "Its github source has no repo as owner/name." },
    {
      name: "an unknown type",
      source: { source: "hg", url: "x" },
      reason: 'Its source type "hg" is not one skillshelf serves (a relative path, github, url or git-subdir).',
    },
    { name: "no type", source: { url: "x" }, reason: "Its source object has no source type." },
    { name: "no source", source: undefined, reason: "The entry has no source." },
    {
      name: "a ref git would read as an option",
      source: { source: "github", repo: "o/r", ref: "--upload-pack=x" },
      reason:
        "Its source is refused: the address ref must be a commit, branch or tag name: letters, digits and . _ + @ / -, not starting with - or /, without '..'.",
    },
    {
      name: "a percent escape in the path",
      source: { source: "url", url: "https://github.com/o/%2e%2e" },
      reason: "Its source is refused: the address the path must not contain percent escapes (%).",
    },
  ])("$name", ({ source, reason }) => {
    expect(sourceOf(source)).toBe(reason);
  });

  test("entry-level problems: not an object, no name, a bad name, a repeated name, a bad skills path", () => {
    const read = parse([
      "just a string",
      { source: "./a" },
      { name: "Bad_Name", source: "./a" },
      { name: "twice", source: "./a" },
      { name: "twice", source: "./b" },
      { name: "climbs", source: "./a", skills: ["../outside"] },
      { name: "typed", source: "./a", commands: 3 },
    ]);
    expect(read.ok && read.marketplace.skipped).toEqual([
      { entry: "plugins[0]", reason: "The entry is not a JSON object." },
      { entry: "plugins[1]", reason: "The entry has no name." },
      {
        entry: "plugins[2]",
        reason: `The entry name "Bad_Name" breaks the naming rule: 1-64 characters of a-z, 0-9 and '-', no hyphen first or last.`,
      },
      { entry: "twice", reason: 'A second entry is named "twice"; the first one is served.' },
      { entry: "climbs", reason: `The entry "climbs": skills path "../outside": a glob must not contain a '..' segment.` },
      { entry: "typed", reason: 'The entry "typed": commands must be a path or a list of paths.' },
    ]);
    expect(read.ok && read.marketplace.entries.map((e) => e.name)).toEqual(["twice"]);
  });
});

test("an entry's metadata, strictness and skill/command lists", () => {
  const read = parse([
    {
      name: "full",
      source: "./p",
      description: "Described.",
      category: "engineering",
      tags: ["a", "b,c", " d ", 3],
      keywords: ["k"],
      version: "1.2.0",
      strict: false,
      skills: "./skills/one",
      commands: ["./commands/x.md"],
      agents: ["./agents"],
      hooks: {},
    },
    { name: "plain", source: "./q" },
  ]);
  expect(read.ok && read.marketplace.entries).toEqual([
    {
      name: "full",
      meta: { description: "Described.", category: "engineering", tags: ["a", "d"], keywords: ["k"], version: "1.2.0" },
      source: { kind: "relative", path: "p" },
      strict: false,
      skills: ["./skills/one"],
      commands: ["./commands/x.md"],
    },
    { name: "plain", meta: { description: "", tags: [], keywords: [] }, source: { kind: "relative", path: "q" }, strict: true },
  ]);
});

test("a marketplace that is not an object or has no plugins list is an error", () => {
  expect(parseMarketplace([], "m.json", SOURCES)).toEqual({ ok: false, error: "the marketplace file m.json is not a JSON object" });
  expect(parseMarketplace({ name: "m" }, "m.json", SOURCES)).toEqual({
    ok: false,
    error: "the marketplace file m.json has no plugins list",
  });
});

describe("reading the marketplace file from a tree", () => {
  test("the first of the three places wins", () => {
    const root = makeTree({
      ".github/plugin/marketplace.json": JSON.stringify({ plugins: [{ name: "second", source: "./" }] }),
      ".agents/plugins/marketplace.json": JSON.stringify({ plugins: [{ name: "third", source: "./" }] }),
    });
    const read = readMarketplace(root, SOURCES);
    expect(read.ok && [read.marketplace.file, read.marketplace.entries.map((e) => e.name)]).toEqual([
      ".github/plugin/marketplace.json",
      ["second"],
    ]);
  });

  test("a symlink out of the root is ignored like a missing file", () => {
    const outside = makeTree({ "m.json": JSON.stringify({ plugins: [{ name: "stolen", source: "./" }] }) });
    const root = makeTree({
      ".claude-plugin/marketplace.json": { symlink: path.join(outside, "m.json") },
      ".agents/plugins/marketplace.json": JSON.stringify({ plugins: [{ name: "inside", source: "./" }] }),
    });
    const read = readMarketplace(root, SOURCES);
    expect(read.ok && read.marketplace.entries.map((e) => e.name)).toEqual(["inside"]);
  });

  test("broken JSON names the file, relative, and never quotes it", () => {
    const root = makeTree({ ".claude-plugin/marketplace.json": '{"plugins": [ secret-looking-text' });
    expect(readMarketplace(root, SOURCES)).toEqual({
      ok: false,
      error: "the marketplace file .claude-plugin/marketplace.json is not valid JSON",
    });
  });

  test("no marketplace file lists where it looked", () => {
    expect(readMarketplace(makeTree({}), SOURCES)).toEqual({
      ok: false,
      error:
        "no marketplace file was found (looked for .claude-plugin/marketplace.json, .github/plugin/marketplace.json, .agents/plugins/marketplace.json)",
    });
  });
});

test.each([
  ["./a/b", "a/b"],
  ["a//b/", "a/b"],
  [".", ""],
  ["./", ""],
  ["../a", null],
  ["a/../b", null],
  ["/a", null],
  ["a\\b", null],
])("parseRelativePath(%j) => %j", (input, expected) => {
  expect(parseRelativePath(input)).toBe(expected);
});

describe("adversarial entries", () => {
  const NAME_RULE = "breaks the naming rule: 1-64 characters of a-z, 0-9 and '-', no hyphen first or last.";
  test.each([
    { name: "a", ok: true },
    { name: "0", ok: true },
    { name: "a-b-9", ok: true },
    { name: "x".repeat(64), ok: true },
    { name: "x".repeat(65), ok: false },
    { name: "-a", ok: false },
    { name: "a-", ok: false },
    { name: "A", ok: false },
    { name: "a_b", ok: false },
    { name: "a.b", ok: false },
    { name: "a b", ok: false },
  ])("entry name $name: $ok", ({ name, ok }) => {
    const read = parse([{ name, source: "./" }]);
    expect(read.ok && [read.marketplace.entries.map((e) => e.name), read.marketplace.skipped]).toEqual(
      ok ? [[name], []] : [[], [{ entry: "plugins[0]", reason: `The entry name ${JSON.stringify(name)} ${NAME_RULE}` }]],
    );
  });

  test.each([
    { title: "an empty name", entry: { name: "", source: "./" }, reason: "The entry has no name." },
    { title: "a number for a name", entry: { name: 7, source: "./" }, reason: "The entry has no name." },
    { title: "null", entry: null, reason: "The entry is not a JSON object." },
    { title: "a list", entry: [{ name: "a" }], reason: "The entry is not a JSON object." },
  ])("$title: skipped as plugins[0]", ({ entry, reason }) => {
    const read = parse([entry]);
    expect(read.ok && read.marketplace.skipped).toEqual([{ entry: "plugins[0]", reason }]);
  });

  test.each([
    { name: ".", source: ".", expect: { kind: "relative", path: "" } },
    { name: "a bare path without pluginRoot", source: "plugins/x", expect: { kind: "relative", path: "plugins/x" } },
    { name: "a path trimmed", source: "  ./x/  ", expect: { kind: "relative", path: "x" } },
    { name: "a NUL in the path", source: "./a\u0000b", expect: 'Its source path "./a\\u0000b" escapes the marketplace.' },
    {
      name: "a drive-letter path is a scheme",
      source: "C:/x",
      expect: 'Its source "C:/x" is not a relative path (./…); a repository is given as {source: github|url|git-subdir}.',
    },
    { name: "a list", source: ["./x"], expect: "Its source is neither a relative path nor an object." },
    { name: "a number", source: 3, expect: "Its source is neither a relative path nor an object." },
    { name: "null", source: null, expect: "The entry has no source." },
    { name: "a non-string type", source: { source: 3, url: "x" }, expect: "Its source object has no source type." },
    { name: "url: empty", source: { source: "url", url: "" }, expect: "Its url source has no url." },
    { name: "url: not a string", source: { source: "url", url: 3 }, expect: "Its url source has no url." },
    { name: "git: no url", source: { source: "git" }, expect: "Its git source has no url." },
    { name: "git", source: { source: "git", url: "https://github.com/o/r" }, expect: { kind: "git", address: "gh://o/r" } },
    { name: "git-subdir: no url", source: { source: "git-subdir", path: "x" }, expect: "Its git-subdir source has no url." },
    { name: "git-subdir: empty url", source: { source: "git-subdir", url: "", path: "x" }, expect: "Its git-subdir source has no url." },
    {
      name: "git-subdir: empty path",
      source: { source: "git-subdir", url: "o/r", path: "" },
      expect: "Its git-subdir source has no path.",
    },
    {
      name: "git-subdir: path ./ is the root",
      source: { source: "git-subdir", url: "o/r", path: "./" },
      expect: { kind: "git", address: "gh://o/r" },
    },
    {
      name: "github: owner/name/extra",
      source: { source: "github", repo: "o/r/x" },
      expect: "Its github source has no repo as owner/name.",
    },
    { name: "github: no owner", source: { source: "github", repo: "r" }, expect: "Its github source has no repo as owner/name." },
    {
      name: "github: a repo with . _ -",
      source: { source: "github", repo: "O-1/r_x.y" },
      expect: { kind: "git", address: "gh://O-1/r_x.y" },
    },
    { name: "github: a non-string repo", source: { source: "github", repo: 5 }, expect: "Its github source has no repo as owner/name." },
    {
      name: "a ref that is not a string is left out",
      source: { source: "github", repo: "o/r", ref: 1 },
      expect: { kind: "git", address: "gh://o/r" },
    },
    {
      name: "a sha that is not a string gives way to the ref",
      source: { source: "github", repo: "o/r", sha: 1, ref: "v2" },
      expect: { kind: "git", address: "gh://o/r?ref=v2" },
    },
    {
      name: "url: trailing slashes",
      source: { source: "url", url: "https://github.com/o/r//" },
      expect: { kind: "git", address: "gh://o/r" },
    },
    {
      name: "url: the bare host is no repository",
      source: { source: "url", url: "https://github.com" },
      expect: "Its repository is on https://github.com, which no declared git source serves.",
    },
    {
      name: "url: a user without password is refused too",
      source: { source: "url", url: "ssh://git@github.com/o/r" },
      expect: "Its source URL carries credentials (user:password@), which skillshelf refuses.",
    },
    {
      name: "url: an @ after the host is no credential",
      source: { source: "url", url: "https://github.com/o/r@v1" },
      expect: { kind: "git", address: "gh://o/r@v1" },
    },
    {
      name: "url: a host without a scheme or user",
      source: { source: "url", url: "gitlab.com:o/r" },
      expect: "Its repository is on gitlab.com, which no declared git source serves.",
    },
    {
      name: "url: no host at all",
      source: { source: "url", url: "just-a-name" },
      expect: "Its repository is on an unknown host, which no declared git source serves.",
    },
    {
      name: "url: a zip, upper case",
      source: { source: "url", url: "https://github.com/o/r/v1.ZIP" },
      expect: "Its source is an archive, which skillshelf does not fetch.",
    },
    {
      name: "url: a .tgz with a trailing slash",
      source: { source: "url", url: "https://github.com/o/r.tgz/" },
      expect: "Its source is an archive, which skillshelf does not fetch.",
    },
    {
      name: "url: .tar.xz",
      source: { source: "url", url: "https://github.com/o/r.tar.xz" },
      expect: "Its source is an archive, which skillshelf does not fetch.",
    },
    {
      name: "url: .txz",
      source: { source: "url", url: "https://github.com/o/r.txz" },
      expect: "Its source is an archive, which skillshelf does not fetch.",
    },
    {
      name: "url: .tar.bz2",
      source: { source: "url", url: "https://github.com/o/r.tar.bz2" },
      expect: "Its source is an archive, which skillshelf does not fetch.",
    },
    {
      name: "url: .tar",
      source: { source: "url", url: "https://github.com/o/r.tar" },
      expect: "Its source is an archive, which skillshelf does not fetch.",
    },
    {
      name: "url: zip inside a name is no archive",
      source: { source: "url", url: "https://github.com/o/zip.tools" },
      expect: { kind: "git", address: "gh://o/zip.tools" },
    },
    {
      name: "url: .zip before the end is no archive",
      source: { source: "url", url: "https://github.com/o/r.zip.d" },
      expect: { kind: "git", address: "gh://o/r.zip.d" },
    },
  ])("$name", ({ source, expect: expected }) => {
    expect(sourceOf(source)).toEqual(expected);
  });

  test("metadata and pluginRoot of the wrong shape are ignored; one that escapes skips the bare sources it prefixes", () => {
    expect(sourceOf("x", null)).toEqual({ kind: "relative", path: "x" });
    expect(sourceOf("x", "plugins")).toEqual({ kind: "relative", path: "x" });
    expect(sourceOf("x", { pluginRoot: 3 })).toEqual({ kind: "relative", path: "x" });
    expect(sourceOf("x", { pluginRoot: "../up" })).toBe(
      `Its source path "x" is under metadata.pluginRoot "../up", which escapes the marketplace.`,
    );
    expect(sourceOf("./x", { pluginRoot: "../up" })).toEqual({ kind: "relative", path: "x" });
    expect(sourceOf("x", { pluginRoot: "./" })).toEqual({ kind: "relative", path: "x" });
    expect(sourceOf("../x", { pluginRoot: "./plugins" })).toBe(`Its source path "../x" escapes the marketplace.`);
  });

  test("two sources with the same URL: the first declared serves", () => {
    const sources: SourceConfig[] = [
      { name: "one", kind: "git", url: "https://h.example", watch: true },
      { name: "two", kind: "git", url: "https://h.example/", watch: true },
    ];
    const read = parse([{ name: "x", source: { source: "url", url: "https://h.example/o/r" } }], undefined, sources);
    const source = read.ok ? read.marketplace.entries[0]?.source : undefined;
    expect(source?.kind === "git" && source.address.written).toBe("one://o/r");
  });

  test("strictness is off only for false; category and version are trimmed or left out", () => {
    const read = parse([
      { name: "a", source: "./", strict: "no", category: "  ", version: " ", description: 5 },
      { name: "b", source: "./", strict: 0, category: " eng ", version: "2" },
    ]);
    expect(read.ok && read.marketplace.entries.map((e) => [e.strict, e.meta])).toEqual([
      [true, { description: "", tags: [], keywords: [] }],
      [true, { description: "", category: "eng", tags: [], keywords: [], version: "2" }],
    ]);
  });
});

describe("hasMarketplaceFile", () => {
  test.each([
    { title: "none", tree: {}, has: false },
    { title: "a valid one", tree: { ".agents/plugins/marketplace.json": '{"plugins": []}' }, has: true },
    { title: "a broken one (so the library reports it)", tree: { ".github/plugin/marketplace.json": "{" }, has: true },
    { title: "one elsewhere", tree: { "marketplace.json": '{"plugins": []}' }, has: false },
  ])("$title: $has", ({ tree, has }) => {
    expect(hasMarketplaceFile(makeTree(tree))).toBe(has);
  });
});

describe("more adversarial shapes", () => {
  test.each([null, "plugins", 5])("a marketplace of %j is not a JSON object", (value) => {
    expect(parseMarketplace(value, "m.json", SOURCES)).toEqual({ ok: false, error: "the marketplace file m.json is not a JSON object" });
  });

  test("an entry whose source cannot serve is a skipped row, never an entry", () => {
    const read = parse([
      { name: "x", source: null },
      { name: "y", source: "./y" },
    ]);
    expect(read.ok && [read.marketplace.entries.map((e) => e.name), read.marketplace.skipped]).toEqual([
      ["y"],
      [{ entry: "x", reason: "The entry has no source." }],
    ]);
  });

  test("skills and commands keys appear only when given", () => {
    const read = parse([{ name: "plain", source: "./q" }]);
    expect(read.ok && Object.keys(read.marketplace.entries[0] ?? {})).toEqual(["name", "meta", "source", "strict"]);
  });

  test.each([
    { name: "a colon after the first segment is no scheme", source: "./x:y", expect: { kind: "relative", path: "x:y" } },
    {
      name: ". is the marketplace root, whatever pluginRoot says",
      source: ".",
      metadata: { pluginRoot: "./plugins" },
      expect: { kind: "relative", path: "" },
    },
    {
      name: "github: a repo that is a list",
      source: { source: "github", repo: ["o/r"] },
      expect: "Its github source has no repo as owner/name.",
    },
    {
      name: "a scheme must start the URL (no credentials check past it)",
      source: { source: "url", url: "1https://user:pw@github.com/o/r" },
      expect: "Its repository is on 1https, which no declared git source serves.",
    },
    {
      name: "a host must start an scp-style URL",
      source: { source: "url", url: "path/to:repo" },
      expect: "Its repository is on an unknown host, which no declared git source serves.",
    },
  ])("$name", ({ source, metadata, expect: expected }) => {
    expect(sourceOf(source, metadata)).toEqual(expected);
  });

  test.each([
    {
      name: "a source URL without git+ and with git+ inside it",
      url: "https://h.example/git+x",
      entry: "https://h.example/git+x/o/r",
      out: "s://o/r",
    },
    { name: "a source URL with two trailing slashes", url: "git+https://h.example//", entry: "https://h.example/o/r", out: "s://o/r" },
  ])("$name", ({ url, entry, out }) => {
    const sources: SourceConfig[] = [{ name: "s", kind: "git", url, watch: true }];
    const read = parse([{ name: "x", source: { source: "url", url: entry } }], undefined, sources);
    const source = read.ok ? read.marketplace.entries[0]?.source : undefined;
    expect(source?.kind === "git" && source.address.written).toBe(out);
  });
});
