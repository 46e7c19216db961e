// The config's rules one by one, each at its boundary, with the exact message, JSON path and line; and what a valid
// config maps to, compared whole so that a key set or left out by mistake shows.
import path from "node:path";
import { describe, expect, test } from "vitest";
import { parsePluginAddress, type SourceKinds } from "../../src/config/address.js";
import { pickGlobs, withFallbackGlobs } from "../../src/config/globs.js";
import { ConfigInvalidError, loadConfig, parseConfig } from "../../src/config/load.js";
import type { ConfigError } from "../../src/config/types.js";
import { parseDuration, parseSize } from "../../src/config/units.js";
import { formatPointer, parsePointer, parseYaml } from "../../src/config/yaml-doc.js";
import { tempDir } from "../support/temp.js";

const BASE = tempDir("skillshelf-config-rules-");
const FILE = "conf/skillshelf.yaml";
const yaml = (...lines: string[]) => lines.join("\n") + "\n";
const KIT = "plugins: [{name: kit, source: ./kit}]";
const LIB = "libraries: [{name: lib, plugins: [kit]}]";
const ONLY_QUERY = "the only query parameter is ref, as ?ref=<commit, branch or tag>";
const HTTPS_RULE = (what: string) => `the ${what} must be an https:// URL (http:// only on localhost, 127.0.0.1 or [::1])`;

type Row = { name: string; text: string; errors: Omit<ConfigError, "file">[] };
const refused = (rows: Row[]) =>
  test.each(rows)("$name", ({ text, errors }) => {
    expect(parseConfig(text, FILE, BASE)).toStrictEqual({ ok: false, errors: errors.map((e) => ({ file: FILE, ...e })) });
  });
const accepted = (text: string) => {
  const result = parseConfig(text, FILE, BASE);
  if (!result.ok) throw new Error(`refused: ${JSON.stringify(result.errors)}`);
  return result.config;
};

describe("a query that only starts like ref", () => {
  const sources: SourceKinds = new Map([["github", "git"]]);
  test.each(["github://a/b?refs", "github://a/b?ref", "github://a/b?reff=main", "github://a/b?xref=main"])("%s", (written) => {
    expect(parsePluginAddress(written, sources, BASE)).toStrictEqual({ ok: false, rule: ONLY_QUERY });
  });
});

// A number is taken as a number, never through its text: 1e-7 written as text is no size or duration.
describe("sizes and durations given as numbers", () => {
  test.each([
    { value: 1e-7, bytes: 0, ms: 0 },
    { value: 2.5, bytes: 2, ms: 3 },
  ])("$value", ({ value, bytes, ms }) => {
    expect(parseSize(value)).toBe(bytes);
    expect(parseDuration(value)).toBe(ms);
  });
});

describe("glob lists", () => {
  const full = { skills: ["s/*"], prompts: ["p/*"], files: ["f/*"], commands: ["c/*"] };
  test("pickGlobs keeps the four lists and nothing else", () => {
    expect(pickGlobs({ ...full, name: "kit" } as typeof full)).toStrictEqual(full);
  });
  test("pickGlobs leaves an absent list out rather than setting it to undefined", () => {
    expect(pickGlobs({})).toStrictEqual({});
    expect(pickGlobs({ prompts: [] })).toStrictEqual({ prompts: [] });
  });
  test.each([
    { primary: {}, fallback: full, merged: full },
    { primary: full, fallback: {}, merged: full },
    { primary: { skills: ["mine/*"] }, fallback: full, merged: { ...full, skills: ["mine/*"] } },
    {
      primary: { prompts: [], files: ["x"] },
      fallback: { prompts: ["p/*"], commands: ["c/*"] },
      merged: { prompts: [], files: ["x"], commands: ["c/*"] },
    },
    {
      primary: { commands: ["own/*"] },
      fallback: { skills: ["s/*"], commands: ["c/*"] },
      merged: { skills: ["s/*"], commands: ["own/*"] },
    },
  ])("withFallbackGlobs %#", ({ primary, fallback, merged }) => {
    expect(withFallbackGlobs(primary, fallback)).toStrictEqual(merged);
  });
});

