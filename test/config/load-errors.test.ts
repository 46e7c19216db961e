import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { expect, test } from "vitest";
import { tempDir } from "../support/temp.js";
import { ConfigInvalidError, formatConfigErrors, loadConfig, parseConfig } from "../../src/config/load.js";
import type { ConfigError } from "../../src/config/types.js";

// Rules written out word for word (not imported), so a changed message fails here.
const DURATION_RULE = "must be a duration: a number of milliseconds, or a number with a unit ms, s, m, h or d (500ms, 60s, 1h)";
const ENV_RULE = "must be an environment variable name: letters, digits and '_', not starting with a digit";
const NAME_RULE = "must be a name: 1-64 characters of a-z, 0-9 and '-', not starting or ending with '-'";
const SECRET_RULE = "must be {env: NAME}: secrets are read from the environment, never written in the file";
const SIZE_RULE = "must be a size: a number of bytes, or a number with a unit B, KiB, MiB, GiB, kB, MB or GB (512KiB, 8MiB)";
const ANONYMOUS_RULE = "must be true, false, or {scope: {library, categories, tags}} (a ceiling for requests without a token)";
const BASE = tempDir("skillshelf-config-errors-");
const FILE = "conf/plugins.yaml";
const yaml = (...lines: string[]) => lines.join("\n") + "\n";
/** A valid tail so that rows reach the checks after the schema. */
const LIB = "libraries: [{name: lib, plugins: [kit]}]";
const KIT = "plugins: [{name: kit, source: ./kit}]";
const GH = "sources: [{name: gh, url: git+https://github.com}]";

type Row = { name: string; text: string; errors: Omit<ConfigError, "file">[] };

