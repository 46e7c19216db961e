// The cases every kind of fetched source passes, through the one Fetcher interface and the fetcher its kind's
// registration opens: git against real repositories (git+file), WebDAV against a real WebDAV server on loopback,
// and the test-only memory kind (memory-kind.ts), registered the way any new kind is.
import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, test } from "vitest";
import type { Config, SourceConfig } from "../../src/config/index.js";
import { type FailureKind, type Fetcher, type FetchRequest, fetchedKind, registerSourceKind } from "../../src/sources/index.js";
import { configOf } from "../live/helpers.js";
import { tempDir } from "../support/temp.js";
import { commitFiles, makeRepo, makeTemp, removeTemps } from "./git-fixture.js";
import { MEMORY_KIND, MEMORY_STORES } from "./memory-kind.js";
import { DavServer } from "./webdav-server.js";

afterAll(registerSourceKind(MEMORY_KIND));

type Files = Readonly<Record<string, string>>;

/** One source holding `FILES` in one folder, and what each case needs to know of its kind. */
interface Remote {
  readonly config: Config;
  readonly env: NodeJS.ProcessEnv;
  /** The folder holding the files. */
  readonly request: FetchRequest;
  /** A folder the source does not have. */
  readonly missing: FetchRequest;
  readonly version: RegExp;
  readonly missingFailure: { readonly failure: FailureKind; readonly error: string };
  /** The error of a refresh while the source is down (the last tree serving). */
  readonly staleError: string | RegExp;
  /** Write `files` over the folder's (the rest stay). */
  change(files: Files): Promise<void> | void;
  /** Make the source unreachable. */
  takeDown(): Promise<void> | void;
  close(): Promise<void> | void;
}

interface KindCase {
  readonly name: string;
  readonly kind: string;
  setup(files: Files): Promise<Remote>;
}

const FILES: Files = { "skills/alpha/SKILL.md": "alpha one\n", "skills/beta/SKILL.md": "beta\n", "notes/a b#c.md": "odd name\n" };
const CHANGE: Files = { "skills/alpha/SKILL.md": "alpha two\n", "skills/alpha/extra.md": "new\n" };

/** A config declaring one source (`sources` as YAML) and one library of the plugin at `address`. */
function configWith(sources: string, address: string, base: string): Config {
  return configOf(
    `sources:\n${sources}plugins:\n  - {name: kit, source: "${address}"}\nlibraries:\n  - {name: kit, plugins: [kit]}\n`,
    base,
  );
}

function sourceOf(config: Config): SourceConfig {
  return config.sources[0] as SourceConfig;
}

const git: KindCase = {
  name: "git",
  kind: "git",
  setup(files) {
    const base = makeTemp();
    const repo = makeRepo(base, "kit", files);
    const config = configWith(`  - {name: local, url: "git+file://${base}"}\n`, "local://kit", base);
    const source = sourceOf(config);
    const unreachable = "the repository could not be reached: it may not exist, or its host is down";
    return Promise.resolve({
      config,
      env: {},
      request: { key: "local://kit", source, path: "kit" },
      missing: { key: "local://nope", source, path: "nope" },
      version: /^[0-9a-f]{40}$/,
      missingFailure: { failure: "unreachable", error: unreachable },
      staleError: `refresh failed: ${unreachable}; serving the last good tree`,
      change: (next) => void commitFiles(repo, next, "change"),
      takeDown: () => fs.renameSync(repo, `${repo}-gone`),
      close: removeTemps,
    });
  },
};

/** The WebDAV server's ETag follows the mtime: each write gets its own. */
let mtime = Date.UTC(2026, 0, 1) / 1000;
function writeShare(root: string, files: Files): void {
  for (const [rel, text] of Object.entries(files)) {
    const abs = path.join(root, "team", "kit", ...rel.split("/"));
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, text);
    mtime += 10;
    fs.utimesSync(abs, mtime, mtime);
  }
}

const webdav: KindCase = {
  name: "WebDAV",
  kind: "webdav",
  async setup(files) {
    const root = tempDir("skillshelf-dav-cases-");
    writeShare(root, files);
    const server = await DavServer.start(root, { users: { alice: "dav-FAKE-cases" }, infinity: true });
    const yaml = `  - name: dav\n    url: webdav+${server.origin}\n    auth: {username: alice, password: {env: DAV_PW}}\n`;
    const config = configWith(yaml, "dav://team/kit", root);
    const source = sourceOf(config);
    return {
      config,
      env: { DAV_PW: "dav-FAKE-cases" },
      request: { key: "dav://team/kit", source, path: "team/kit" },
      missing: { key: "dav://team/nope", source, path: "team/nope" },
      version: /^[0-9a-f]{64}$/,
      missingFailure: { failure: "missing", error: "the folder /team/nope does not exist" },
      // A kept-alive connection the server dropped answers ECONNRESET; a new one, ECONNREFUSED.
      staleError: /^refresh failed: the share could not be reached \((ECONNREFUSED|ECONNRESET)\); serving the last export$/,
      change: (next) => writeShare(root, next),
      takeDown: () => server.stop(),
      close: () => server.stop(),
    };
  },
};