describe("JSON Pointers escape '~' and '/' in keys", () => {
  test.each([
    { segments: [], pointer: "/" },
    { segments: ["a/b", 2, "c~d"], pointer: "/a~1b/2/c~0d" },
    { segments: ["~1"], pointer: "/~01" },
    { segments: ["/~"], pointer: "/~1~0" },
  ])("$pointer", ({ segments, pointer }) => {
    expect(formatPointer(segments)).toBe(pointer);
    expect(parsePointer(pointer)).toStrictEqual(segments.map(String));
  });
});

describe("the line of a JSON Pointer", () => {
  const doc = parseYaml(yaml("base: &b", "  x: 1", "  y: 2", "copy: *b", "list:", "  - a", "  - b", "name: kit"));
  test.each([
    { pointer: "/copy/y", line: 3, why: "through an alias, the line where the value is written" },
    { pointer: "/list/1", line: 7 },
    { pointer: "/list/5", line: 5, why: "past the end of a list: the list's own line" },
    { pointer: "/name/x", line: 8, why: "below a scalar: the scalar's line" },
    { pointer: "/base/z", line: 1, why: "a missing key: its mapping's line" },
    { pointer: "/nothing", line: undefined },
  ])("$pointer -> $line", ({ pointer, line }) => {
    expect(doc.lineOf(pointer)).toBe(line);
  });
});

describe("YAML problems are placed at the key they concern", () => {
  test("a duplicate key after another key's block value", () => {
    expect(parseYaml(yaml("a: 1", "b: 2", "a: 3")).problems).toStrictEqual([
      { path: "/a", line: 3, rule: "duplicate key: a key may appear only once in a mapping" },
    ]);
  });
  test.each([
    { text: "x: {a, a}", path: "/x/a", why: "a key without a value, repeated" },
    { text: "{a, b: !x 1}", path: "/b", why: "after a key without a value" },
    { text: "!x\na: 1", path: "/", why: "a tag on the whole document sits before its first key" },
    { text: "x: {? , ? }", path: "/x/null", why: "an empty key, repeated, holds its own offset" },
  ])("$text -> $path", ({ text, path: at }) => {
    expect(parseYaml(text + "\n").problems.map((p) => p.path)).toStrictEqual([at]);
  });
  test("an unknown tag inside the second item of a list", () => {
    expect(parseYaml(yaml("list:", "  - a: 1", "  - b: !x 2")).problems).toStrictEqual([
      { path: "/list/1/b", line: 3, rule: "YAML syntax error: Unresolved tag: !x" },
    ]);
  });
});

describe("reading the file", () => {
  test("a missing file names the error code, never the system's message", async () => {
    const file = path.join(BASE, "missing.yaml");
    const error = await loadConfig(file).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConfigInvalidError);
    expect((error as ConfigInvalidError).name).toBe("ConfigInvalidError");
    expect((error as ConfigInvalidError).errors).toStrictEqual([{ file, path: "/", rule: "cannot read the config file (ENOENT)" }]);
    expect((error as ConfigInvalidError).message).toBe(`${file}: /: cannot read the config file (ENOENT)`);
  });
  test.each(["# only a comment\n", "~\n", "null\n"])("a document that is null (%j) says what is missing", (text) => {
    expect(parseConfig(text, FILE, BASE)).toStrictEqual({
      ok: false,
      errors: [{ file: FILE, path: "/", rule: "missing required key 'libraries'" }],
    });
  });
});

