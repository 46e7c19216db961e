import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, test } from "vitest";
import { tempDir } from "../support/temp.js";
import { formatConfigErrors, loadConfig, parseConfig } from "../../src/config/load.js";
import type { Config } from "../../src/config/types.js";

const BASE = tempDir("skillshelf-config-");
const FILE = "plugins.yaml";
const HANDBOOK = pathToFileURL(path.join(BASE, "handbook")).href;
const yaml = (...lines: string[]) => lines.join("\n") + "\n";

describe("a full config maps to exact typed values", () => {
  const text = yaml(
    "sources:",
    "  - name: github",
    "    url: git+https://github.com",
    "    refresh: 1h",
    "  - name: gitlab",
    "    url: git+https://gitlab.example.com",
    "    auth: {username: x-access-token, password: {env: GITLAB_TOKEN}}",
    "  - name: mirror",
    "    url: git+file:///repos",
    "    auth: {username: {env: MIRROR_USER}, password: {env: MIRROR_PASSWORD}}",
    "  - name: shared",
    "    url: file:///shared",
    "    watch: false",
    "plugins:",
    "  - name: team-notes",
    "    source: gitlab://my-team/notes//ops?ref=main",
    "    description: Runbooks of the ops team",
    "    category: engineering",
    "    tags: [runbooks, oncall]",
    "    keywords: [incident response]",
    '    version: "1.0"',
    '    skills: ["runbooks/*"]',
    '    prompts: ["prompts/*.md"]',
    '    files: ["shared/**"]',
    "    dialect: claude",
    "  - name: local-kit",
    "    source: ./skills/local-kit",
    "    watch: false",
    "  - name: handbook",
    `    source: ${HANDBOOK}`,
    "    skills: []",
    '    files: ["guide/**"]',
    "  - name: shared-kit",
    "    source: shared://kits/one",
    "libraries:",
    "  - name: grafana",
    "    source: github://grafana/skills?ref=51d33e71e191b409bbd25fc7be2684c610d18166",
    "    plugins: [local-kit, loki@grafana]",
    "  - name: ops",
    "    description: Everything on call",
    "    plugins: [team-notes, handbook, shared-kit]",
    "  - name: oncall",
    '    pluginSelector: {categories: [engineering], tags: ["runbooks, oncall", public]}',
    "clients:",
    "  - name: support-bot",
    "    token: {env: SUPPORT_BOT_TOKEN}",
    "    scope: {library: ops, tags: [public]}",
    "  - name: platform",
    "    token: {env: PLATFORM_TOKEN}",
    "    admin: true",
    "anonymous: true",
    "ttl: 90s",
    "limits: {fileBytes: 512KiB}",
  );
  const expected: Config = {
    file: FILE,
    sources: [
      { name: "github", kind: "git", url: "git+https://github.com", refreshMs: 3_600_000, watch: true },
      {
        name: "gitlab",
        kind: "git",
        url: "git+https://gitlab.example.com",
        auth: { username: "x-access-token", password: { env: "GITLAB_TOKEN" } },
        watch: true,
      },
      {
        name: "mirror",
        kind: "git",
        url: "git+file:///repos",
        auth: { username: { env: "MIRROR_USER" }, password: { env: "MIRROR_PASSWORD" } },
        watch: true,
      },
      { name: "shared", kind: "file", url: "file:///shared", watch: false },
    ],
    plugins: [
      {
        name: "team-notes",
        address: {
          kind: "source",
          source: "gitlab",
          path: "my-team/notes",
          subdir: "ops",
          ref: "main",
          written: "gitlab://my-team/notes//ops?ref=main",
        },
        description: "Runbooks of the ops team",
        category: "engineering",
        tags: ["runbooks", "oncall"],
        keywords: ["incident response"],
        version: "1.0",
        skills: ["runbooks/*"],
        prompts: ["prompts/*.md"],
        files: ["shared/**"],
        dialect: "claude",
        watch: true,
      },
      {
        name: "local-kit",
        address: { kind: "local", abs: path.join(BASE, "skills", "local-kit"), written: "./skills/local-kit" },
        description: "",
        tags: [],
        keywords: [],
        dialect: "auto",
        watch: false,
      },
      {
        name: "handbook",
        address: { kind: "local", abs: path.join(BASE, "handbook"), written: HANDBOOK },
        description: "",
        tags: [],
        keywords: [],
        skills: [],
        files: ["guide/**"],
        dialect: "auto",
        watch: true,
      },
      {
        name: "shared-kit",
        address: { kind: "source", source: "shared", path: "kits/one", subdir: "", written: "shared://kits/one" },
        description: "",
        tags: [],
        keywords: [],
        dialect: "auto",
        // inherited from the source
        watch: false,
      },
    ],
    libraries: [
      {
        name: "grafana",
        description: "",
        source: {
          kind: "source",
          source: "github",
          path: "grafana/skills",
          subdir: "",
          ref: "51d33e71e191b409bbd25fc7be2684c610d18166",
          written: "github://grafana/skills?ref=51d33e71e191b409bbd25fc7be2684c610d18166",
        },
        plugins: ["local-kit", "loki@grafana"],
      },
      { name: "ops", description: "Everything on call", plugins: ["team-notes", "handbook", "shared-kit"] },
      {
        name: "oncall",
        description: "",
        plugins: [],
        pluginSelector: { categories: ["engineering"], tags: ["runbooks,oncall", "public"] },
      },
    ],
    clients: [
      { name: "support-bot", token: { env: "SUPPORT_BOT_TOKEN" }, scope: { library: "ops", tags: ["public"] }, admin: false },
      { name: "platform", token: { env: "PLATFORM_TOKEN" }, scope: {}, admin: true },
    ],
    anonymous: true,
    ttlMs: 90_000,
    limits: { fileBytes: 512 * 1024 },
  };

  test("parseConfig", () => {
    expect(parseConfig(text, FILE, BASE)).toStrictEqual({ ok: true, config: expected });
  });

  test("loadConfig reads the file and resolves local paths against its directory", async () => {
    const dir = tempDir("skillshelf-load-");
    const file = path.join(dir, FILE);
    fs.writeFileSync(file, text);
    const config = await loadConfig(file);
    expect(config.file).toBe(file);
    expect(config.plugins[1]?.address).toStrictEqual({
      kind: "local",
      abs: path.join(dir, "skills", "local-kit"),
      written: "./skills/local-kit",
    });
  });
});