const memory: KindCase = {
  name: "memory (test-only)",
  kind: "memory",
  setup(files) {
    const store = { folders: new Map([["team/kit", { ...files }]]), down: false };
    MEMORY_STORES.set("cases", store);
    const config = configWith(`  - {name: mem, url: "memory://cases"}\n`, "mem://team/kit", "/");
    const source = sourceOf(config);
    return Promise.resolve({
      config,
      env: {},
      request: { key: "mem://team/kit", source, path: "team/kit" },
      missing: { key: "mem://team/nope", source, path: "team/nope" },
      version: /^[0-9a-f]{64}$/,
      missingFailure: { failure: "missing", error: "the folder /team/nope does not exist" },
      staleError: "refresh failed: the store could not be reached; serving the last export",
      change: (next) => void store.folders.set("team/kit", { ...store.folders.get("team/kit"), ...next }),
      takeDown: () => void (store.down = true),
      close: () => void MEMORY_STORES.delete("cases"),
    });
  },
};

/** Every file under `dir` with its text, by relative POSIX path. */
function readTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const abs = path.join(entry.parentPath, entry.name);
    out[path.relative(dir, abs).split(path.sep).join("/")] = fs.readFileSync(abs, "utf8");
  }
  return out;
}

describe.each([git, webdav, memory])("a $name source", (kind) => {
  let remote: Remote;
  let fetcher: Fetcher;
  let cache: string;
  let clock: number;

  beforeEach(async () => {
    remote = await kind.setup(FILES);
    cache = tempDir("skillshelf-cases-cache-");
    clock = Date.UTC(2026, 0, 1);
    const registered = fetchedKind(kind.kind);
    if (registered === undefined) throw new Error(`source kind ${kind.kind} is not registered`);
    fetcher = await registered.open({
      cacheDir: cache,
      configDigest: "cases",
      config: remote.config,
      env: remote.env,
      now: () => new Date(clock),
      graceMs: 60_000,
      onCooling: () => undefined,
    });
  });

  afterEach(async () => {
    await fetcher.close();
    await remote.close();
  });

  test("serves the folder's files, with their version and when it was first served", async () => {
    const fetched = await fetcher.materialize(remote.request, false);
    expect(fetched).toEqual({
      key: remote.request.key,
      status: "ok",
      dir: expect.any(String),
      version: expect.any(String),
      built: "2026-01-01T00:00:00.000Z",
    });
    expect(fetched.version).toMatch(remote.version);
    expect(fetched.dir?.startsWith(cache + path.sep)).toBe(true);
    expect(readTree(fetched.dir as string)).toEqual(FILES);
  });

  test("without a refresh a known tree serves as it is, though the source changed", async () => {
    const first = await fetcher.materialize(remote.request, false);
    await remote.change(CHANGE);
    const again = await fetcher.materialize(remote.request, false);
    expect(again).toEqual(first);
    expect(readTree(again.dir as string)).toEqual(FILES);
  });

  test("a refresh with nothing changed keeps the version, the directory and the time first served", async () => {
    const first = await fetcher.materialize(remote.request, false);
    clock += 60_000;
    expect(await fetcher.materialize(remote.request, true)).toEqual(first);
  });

  test("a refresh takes a change into a new directory; the old one goes once no key serves it", async () => {
    const first = await fetcher.materialize(remote.request, false);
    await remote.change(CHANGE);
    clock += 60_000;
    const next = await fetcher.materialize(remote.request, true);
    expect(next.status).toBe("ok");
    expect(next.built).toBe("2026-01-01T00:01:00.000Z");
    expect(next.version).toMatch(remote.version);
    expect(next.version).not.toBe(first.version);
    expect(next.dir).not.toBe(first.dir);
    expect(readTree(next.dir as string)).toEqual({ ...FILES, ...CHANGE });
    // Requests that began on the previous shelf may still read the old tree until the grace period ends.
    await fetcher.retain([remote.request.key]);
    expect(readTree(first.dir as string)).toEqual(FILES);
    await fetcher.close();
    expect(fs.existsSync(first.dir as string)).toBe(false);
    expect(readTree(next.dir as string)).toEqual({ ...FILES, ...CHANGE });
  });

  test("a refresh while the source is down keeps the last tree serving, stale", async () => {
    const first = await fetcher.materialize(remote.request, false);
    await remote.takeDown();
    const stale = await fetcher.materialize(remote.request, true);
    const error = typeof remote.staleError === "string" ? remote.staleError : expect.stringMatching(remote.staleError);
    expect(stale).toEqual({ ...first, status: "stale", error, failure: "unreachable" });
    expect(readTree(stale.dir as string)).toEqual(FILES);
  });

  test("a folder the source does not have fails in a fixed sentence, and is not asked again until a refresh", async () => {
    const failed = await fetcher.materialize(remote.missing, false);
    expect(failed).toEqual({ key: remote.missing.key, status: "failed", ...remote.missingFailure });
    expect(failed.error).not.toContain(cache);
    await remote.takeDown();
    expect(await fetcher.materialize(remote.missing, false)).toEqual(failed);
  });

  test("concurrent calls for one key share one fetch", async () => {
    const [a, b] = await Promise.all([fetcher.materialize(remote.request, true), fetcher.materialize(remote.request, true)]);
    expect(a.status).toBe("ok");
    expect(b).toBe(a);
  });

  test("a key no longer retained is forgotten, and its tree removed on close", async () => {
    const first = await fetcher.materialize(remote.request, false);
    await fetcher.retain([]);
    await fetcher.close();
    expect(fs.existsSync(first.dir as string)).toBe(false);
  });
});