describe("refused configs", () => {
  refused([
    {
      name: "two problems on one line keep the order they were found in",
      text: yaml('sources: [{name: file, url: "file://server/x"}]', KIT, LIB),
      errors: [
        { path: "/sources/0/name", line: 1, rule: "'file' is reserved: file:// addresses are local folders" },
        { path: "/sources/0/url", line: 1, rule: "a file URL is an absolute path, as file:///path" },
      ],
    },
    {
      name: "problems found out of line order are listed by line",
      text: yaml(KIT, "libraries: [{name: lib, plugins: [kits]}]", 'sources: [{name: gh, url: "https://github.com"}]'),
      errors: [
        { path: "/libraries/0/plugins/0", line: 2, rule: "no plugin named 'kits' is declared; the plugins are: kit" },
        {
          path: "/sources/0/url",
          line: 3,
          rule: "a source URL starts with git+https://, git+http://, git+file://, file://, webdav+https:// or webdav+http://",
        },
      ],
    },
    {
      name: "a file URL of the root alone",
      text: yaml('sources: [{name: disk, url: "file:///"}]', KIT, LIB),
      errors: [{ path: "/sources/0/url", line: 1, rule: "a file URL is an absolute path, as file:///path" }],
    },
    {
      name: "a file URL with nothing after ://",
      text: yaml('sources: [{name: disk, url: "file://"}]', KIT, LIB),
      errors: [{ path: "/sources/0/url", line: 1, rule: "a file URL is an absolute path, as file:///path" }],
    },
    {
      name: "a git+file URL of the root alone",
      text: yaml('sources: [{name: disk, url: "git+file:///"}]', KIT, LIB),
      errors: [{ path: "/sources/0/url", line: 1, rule: "a git+file URL is an absolute path, as git+file:///path" }],
    },
    {
      name: "a plugin pinning a ref on a source whose URL was refused reports the URL only",
      text: yaml('sources: [{name: gh, url: "https://github.com"}]', 'plugins: [{name: kit, source: "gh://a/b?ref=main"}]', LIB),
      errors: [
        {
          path: "/sources/0/url",
          line: 1,
          rule: "a source URL starts with git+https://, git+http://, git+file://, file://, webdav+https:// or webdav+http://",
        },
      ],
    },
    {
      name: "a source address when no source is declared",
      text: yaml('plugins: [{name: kit, source: "gh://a/b"}]', LIB),
      errors: [{ path: "/plugins/0/source", line: 1, rule: "names source 'gh', which is not declared; no sources are declared" }],
    },
    {
      name: "a library naming a plugin when none is declared",
      text: yaml(LIB),
      errors: [{ path: "/libraries/0/plugins/0", line: 1, rule: "no plugin named 'kit' is declared; no plugins are declared" }],
    },
    {
      name: "a library with no plugins key, no source and no selector",
      text: yaml(KIT, "libraries: [{name: lib}]"),
      errors: [{ path: "/libraries/0", line: 2, rule: "a library needs at least one of source, plugins (not empty) or pluginSelector" }],
    },
    {
      name: "a size too large to count in bytes",
      text: yaml(KIT, LIB, "limits: {fileBytes: 99999999999GiB}"),
      errors: [{ path: "/limits/fileBytes", line: 3, rule: "is too large" }],
    },
    {
      name: "a ttl one millisecond over the longest timer",
      text: yaml(KIT, LIB, "ttl: 2147483648"),
      errors: [{ path: "/ttl", line: 3, rule: "must be at most 2147483647 ms (about 24.8 days)" }],
    },
    {
      name: "a source refresh one millisecond over the longest timer",
      text: yaml("sources: [{name: gh, url: git+https://github.com, refresh: 2147483648}]", KIT, LIB),
      errors: [{ path: "/sources/0/refresh", line: 1, rule: "must be at most 2147483647 ms (about 24.8 days)" }],
    },
  ]);
});