const rows: Row[] = [
  // ── YAML ──
  {
    name: "YAML syntax error",
    text: yaml(KIT, "libraries:", "  - name: lib", "    plugins: [kit", "other: 1"),
    errors: [
      { path: "/", line: 5, rule: "YAML syntax error: Flow sequence in block collection must be sufficiently indented and end with a ]" },
    ],
  },
  {
    name: "duplicate YAML key",
    text: yaml(KIT, "libraries:", "  - name: lib", "    plugins: [kit]", "    name: other"),
    errors: [{ path: "/libraries/0/name", line: 5, rule: "duplicate key: a key may appear only once in a mapping" }],
  },
  {
    name: "unknown YAML tag",
    text: yaml(KIT, LIB, "ttl: !duration 60s"),
    errors: [{ path: "/ttl", line: 3, rule: "YAML syntax error: Unresolved tag: !duration" }],
  },
  {
    name: "unresolved alias",
    text: yaml(KIT, "libraries: [{name: lib, plugins: *kits}]"),
    errors: [{ path: "/", rule: "YAML: Unresolved alias (the anchor must be set before the alias): kits" }],
  },
  {
    name: "two documents",
    text: yaml(KIT, LIB, "---", LIB),
    errors: [{ path: "/", line: 3, rule: "YAML syntax error: Source contains multiple documents; please use YAML.parseAllDocuments()" }],
  },
  // ── schema ──
  { name: "empty file", text: "", errors: [{ path: "/", rule: "missing required key 'libraries'" }] },
  { name: "not a mapping", text: yaml("- a"), errors: [{ path: "/", rule: "must be a mapping" }] },
  {
    name: "unknown top-level key",
    text: yaml(KIT, LIB, "libary: []"),
    errors: [
      {
        path: "/libary",
        line: 3,
        rule: "unknown key 'libary'; the keys here are: sources, plugins, libraries, clients, anonymous, oauth, feeds, usage, guard, ttl, limits",
      },
    ],
  },
  {
    name: "unknown plugin key",
    text: yaml("plugins:", "  - name: kit", "    source: ./kit", "    skill: [x]", LIB),
    errors: [
      {
        path: "/plugins/0/skill",
        line: 4,
        rule: "unknown key 'skill'; the keys here are: name, source, description, category, tags, keywords, version, skills, prompts, files, dialect, watch, naming",
      },
    ],
  },
  { name: "no libraries", text: yaml(KIT, "libraries: []"), errors: [{ path: "/libraries", line: 2, rule: "must list at least 1" }] },
  {
    name: "missing plugin source",
    text: yaml("plugins: [{name: kit}]", LIB),
    errors: [{ path: "/plugins/0", line: 1, rule: "missing required key 'source'" }],
  },
  {
    name: "bad library name",
    text: yaml(KIT, "libraries: [{name: Lib, plugins: [kit]}]"),
    errors: [{ path: "/libraries/0/name", line: 2, rule: NAME_RULE }],
  },
  {
    name: "bad plugin name",
    text: yaml("plugins: [{name: -kit, source: ./kit}]", LIB),
    errors: [{ path: "/plugins/0/name", line: 1, rule: NAME_RULE }],
  },
  {
    name: "bad source name",
    text: yaml("sources: [{name: git_hub, url: git+https://github.com}]", KIT, LIB),
    errors: [{ path: "/sources/0/name", line: 1, rule: NAME_RULE }],
  },
  {
    name: "bad client name",
    text: yaml(KIT, LIB, "clients: [{name: Bot, token: {env: T}}]"),
    errors: [{ path: "/clients/0/name", line: 3, rule: NAME_RULE }],
  },
  {
    name: "name over 64 characters",
    text: yaml(KIT, `libraries: [{name: ${"a".repeat(65)}, plugins: [kit]}]`),
    errors: [{ path: "/libraries/0/name", line: 2, rule: NAME_RULE }],
  },
  {
    name: "bad library plugin entry",
    text: yaml(KIT, "libraries: [{name: lib, plugins: [kit@]}]"),
    errors: [{ path: "/libraries/0/plugins/0", line: 2, rule: "must be a plugin name, or <entry>@<library> for a marketplace entry" }],
  },
  {
    name: "anonymous: yes",
    text: yaml(KIT, LIB, "anonymous: yes"),
    errors: [{ path: "/anonymous", line: 3, rule: ANONYMOUS_RULE }],
  },
  {
    name: "anonymous: a list",
    text: yaml(KIT, LIB, "anonymous: [lib]"),
    errors: [{ path: "/anonymous", line: 3, rule: ANONYMOUS_RULE }],
  },
  {
    name: "anonymous ceiling without its scope key",
    text: yaml(KIT, LIB, "anonymous: {library: lib}"),
    errors: [
      { path: "/anonymous", line: 3, rule: "missing required key 'scope'" },
      { path: "/anonymous/library", line: 3, rule: "unknown key 'library'; the keys here are: scope" },
    ],
  },
  {
    name: "anonymous ceiling with an unknown scope key",
    text: yaml(KIT, LIB, "anonymous: {scope: {libary: lib}}"),
    errors: [{ path: "/anonymous/scope/libary", line: 3, rule: "unknown key 'libary'; the keys here are: library, categories, tags" }],
  },
  {
    name: "anonymous ceiling with a bad tag selector",
    text: yaml(KIT, LIB, 'anonymous: {scope: {tags: ["a,,b"]}}'),
    errors: [
      { path: "/anonymous/scope/tags/0", line: 3, rule: "must be tags separated by commas (a plugin must carry all of them), none empty" },
    ],
  },
  {
    name: "bad dialect",
    text: yaml("plugins: [{name: kit, source: ./kit, dialect: cursor}]", LIB),
    errors: [{ path: "/plugins/0/dialect", line: 1, rule: "must be one of: auto, skillshelf, claude, copilot" }],
  },
  {
    name: "unknown conflict rule",
    text: yaml(KIT, "libraries: [{name: lib, plugins: [kit], conflicts: keep-last}]"),
    errors: [{ path: "/libraries/0/conflicts", line: 2, rule: "must be one of: keep-first, drop-plugin" }],
  },
  { name: "ttl without unit in a string", text: yaml(KIT, LIB, "ttl: 1 hour"), errors: [{ path: "/ttl", line: 3, rule: DURATION_RULE }] },
  { name: "negative ttl", text: yaml(KIT, LIB, "ttl: -5"), errors: [{ path: "/ttl", line: 3, rule: "must be at least 0" }] },
  {
    name: "ttl too long",
    text: yaml(KIT, LIB, "ttl: 30d"),
    errors: [{ path: "/ttl", line: 3, rule: "must be at most 2147483647 ms (about 24.8 days)" }],
  },
  {
    name: "bad size",
    text: yaml(KIT, LIB, "limits: {fileBytes: 8 megabytes}"),
    errors: [{ path: "/limits/fileBytes", line: 3, rule: SIZE_RULE }],
  },
  {
    name: "size zero",
    text: yaml(KIT, LIB, "limits: {fileBytes: 0}"),
    errors: [{ path: "/limits/fileBytes", line: 3, rule: "must be at least 1" }],
  },
  {
    name: "size zero with a unit",
    text: yaml(KIT, LIB, "limits: {fileBytes: 0KiB}"),
    errors: [{ path: "/limits/fileBytes", line: 3, rule: "must be at least 1 byte" }],
  },
  {
    name: "unknown limit",
    text: yaml(KIT, LIB, "limits: {files: 3}"),
    errors: [{ path: "/limits/files", line: 3, rule: "unknown key 'files'; the keys here are: fileBytes" }],
  },
  {
    name: "a token written in the file",
    text: yaml(KIT, LIB, "clients: [{name: bot, token: s3cr3t-value}]"),
    errors: [{ path: "/clients/0/token", line: 3, rule: SECRET_RULE }],
  },
  {
    name: "a password written in the file",
    text: yaml("sources: [{name: gh, url: git+https://github.com, auth: {password: s3cr3t-value}}]", KIT, LIB),
    errors: [{ path: "/sources/0/auth/password", line: 1, rule: SECRET_RULE }],
  },
  {
    name: "bad env name",
    text: yaml(KIT, LIB, "clients: [{name: bot, token: {env: 1TOKEN}}]"),
    errors: [{ path: "/clients/0/token/env", line: 3, rule: ENV_RULE }],
  },
  {
    name: "username neither string nor {env}",
    text: yaml("sources: [{name: gh, url: git+https://github.com, auth: {username: [a]}}]", KIT, LIB),
    errors: [{ path: "/sources/0/auth/username", line: 1, rule: "must be a user name, or {env: NAME}" }],
  },
  {
    name: "number-like version",
    text: yaml("plugins: [{name: kit, source: ./kit, version: 1.0}]", LIB),
    errors: [{ path: "/plugins/0/version", line: 1, rule: 'must be a non-empty string; quote a number-like version ("1.0")' }],
  },
  {
    name: "tag with a comma",
    text: yaml('plugins: [{name: kit, source: ./kit, tags: ["a,b"]}]', LIB),
    errors: [{ path: "/plugins/0/tags/0", line: 1, rule: "must be a tag: no comma, no leading or trailing space" }],
  },
  {
    name: "selector item with an empty part",
    text: yaml(KIT, 'libraries: [{name: lib, pluginSelector: {tags: ["a,,b"]}}]'),
    errors: [
      {
        path: "/libraries/0/pluginSelector/tags/0",
        line: 2,
        rule: "must be tags separated by commas (a plugin must carry all of them), none empty",
      },
    ],
  },
  {
    name: "empty glob",
    text: yaml('plugins: [{name: kit, source: ./kit, skills: [""]}]', LIB),
    errors: [{ path: "/plugins/0/skills/0", line: 1, rule: "must not be empty" }],
  },
  // ── names, addresses, globs, URLs ──
  {
    name: "duplicate source names",
    text: yaml("sources:", "  - {name: gh, url: git+https://github.com}", "  - {name: gh, url: git+https://example.com}", KIT, LIB),
    errors: [{ path: "/sources/1/name", line: 3, rule: "duplicate source name 'gh'; the first is /sources/0" }],
  },
  {
    name: "duplicate plugin names",
    text: yaml("plugins:", "  - {name: kit, source: ./kit}", "  - {name: kit, source: ./kit2}", LIB),
    errors: [{ path: "/plugins/1/name", line: 3, rule: "duplicate plugin name 'kit'; the first is /plugins/0" }],
  },
  {
    name: "duplicate library names",
    text: yaml(KIT, "libraries:", "  - {name: lib, plugins: [kit]}", "  - {name: lib, plugins: [kit]}"),
    errors: [{ path: "/libraries/1/name", line: 4, rule: "duplicate library name 'lib'; the first is /libraries/0" }],
  },
  {
    name: "duplicate client names",
    text: yaml(KIT, LIB, "clients:", "  - {name: bot, token: {env: A}}", "  - {name: bot, token: {env: B}}"),
    errors: [{ path: "/clients/1/name", line: 5, rule: "duplicate client name 'bot'; the first is /clients/0" }],
  },
  {
    name: "absolute glob",
    text: yaml('plugins: [{name: kit, source: ./kit, skills: ["/etc/*"]}]', LIB),
    errors: [{ path: "/plugins/0/skills/0", line: 1, rule: "a glob is relative to the plugin root, never absolute" }],
  },
  {
    name: "glob with ..",
    text: yaml("plugins:", "  - name: kit", "    source: ./kit", '    files: [ok/**, "docs/../../x/*"]', LIB),
    errors: [{ path: "/plugins/0/files/1", line: 4, rule: "a glob must not contain a '..' segment" }],
  },
  {
    name: "unparseable glob",
    text: yaml('plugins: [{name: kit, source: ./kit, prompts: ["prompts/[a-z.md"]}]', LIB),
    errors: [
      {
        path: "/plugins/0/prompts/0",
        line: 1,
        rule: 'is not a valid glob: Missing closing: "]" - use "\\\\]" to match literal characters',
      },
    ],
  },
  {
    name: "plugin naming a missing source",
    text: yaml(GH, 'plugins: [{name: kit, source: "gitlab://team/kit?ref=main"}]', LIB),
    errors: [{ path: "/plugins/0/source", line: 2, rule: "names source 'gitlab', which is not declared; the sources are: gh" }],
  },
  {
    name: "plugin address with ..",
    text: yaml(GH, 'plugins: [{name: kit, source: "gh://team/kit//../x"}]', LIB),
    errors: [{ path: "/plugins/0/source", line: 2, rule: "the subdirectory must not contain '.' or '..' segments" }],
  },
  {
    name: "ref on a file source",
    text: yaml('sources: [{name: disk, url: "file:///skills"}]', 'plugins: [{name: kit, source: "disk://kit?ref=main"}]', LIB),
    errors: [{ path: "/plugins/0/source", line: 2, rule: "?ref= needs a git source, and 'disk' is a file source" }],
  },
  {
    name: "library source address",
    text: yaml(GH, KIT, 'libraries: [{name: lib, source: "gh://o/r?ref=a&x=1"}]'),
    errors: [{ path: "/libraries/0/source", line: 3, rule: "the only query parameter is ref, as ?ref=<commit, branch or tag>" }],
  },
  {
    name: "library naming a missing plugin",
    text: yaml(KIT, "libraries: [{name: lib, plugins: [kit, kits]}]"),
    errors: [{ path: "/libraries/0/plugins/1", line: 2, rule: "no plugin named 'kits' is declared; the plugins are: kit" }],
  },
  {
    name: "library naming a plugin twice",
    text: yaml(KIT, "libraries: [{name: lib, plugins: [kit, kit]}]"),
    errors: [{ path: "/libraries/0/plugins/1", line: 2, rule: "plugin 'kit' is already listed at /libraries/0/plugins/0" }],
  },
  {
    name: "marketplace entry of a missing library",
    text: yaml(KIT, "libraries: [{name: lib, plugins: [kit, loki@grafana]}]"),
    errors: [
      {
        path: "/libraries/0/plugins/1",
        line: 2,
        rule: "no library named 'grafana' is declared, so 'loki@grafana' names no marketplace entry",
      },
    ],
  },
  {
    name: "marketplace entry of a library without source",
    text: yaml(KIT, "libraries:", "  - {name: lib, plugins: [kit]}", "  - {name: ops, plugins: [kit, loki@lib]}"),
    errors: [{ path: "/libraries/1/plugins/1", line: 4, rule: "library 'lib' has no source (marketplace), so 'loki@lib' names no entry" }],
  },
  {
    name: "library with nothing to serve",
    text: yaml(KIT, "libraries:", "  - name: lib", "    plugins: []"),
    errors: [{ path: "/libraries/0", line: 3, rule: "a library needs at least one of source, plugins (not empty) or pluginSelector" }],
  },
  {
    name: "source URL of another kind",
    text: yaml('sources: [{name: gh, url: "https://github.com"}]', KIT, LIB),
    errors: [
      {
        path: "/sources/0/url",
        line: 1,
        rule: "a source URL starts with git+https://, git+http://, git+file://, file://, webdav+https:// or webdav+http://",
      },
    ],
  },
  {
    name: "source URL over ssh",
    text: yaml('sources: [{name: gh, url: "git+ssh://git@github.com"}]', KIT, LIB),
    errors: [
      {
        path: "/sources/0/url",
        line: 1,
        rule: "a source URL starts with git+https://, git+http://, git+file://, file://, webdav+https:// or webdav+http://",
      },
    ],
  },
  {
    name: "source URL with userinfo",
    text: yaml('sources: [{name: gh, url: "git+https://bot:s3cr3t-value@github.com"}]', KIT, LIB),
    errors: [
      {
        path: "/sources/0/url",
        line: 1,
        rule: "a source URL must not carry userinfo (user:password@); give credentials in auth as {env: NAME}",
      },
    ],
  },
  {
    name: "source URL without a host",
    text: yaml('sources: [{name: gh, url: "git+https:///x"}]', KIT, LIB),
    errors: [{ path: "/sources/0/url", line: 1, rule: "a git+https URL names a host, as git+https://host" }],
  },
  {
    name: "file source URL with a host",
    text: yaml('sources: [{name: disk, url: "file://server/skills"}]', KIT, LIB),
    errors: [{ path: "/sources/0/url", line: 1, rule: "a file URL is an absolute path, as file:///path" }],
  },
  {
    name: "source URL with a query",
    text: yaml('sources: [{name: gh, url: "git+https://github.com/?token=1"}]', KIT, LIB),
    errors: [{ path: "/sources/0/url", line: 1, rule: "a source URL takes no query (?) or fragment (#)" }],
  },
  {
    name: "source named file",
    text: yaml('sources: [{name: file, url: "file:///skills"}]', KIT, LIB),
    errors: [{ path: "/sources/0/name", line: 1, rule: "'file' is reserved: file:// addresses are local folders" }],
  },
  {
    name: "refresh and auth on a file source",
    text: yaml('sources: [{name: disk, url: "file:///skills", refresh: 1h, auth: {username: x}}]', KIT, LIB),
    errors: [
      { path: "/sources/0/refresh", line: 1, rule: "applies to git and WebDAV sources only" },
      { path: "/sources/0/auth", line: 1, rule: "applies to git and WebDAV sources only" },
    ],
  },
  // ── WebDAV sources ──
  {
    name: "WebDAV source without auth",
    text: yaml("sources:", "  - name: team", '    url: "webdav+https://cloud.example/remote.php/dav/files/bot"', KIT, LIB),
    errors: [{ path: "/sources/0", line: 2, rule: "source 'team' is a WebDAV source and needs auth: {username, password: {env: NAME}}" }],
  },
  {
    name: "WebDAV source without a user name or a password",
    text: yaml(
      'sources: [{name: team, url: "webdav+http://cloud.example/dav", auth: {password: {env: DAV_PASSWORD}}},',
      '          {name: other, url: "webdav+http://cloud.example/dav", auth: {username: {env: DAV_USER}}}]',
      KIT,
      LIB,
    ),
    errors: [
      { path: "/sources/0/auth", line: 1, rule: "source 'team' is a WebDAV source and needs auth.username" },
      { path: "/sources/1/auth", line: 2, rule: "source 'other' is a WebDAV source and needs auth.password as {env: NAME}" },
    ],
  },
  {
    name: "WebDAV password written in the file",
    text: yaml('sources: [{name: team, url: "webdav+https://cloud.example/dav", auth: {username: bot, password: s3cr3t-value}}]', KIT, LIB),
    errors: [{ path: "/sources/0/auth/password", line: 1, rule: SECRET_RULE }],
  },
  {
    name: "WebDAV URL with userinfo",
    text: yaml(
      'sources: [{name: team, url: "webdav+https://bot:s3cr3t-value@cloud.example/dav", auth: {username: bot, password: {env: P}}}]',
      KIT,
      LIB,
    ),
    errors: [
      {
        path: "/sources/0/url",
        line: 1,
        rule: "a source URL must not carry userinfo (user:password@); give credentials in auth as {env: NAME}",
      },
    ],
  },
  {
    name: "ref on a WebDAV address",
    text: yaml(
      'sources: [{name: team, url: "webdav+https://cloud.example/dav", auth: {username: bot, password: {env: P}}}]',
      'plugins: [{name: kit, source: "team://skills/kit?ref=main"}]',
      LIB,
    ),
    errors: [{ path: "/plugins/0/source", line: 2, rule: "?ref= needs a git source, and 'team' is a WebDAV source" }],
  },
  {
    name: "cache on a git or file source",
    text: yaml(
      "sources:",
      '  - {name: gh, url: "git+https://github.com", cache: live}',
      '  - {name: disk, url: "file:///skills", cache: snapshot}',
      KIT,
      LIB,
    ),
    errors: [
      { path: "/sources/0/cache", line: 2, rule: "applies to WebDAV sources only, and 'gh' is a git source" },
      { path: "/sources/1/cache", line: 3, rule: "applies to WebDAV sources only, and 'disk' is a file source" },
    ],
  },
  {
    name: "cache of another value",
    text: yaml(
      'sources: [{name: team, url: "webdav+https://cloud.example/dav", auth: {username: bot, password: {env: P}}, cache: always}]',
      KIT,
      LIB,
    ),
    errors: [{ path: "/sources/0/cache", line: 1, rule: "must be one of: snapshot, live" }],
  },
  {
    name: "refresh of zero",
    text: yaml("sources: [{name: gh, url: git+https://github.com, refresh: 0s}]", KIT, LIB),
    errors: [{ path: "/sources/0/refresh", line: 1, rule: "must be more than 0" }],
  },
  {
    name: "client scope naming a missing library",
    text: yaml(KIT, LIB, "clients: [{name: bot, token: {env: T}, scope: {library: support}}]"),
    errors: [{ path: "/clients/0/scope/library", line: 3, rule: "no library named 'support' is declared; the libraries are: lib" }],
  },
  {
    name: "two clients on one token",
    text: yaml(KIT, LIB, "clients:", "  - {name: a, token: {env: T}}", "  - {name: b, token: {env: T}}"),
    errors: [{ path: "/clients/1/token/env", line: 5, rule: "client 'a' already uses this variable: a token identifies one client" }],
  },
  {
    name: "anonymous ceiling naming a missing library",
    text: yaml(KIT, LIB, "anonymous: {scope: {library: support}}"),
    errors: [{ path: "/anonymous/scope/library", line: 3, rule: "no library named 'support' is declared; the libraries are: lib" }],
  },
  {
    name: "anonymous false without clients",
    text: yaml(KIT, LIB, "anonymous: false"),
    errors: [
      {
        path: "/anonymous",
        line: 3,
        rule: "must not be false when no clients and no oauth issuer are declared: every request would be refused",
      },
    ],
  },
  {
    name: "every error at once, in document order",
    text: yaml(
      'sources: [{name: gh, url: "https://github.com"}]',
      "plugins:",
      '  - {name: kit, source: ./kit, skills: ["../x"]}',
      "  - {name: kit, source: ./kit}",
      "libraries: [{name: lib, plugins: [nope]}]",
    ),
    errors: [
      {
        path: "/sources/0/url",
        line: 1,
        rule: "a source URL starts with git+https://, git+http://, git+file://, file://, webdav+https:// or webdav+http://",
      },
      { path: "/plugins/0/skills/0", line: 3, rule: "a glob must not contain a '..' segment" },
      { path: "/plugins/1/name", line: 4, rule: "duplicate plugin name 'kit'; the first is /plugins/0" },
      { path: "/libraries/0/plugins/0", line: 5, rule: "no plugin named 'nope' is declared; the plugins are: kit" },
    ],
  },
];