describe("defaults", () => {
  const minimal = yaml("plugins: [{name: kit, source: ./kit}]", "libraries: [{name: kit, plugins: [kit]}]");
  const parse = (text: string): Config => {
    const result = parseConfig(text, FILE, BASE);
    if (!result.ok) throw new Error(formatConfigErrors(result.errors));
    return result.config;
  };

  test("a minimal config", () => {
    expect(parse(minimal)).toStrictEqual({
      file: FILE,
      sources: [],
      plugins: [
        {
          name: "kit",
          address: { kind: "local", abs: path.join(BASE, "kit"), written: "./kit" },
          description: "",
          tags: [],
          keywords: [],
          dialect: "auto",
          watch: true,
        },
      ],
      libraries: [{ name: "kit", description: "", plugins: ["kit"] }],
      clients: [],
      anonymous: true,
      ttlMs: 60_000,
      limits: { fileBytes: 8 * 1024 * 1024 },
    });
  });

  test.each([
    { given: "", anonymous: true },
    { given: "clients: [{name: a, token: {env: A}}]", anonymous: false },
    { given: "clients: [{name: a, token: {env: A}}]\nanonymous: true", anonymous: true },
    { given: "clients: []\nanonymous: true", anonymous: true },
  ])("anonymous with `$given` is $anonymous", ({ given, anonymous }) => {
    expect(parse(minimal + given).anonymous).toBe(anonymous);
  });

  test.each([
    { given: "anonymous: true", scope: undefined },
    { given: "anonymous: {scope: {}}", scope: {} },
    {
      given: 'anonymous: {scope: {library: kit, categories: [docs], tags: ["public, safe", b]}}',
      scope: { library: "kit", categories: ["docs"], tags: ["public,safe", "b"] },
    },
    { given: "clients: [{name: a, token: {env: A}}]\nanonymous: {scope: {tags: [public]}}", scope: { tags: ["public"] } },
  ])("`$given` serves requests without a token under the ceiling $scope", ({ given, scope }) => {
    const config = parse(minimal + given);
    expect(config.anonymous).toBe(true);
    expect(config.anonymousScope).toStrictEqual(scope);
  });

  test.each([
    { ttl: "500ms", ms: 500 },
    { ttl: "1h", ms: 3_600_000 },
    { ttl: "0", ms: 0 },
    { ttl: "1500", ms: 1500 },
  ])("ttl: $ttl", ({ ttl, ms }) => {
    expect(parse(minimal + `ttl: ${ttl}`).ttlMs).toBe(ms);
  });

  test.each([
    { size: "8MiB", bytes: 8 * 1024 * 1024 },
    { size: "512KiB", bytes: 512 * 1024 },
    { size: "1MB", bytes: 1_000_000 },
    { size: "1000", bytes: 1000 },
  ])("limits.fileBytes: $size", ({ size, bytes }) => {
    expect(parse(minimal + `limits: {fileBytes: ${size}}`).limits.fileBytes).toBe(bytes);
  });

  test("an empty selector and a marketplace-only library are enough", () => {
    const config = parse(
      yaml(
        "sources: [{name: gh, url: git+https://github.com}]",
        "libraries:",
        "  - {name: all, pluginSelector: {}}",
        "  - {name: mk, source: gh://o/r}",
      ),
    );
    expect(config.libraries.map((l) => l.pluginSelector ?? l.source)).toStrictEqual([
      { categories: [], tags: [] },
      { kind: "source", source: "gh", path: "o/r", subdir: "", written: "gh://o/r" },
    ]);
  });
});