describe("valid configs map whole", () => {
  test("a ttl of exactly the longest timer", () => {
    expect(accepted(yaml(KIT, LIB, "ttl: 2147483647")).ttlMs).toBe(2147483647);
  });

  test("naming and conflicts are kept where written and absent elsewhere", () => {
    const config = accepted(
      yaml(
        "plugins: [{name: kit, source: ./kit, naming: strict}, {name: other, source: ./other}]",
        "libraries: [{name: lib, plugins: [kit], naming: lenient, conflicts: drop-plugin}, {name: ops, plugins: [other]}]",
      ),
    );
    expect(config.plugins).toStrictEqual([
      {
        name: "kit",
        address: { kind: "local", abs: path.join(BASE, "kit"), written: "./kit" },
        description: "",
        tags: [],
        keywords: [],
        dialect: "auto",
        watch: true,
        naming: "strict",
      },
      {
        name: "other",
        address: { kind: "local", abs: path.join(BASE, "other"), written: "./other" },
        description: "",
        tags: [],
        keywords: [],
        dialect: "auto",
        watch: true,
      },
    ]);
    expect(config.libraries).toStrictEqual([
      { name: "lib", description: "", plugins: ["kit"], naming: "lenient", conflicts: "drop-plugin" },
      { name: "ops", description: "", plugins: ["other"] },
    ]);
  });

  test("a WebDAV source reads a snapshot unless it asks for live; other sources have no cache", () => {
    const auth = "auth: {username: bot, password: {env: DAV_PASSWORD}}";
    const config = accepted(
      yaml(
        "sources:",
        `  - {name: team, url: "webdav+https://cloud.example/dav", ${auth}}`,
        `  - {name: live, url: "webdav+https://cloud.example/dav", cache: live, ${auth}}`,
        "  - {name: gh, url: git+https://github.com}",
        KIT,
        LIB,
      ),
    );
    const password = { env: "DAV_PASSWORD" };
    expect(config.sources).toStrictEqual([
      {
        name: "team",
        kind: "webdav",
        url: "webdav+https://cloud.example/dav",
        auth: { username: "bot", password },
        watch: true,
        cache: "snapshot",
      },
      {
        name: "live",
        kind: "webdav",
        url: "webdav+https://cloud.example/dav",
        auth: { username: "bot", password },
        watch: true,
        cache: "live",
      },
      { name: "gh", kind: "git", url: "git+https://github.com", watch: true },
    ]);
  });

  test("anonymous: false stands when a client can still call", () => {
    const config = accepted(yaml(KIT, LIB, "clients: [{name: bot, token: {env: BOT_TOKEN}}]", "anonymous: false"));
    expect(config.anonymous).toBe(false);
  });

  test("anonymous: true stands beside clients", () => {
    const config = accepted(yaml(KIT, LIB, "clients: [{name: bot, token: {env: BOT_TOKEN}}]", "anonymous: true"));
    expect(config.anonymous).toBe(true);
  });
});