test.each(rows)("$name", ({ text, errors }) => {
  expect(parseConfig(text, FILE, BASE)).toStrictEqual({ ok: false, errors: errors.map((e) => ({ file: FILE, ...e })) });
});

test("no error names an absolute path or a secret value", () => {
  const secrets = [BASE, pathToFileURL(BASE).href, "s3cr3t-value"];
  for (const { text } of rows) {
    const result = parseConfig(text.replaceAll("./kit", BASE + "/kit"), FILE, BASE);
    const shown = result.ok ? "" : formatConfigErrors(result.errors);
    for (const s of secrets) expect(shown).not.toContain(s);
  }
});

test("formatConfigErrors prints file:line: path: rule", () => {
  expect(
    formatConfigErrors([
      { file: FILE, path: "/plugins/2/skills/0", line: 9, rule: "a glob must not contain a '..' segment" },
      { file: FILE, path: "/", rule: "missing required key 'libraries'" },
    ]),
  ).toBe(`${FILE}:9: /plugins/2/skills/0: a glob must not contain a '..' segment\n${FILE}: /: missing required key 'libraries'`);
});

test("loadConfig throws the errors as values, naming the file as given", async () => {
  const dir = tempDir("skillshelf-load-errors-");
  const bad = path.join(dir, "bad.yaml");
  fs.writeFileSync(bad, yaml(KIT, "libraries: []"));
  const error = await loadConfig(bad).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ConfigInvalidError);
  expect((error as ConfigInvalidError).errors).toStrictEqual([{ file: bad, path: "/libraries", line: 2, rule: "must list at least 1" }]);
  expect((error as ConfigInvalidError).message).toBe(`${bad}:2: /libraries: must list at least 1`);
});

test("loadConfig on a missing file names the error code, not the resolved path", async () => {
  const cwd = process.cwd();
  const dir = tempDir("skillshelf-load-missing-");
  process.chdir(dir);
  try {
    const error = await loadConfig("missing.yaml").catch((e: unknown) => e);
    expect((error as ConfigInvalidError).errors).toStrictEqual([
      { file: "missing.yaml", path: "/", rule: "cannot read the config file (ENOENT)" },
    ]);
  } finally {
    process.chdir(cwd);
  }
});