describe("the oauth section", () => {
  const head = [KIT, "libraries: [{name: eng, plugins: [kit]}, {name: ops, plugins: [kit]}]", "oauth:"];
  const ISSUER = "  issuer: https://login.example.com/realms/eng";
  const RESOURCE = "  resource: https://skills.example.com/mcp";
  const parse = (...lines: string[]) => parseConfig(yaml(...head, ...lines), FILE, BASE);

  test.each([
    { url: "https://login.example.com", ok: true },
    { url: "http://localhost:8080/realms/eng", ok: true },
    { url: "http://127.0.0.1/realms/eng", ok: true },
    { url: "http://[::1]:9000", ok: true },
    { url: "http://example.com", rule: HTTPS_RULE("issuer") },
    { url: "http://localhost.example.com", rule: HTTPS_RULE("issuer") },
    { url: "ftp://localhost/x", rule: HTTPS_RULE("issuer") },
    { url: "ws://127.0.0.1/x", rule: HTTPS_RULE("issuer") },
    { url: "https://bot:secret@login.example.com", rule: "the issuer must not carry userinfo (user:password@)" },
    { url: "https://bot@login.example.com", rule: "the issuer must not carry userinfo (user:password@)" },
    { url: "https://:secret@login.example.com", rule: "the issuer must not carry userinfo (user:password@)" },
    { url: "https://login.example.com/?realm=eng", rule: "the issuer takes no query (?) or fragment (#)" },
    { url: "https://login.example.com/#eng", rule: "the issuer takes no query (?) or fragment (#)" },
    { url: "login.example.com", rule: "the issuer must be an absolute URL" },
  ])("issuer $url", ({ url, ok, rule }) => {
    const result = parse(`  issuer: "${url}"`, RESOURCE);
    if (ok === true) expect(result.ok && result.config.oauth?.issuer).toBe(url);
    else expect(result).toStrictEqual({ ok: false, errors: [{ file: FILE, path: "/oauth/issuer", line: 4, rule }] });
  });

  test("an introspection endpoint is checked like the issuer and kept", () => {
    const secret = "clientSecret: {env: RS_SECRET}";
    const given = parse(ISSUER, RESOURCE, `  introspection: {endpoint: "https://login.example.com/introspect", clientId: rs, ${secret}}`);
    expect(given.ok && given.config.oauth?.introspection).toStrictEqual({
      endpoint: "https://login.example.com/introspect",
      clientId: "rs",
      clientSecret: { env: "RS_SECRET" },
    });
    const absent = parse(ISSUER, RESOURCE, `  introspection: {clientId: rs, ${secret}}`);
    expect(absent.ok && absent.config.oauth?.introspection).toStrictEqual({ clientId: "rs", clientSecret: { env: "RS_SECRET" } });
    const bad = parse(ISSUER, RESOURCE, `  introspection: {endpoint: "http://login.example.com/introspect", clientId: rs, ${secret}}`);
    expect(bad).toStrictEqual({
      ok: false,
      errors: [{ file: FILE, path: "/oauth/introspection/endpoint", line: 6, rule: HTTPS_RULE("endpoint") }],
    });
  });

  test("the page and the default ceiling are kept in the typed config", () => {
    const result = parse(ISSUER, RESOURCE, "  page: {clientId: page}", "  default: {library: ops}");
    expect(result.ok && result.config.oauth).toStrictEqual({
      issuer: "https://login.example.com/realms/eng",
      resource: "https://skills.example.com/mcp",
      audiences: [],
      algorithms: expect.any(Array) as unknown,
      clockSkewMs: 30_000,
      scopes: [],
      page: { clientId: "page", redirect: "https://skills.example.com/signin/oidc/callback" },
      rules: [],
      defaultScope: { library: "ops" },
    });
  });

  test("without a page, a default, introspection or audiences, none is set", () => {
    const result = parse(ISSUER, RESOURCE, "  algorithms: [ES256]");
    expect(result.ok && result.config.oauth).toStrictEqual({
      issuer: "https://login.example.com/realms/eng",
      resource: "https://skills.example.com/mcp",
      audiences: [],
      algorithms: ["ES256"],
      clockSkewMs: 30_000,
      scopes: [],
      rules: [],
    });
  });

  test("a clock skew of exactly 5m is the longest accepted", () => {
    const result = parse(ISSUER, RESOURCE, "  clockSkew: 5m");
    expect(result.ok && result.config.oauth?.clockSkewMs).toBe(300_000);
  });

  test("a page beside an unreadable resource reports the resource only", () => {
    expect(parse(ISSUER, "  resource: not a url", "  page: {clientId: page}")).toStrictEqual({
      ok: false,
      errors: [{ file: FILE, path: "/oauth/resource", line: 5, rule: "the resource must be an absolute URL" }],
    });
  });

  test("a default ceiling naming two libraries", () => {
    expect(parse(ISSUER, RESOURCE, "  default: {libraries: [eng, ops]}")).toStrictEqual({
      ok: false,
      errors: [{ file: FILE, path: "/oauth/default/libraries", line: 6, rule: "the default ceiling names one library at most" }],
    });
  });

  test("a grant with an empty libraries list", () => {
    expect(parse(ISSUER, RESOURCE, "  rules: [{claim: groups, includes: eng, scope: {libraries: []}}]")).toStrictEqual({
      ok: false,
      errors: [
        {
          file: FILE,
          path: "/oauth/rules/0/scope/libraries",
          line: 6,
          rule: "must list at least 1 (leave it out to grant every library)",
        },
      ],
    });
  });
});
