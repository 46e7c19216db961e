// WebDAV sources against a real WebDAV server on loopback (webdav-server v2 over a folder, behind Basic auth): the
// snapshot export, an unchanged listing that downloads nothing, edits picked up by the refresh timer and by a rebuild
// (/reindex), a failed refresh that keeps the export serving, live reads that revalidate one file, cooling while the
// server is down or slow and recovery after, refused credentials, a forbidden or missing folder, odd file names.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { ShelfService, type ShelfServiceOptions } from "../../src/live/shelf-service.js";
import { ContentCache } from "../../src/live/content-cache.js";
import { ShelfReader } from "../../src/live/reader.js";
import { buildHealth } from "../../src/health/index.js";
import { FULL_SCOPE } from "../../src/resolve/index.js";
import { readServedFile } from "../../src/live/served-bytes.js";
import { configOf, keptLog, readText, waitFor } from "../live/helpers.js";
import { tempDir } from "../support/temp.js";
import { DavServer } from "./webdav-server.js";

const USER = "alice";
const PASSWORD = "dav-FAKE-pa55word-7c1e";
const ALPHA = "skill://kit/alpha/SKILL.md";

const skillMd = (name: string, body: string) => `---\nname: ${name}\ndescription: The ${name} skill.\n---\n${body}\n`;
/** Files with names a URL must escape: `#`, `?`, spaces, non-ASCII. */
const ODD = ["references/a b#c?.md", "references/grüße/naïve café.md", "references/100%.md"];

const services: ShelfService[] = [];
const servers: DavServer[] = [];
afterEach(async () => {
  for (const service of services.splice(0)) await service.close();
  for (const server of servers.splice(0)) await server.stop();
});

/** Write `files` under `root`, each with its own mtime (the server's ETag is derived from it). */
let clock = Date.UTC(2026, 0, 1) / 1000;
function write(root: string, files: Readonly<Record<string, string>>): void {
  for (const [rel, text] of Object.entries(files)) {
    const abs = path.join(root, ...rel.split("/"));
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, text);
    clock += 10;
    fs.utimesSync(abs, clock, clock);
  }
}

interface Setup {
  readonly root: string;
  readonly server: DavServer;
  readonly cache: string;
  readonly service: ShelfService;
  readonly log: ReturnType<typeof keptLog>;
  readonly reader: ShelfReader;
}

async function setup(
  options: {
    source?: string;
    /** The share's path on the server (the URL's path). */
    share?: string;
    folder?: string;
    infinity?: boolean;
    password?: string;
    forbid?: { user: string; folder: string };
    service?: Partial<ShelfServiceOptions>;
    cache?: string;
    server?: DavServer;
    root?: string;
  } = {},
): Promise<Setup> {
  const root = options.root ?? tempDir("skillshelf-dav-share-");
  if (options.root === undefined) {
    write(root, {
      "team/kit/skills/alpha/SKILL.md": skillMd("alpha", "one"),
      "team/kit/skills/beta/SKILL.md": skillMd("beta", "beta"),
      ...Object.fromEntries(ODD.map((rel) => [`team/kit/skills/alpha/${rel}`, `odd ${rel}`])),
    });
  }
  const server =
    options.server ??
    (await DavServer.start(root, {
      users: { [USER]: PASSWORD, bob: "bob-pass" },
      ...(options.infinity === false ? {} : { infinity: true }),
      ...(options.forbid === undefined ? {} : { forbid: options.forbid }),
    }));
  if (options.server === undefined) servers.push(server);
  const base = tempDir("skillshelf-dav-conf-");
  fs.mkdirSync(path.join(base, "local", "skills", "gamma"), { recursive: true });
  fs.writeFileSync(path.join(base, "local", "skills", "gamma", "SKILL.md"), skillMd("gamma", "gamma"));
  const yaml = `sources:
  - name: dav
    url: webdav+${server.origin}/${options.share ?? ""}
    auth: {username: ${USER}, password: {env: SKILLSHELF_DAV_PASSWORD}}
${options.source ?? ""}plugins:
  - {name: kit, source: "dav://${options.folder ?? "team/kit"}"}
  - {name: local, source: ./local}
libraries:
  - {name: kit, plugins: [kit]}
  - {name: local, plugins: [local]}
`;
  const cache = options.cache ?? tempDir("skillshelf-dav-cache-");
  const log = keptLog();
  const service = await ShelfService.start(configOf(yaml, base), () => new Date(), {
    cacheDir: cache,
    log,
    env: { SKILLSHELF_DAV_PASSWORD: options.password ?? PASSWORD },
    exportGraceMs: 0,
    ...options.service,
  });
  services.push(service);
  const reader = new ShelfReader(service.holder, new ContentCache(), service);
  return { root, server, cache, service, log, reader };
}

async function readLive(reader: ShelfReader, uri: string): Promise<string | null> {
  const outcome = await reader.read(uri, () => FULL_SCOPE);
  return outcome.ok && "text" in outcome ? outcome.text : null;
}

function fetchOf(service: ShelfService, key = "dav://team/kit") {
  return buildHealth(service.current).fetches[key];
}

/** Every file under `dir`, relative. */
function listFiles(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
}

describe("a snapshot", () => {
  test("serves the folder's skills, odd file names included, from one listing of depth infinity", async () => {
    const { service, server } = await setup();
    expect(await readText(service.current, ALPHA)).toBe(skillMd("alpha", "one"));
    expect(await readText(service.current, "skill://kit/beta/SKILL.md")).toBe(skillMd("beta", "beta"));
    const alpha = service.current.libraries.get("kit")?.skills.get("alpha");
    expect(alpha?.paths).toEqual(["SKILL.md", ...ODD].sort());
    for (const rel of ODD) {
      const file = alpha?.files.get(rel);
      const content = file === undefined ? undefined : await readServedFile(file);
      expect(content?.ok === true ? Buffer.from(content.bytes).toString() : null).toBe(`odd ${rel}`);
    }
    expect(fetchOf(service)).toMatchObject({ status: "ok" });
    expect(buildHealth(service.current).status).toBe("ok");
    expect(server.propfinds).toBe(1);
    expect(server.gets.sort()).toEqual(
      ["skills/alpha/SKILL.md", "skills/beta/SKILL.md", ...ODD.map((rel) => `skills/alpha/${rel}`)].map((rel) => `/team/kit/${rel}`).sort(),
    );
  });

  test("a share URL with a path: the folder is read below it", async () => {
    const { service } = await setup({ share: "team", folder: "kit" });
    expect(await readText(service.current, ALPHA)).toBe(skillMd("alpha", "one"));
    expect(service.current.libraries.get("kit")?.skills.get("alpha")?.paths).toEqual(["SKILL.md", ...ODD].sort());
  });

  test("a library's marketplace on a share serves its entries from the same export", async () => {
    const root = tempDir("skillshelf-dav-share-");
    write(root, {
      "team/market/.claude-plugin/marketplace.json": JSON.stringify({ name: "team", plugins: [{ name: "ops", source: "./ops" }] }),
      "team/market/ops/skills/deploy/SKILL.md": skillMd("deploy", "ship it"),
    });
    const server = await DavServer.start(root, { users: { [USER]: PASSWORD }, infinity: true });
    servers.push(server);
    const yaml = `sources:\n  - name: dav\n    url: webdav+${server.origin}\n    auth: {username: ${USER}, password: {env: SKILLSHELF_DAV_PASSWORD}}\nlibraries:\n  - {name: team, source: "dav://team/market"}\n`;
    const service = await ShelfService.start(configOf(yaml, root), () => new Date(), {
      cacheDir: tempDir("skillshelf-dav-cache-"),
      env: { SKILLSHELF_DAV_PASSWORD: PASSWORD },
    });
    services.push(service);
    expect(await readText(service.current, "skill://team/deploy/SKILL.md")).toBe(skillMd("deploy", "ship it"));
    expect(buildHealth(service.current).plugins["ops@team"]).toMatchObject({ status: "ok", fetch: "dav://team/market", skills: 1 });
    expect(server.propfinds).toBe(1);
  });

  test("walks the folder one level at a time when the server refuses depth infinity", async () => {
    const { service, server } = await setup({ infinity: false });
    expect(await readText(service.current, ALPHA)).toBe(skillMd("alpha", "one"));
    expect(service.current.libraries.get("kit")?.skills.get("alpha")?.paths).toEqual(["SKILL.md", ...ODD].sort());
    // The refused PROPFIND, then one per folder: kit, skills, alpha, beta, references, grüße.
    expect(server.propfinds).toBe(7);
  });

  test("an unchanged folder downloads nothing: not on a refresh, a rebuild, or a restart on the same cache", async () => {
    const first = await setup();
    const downloaded = first.server.gets.length;
    expect(await first.service.refresh()).toEqual(["dav://team/kit", "./local"]);
    await first.service.rebuild();
    expect(first.service.current.generation).toBe(1);
    expect(first.server.gets.length).toBe(downloaded);
    await first.service.close();
    const again = await setup({ root: first.root, server: first.server, cache: first.cache });
    expect(await readText(again.service.current, ALPHA)).toBe(skillMd("alpha", "one"));
    expect(first.server.gets.length).toBe(downloaded);
    expect(first.server.propfinds).toBe(4);
  });

  test("an edit is picked up by the refresh timer, downloading only the changed file; the old export goes", async () => {
    const { root, server, cache, service, log } = await setup({ source: "    refresh: 50ms\n" });
    service.startRefreshTimers();
    const before = server.gets.length;
    write(root, { "team/kit/skills/alpha/SKILL.md": skillMd("alpha", "two") });
    await waitFor(() => service.current.generation === 2);
    expect(await readText(service.current, ALPHA)).toBe(skillMd("alpha", "two"));
    expect(server.gets.slice(before)).toEqual(["/team/kit/skills/alpha/SKILL.md"]);
    expect(log.lines.filter((line) => line.includes('"fetch serves"'))).toHaveLength(2);
    const exports = path.join(cache, "webdav");
    await waitFor(() => fs.readdirSync(path.join(exports, fs.readdirSync(exports)[0] as string)).length === 2);
  });

  test("an edit, a new file and a removed file are picked up by a rebuild (/reindex)", async () => {
    const { root, service } = await setup();
    write(root, { "team/kit/skills/alpha/SKILL.md": skillMd("alpha", "three"), "team/kit/skills/delta/SKILL.md": skillMd("delta", "d") });
    fs.rmSync(path.join(root, "team/kit/skills/beta"), { recursive: true });
    expect(await service.rebuild()).toEqual(["dav://team/kit", "./local"]);
    expect(service.current.generation).toBe(2);
    expect(await readText(service.current, ALPHA)).toBe(skillMd("alpha", "three"));
    expect(await readText(service.current, "skill://kit/delta/SKILL.md")).toBe(skillMd("delta", "d"));
    expect(await readText(service.current, "skill://kit/beta/SKILL.md")).toBe(null);
  });

  test("a cold start while the share is down serves the newest export on disk, stale; refused credentials do not", async () => {
    const first = await setup();
    await first.service.close();
    await first.server.stop();
    const again = await setup({ root: first.root, server: first.server, cache: first.cache });
    expect(fetchOf(again.service)).toEqual({
      status: "stale",
      built: expect.any(String),
      error: expect.stringMatching(/^refresh failed: the share could not be reached \(ECONNREFUSED\); serving the last export$/),
    });
    expect(await readText(again.service.current, ALPHA)).toBe(skillMd("alpha", "one"));
    await first.server.listen();
    const refused = await setup({ root: first.root, server: first.server, cache: first.cache, password: "wrong-FAKE-1" });
    expect(fetchOf(refused.service)).toEqual({ status: "failed", error: "the credentials were refused" });
  });

  test("a failed refresh keeps the last export serving, stale and named in the log; the next good one recovers", async () => {
    const { server, service, log } = await setup();
    await server.stop();
    await service.refresh();
    // A kept-alive connection the server dropped answers ECONNRESET; a new one, ECONNREFUSED.
    expect(fetchOf(service)).toEqual({
      status: "stale",
      built: expect.any(String),
      error: expect.stringMatching(
        /^refresh failed: the share could not be reached \((ECONNREFUSED|ECONNRESET)\); serving the last export$/,
      ),
    });
    expect(buildHealth(service.current).status).toBe("degraded");
    expect(await readText(service.current, ALPHA)).toBe(skillMd("alpha", "one"));
    expect(log.lines.filter((line) => line.includes('"fetch stale"'))).toHaveLength(1);
    await server.listen();
    await service.refresh();
    expect(fetchOf(service)).toMatchObject({ status: "ok" });
    expect(log.lines.filter((line) => line.includes('"fetch recovered"'))).toHaveLength(1);
  });
});

describe("cache: live", () => {
  const LIVE = "    cache: live\n";

  test("a read of an edited file serves the share's bytes; an unchanged file asks without downloading", async () => {
    const { root, server, reader } = await setup({ source: LIVE, service: { liveTiming: { trustMs: 0 } } });
    const gets = server.gets.length;
    expect(await readLive(reader, ALPHA)).toBe(skillMd("alpha", "one"));
    expect(server.gets.length).toBe(gets);
    write(root, { "team/kit/skills/alpha/SKILL.md": skillMd("alpha", "live edit") });
    expect(await readLive(reader, ALPHA)).toBe(skillMd("alpha", "live edit"));
    expect(await readLive(reader, ALPHA)).toBe(skillMd("alpha", "live edit"));
    // Downloaded once; asked again each read.
    expect(server.gets.slice(gets)).toEqual(["/team/kit/skills/alpha/SKILL.md"]);
  });

  test("a tag is trusted for its time: reads within it do not ask the share", async () => {
    const { server, reader } = await setup({ source: LIVE, service: { liveTiming: { trustMs: 60_000 } } });
    await readLive(reader, ALPHA);
    const asked = server.propfinds;
    await readLive(reader, ALPHA);
    await readLive(reader, ALPHA);
    expect(server.propfinds).toBe(asked);
  });

  test("a snapshot source never asks the share on a read", async () => {
    const { root, server, reader } = await setup();
    const asked = server.propfinds;
    write(root, { "team/kit/skills/alpha/SKILL.md": skillMd("alpha", "edited") });
    expect(await readLive(reader, ALPHA)).toBe(skillMd("alpha", "one"));
    expect(server.propfinds).toBe(asked);
  });

  test("a stopped server: reads serve the export, the fetch cools (on /health and in the log), then recovers", async () => {
    const { root, server, service, reader, log } = await setup({
      source: LIVE,
      service: { liveTiming: { trustMs: 0, coolMs: 2_000 } },
    });
    await server.stop();
    expect(await readLive(reader, ALPHA)).toBe(skillMd("alpha", "one"));
    await waitFor(() => fetchOf(service)?.cooling === true);
    expect(fetchOf(service)).toEqual({
      status: "ok",
      built: expect.any(String),
      cooling: true,
      error: expect.stringMatching(
        /^a live read failed: the share could not be reached \((ECONNREFUSED|ECONNRESET)\); reads come from the export for 2 s$/,
      ),
    });
    expect(buildHealth(service.current).status).toBe("degraded");
    expect(log.lines.filter((line) => line.includes('"fetch cooling"'))).toHaveLength(1);
    // While cooling, reads do not try the share.
    await server.listen();
    write(root, { "team/kit/skills/alpha/SKILL.md": skillMd("alpha", "after") });
    const asked = server.propfinds;
    expect(await readLive(reader, ALPHA)).toBe(skillMd("alpha", "one"));
    expect(server.propfinds).toBe(asked);
    await waitFor(() => fetchOf(service)?.cooling === undefined);
    expect(log.lines.filter((line) => line.includes('"fetch revalidates again"'))).toHaveLength(1);
    expect(buildHealth(service.current).status).toBe("ok");
    expect(await readLive(reader, ALPHA)).toBe(skillMd("alpha", "after"));
  });

  test("a slow server: the read gives up after its time and serves the export", async () => {
    const { root, server, service, reader } = await setup({
      source: LIVE,
      service: { liveTiming: { trustMs: 0, giveUpMs: 100, coolMs: 60_000 } },
    });
    write(root, { "team/kit/skills/alpha/SKILL.md": skillMd("alpha", "slow edit") });
    server.delayMs = 2_000;
    // The share holds the edit: a read that waited for its answer would serve it.
    expect(await readLive(reader, ALPHA)).toBe(skillMd("alpha", "one"));
    await waitFor(() => fetchOf(service)?.cooling === true);
    expect(fetchOf(service)?.error).toBe("a live read failed: the share did not answer within 100 ms; reads come from the export for 60 s");
  });
});

describe("errors name the fetch, never the password", () => {
  test("refused credentials at cold start fail that fetch only; the rest serves", async () => {
    const { service, log, cache } = await setup({ password: "wrong-FAKE-9" });
    expect(fetchOf(service)).toEqual({ status: "failed", error: "the credentials were refused" });
    expect(service.refusedCredentials).toEqual([{ fetch: "dav://team/kit", reason: "the credentials were refused" }]);
    expect(await readText(service.current, "skill://local/gamma/SKILL.md")).toBe(skillMd("gamma", "gamma"));
    expect(buildHealth(service.current).status).toBe("degraded");
    expect(log.lines.filter((line) => line.includes('"fetch failed"'))).toHaveLength(1);
    const seen = [JSON.stringify(buildHealth(service.current)), ...log.lines, ...listFiles(cache)].join("\n");
    expect(seen).not.toContain("wrong-FAKE-9");
    expect(seen).not.toContain(PASSWORD);
  });

  test("a password that is not in the environment", async () => {
    const { service } = await setup({ service: { env: {} } });
    expect(fetchOf(service)).toEqual({
      status: "failed",
      error: "the credentials of source 'dav' are unavailable: environment variable SKILLSHELF_DAV_PASSWORD is not set",
    });
  });

  test("a folder the account may not read", async () => {
    const { service } = await setup({ forbid: { user: USER, folder: "/team" } });
    expect(fetchOf(service)).toEqual({ status: "failed", error: "the account may not read this folder" });
  });

  test("a folder that does not exist", async () => {
    const { service } = await setup({ folder: "team/nope" });
    expect(fetchOf(service, "dav://team/nope")).toEqual({ status: "failed", error: "the folder /team/nope does not exist" });
  });

  test("a server that does not answer in time", async () => {
    const root = tempDir("skillshelf-dav-share-");
    write(root, { "team/kit/skills/alpha/SKILL.md": skillMd("alpha", "one") });
    const server = await DavServer.start(root, { users: { [USER]: PASSWORD } });
    servers.push(server);
    server.delayMs = 2_000;
    const { service } = await setup({ root, server, service: { webdavTimeoutMs: 200 } });
    expect(fetchOf(service)).toEqual({ status: "failed", error: "the share did not answer within 200 ms" });
  });

  test("a certificate the system does not trust", async () => {
    const root = tempDir("skillshelf-dav-share-");
    write(root, { "team/kit/skills/alpha/SKILL.md": skillMd("alpha", "one") });
    const keys = tempDir("skillshelf-dav-tls-");
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-subj",
        "/CN=127.0.0.1",
        "-days",
        "1",
        "-keyout",
        path.join(keys, "key.pem"),
        "-out",
        path.join(keys, "cert.pem"),
      ],
      { stdio: "ignore" },
    );
    const tls = { key: fs.readFileSync(path.join(keys, "key.pem"), "utf8"), cert: fs.readFileSync(path.join(keys, "cert.pem"), "utf8") };
    const server = await DavServer.start(root, { users: { [USER]: PASSWORD }, tls });
    servers.push(server);
    const { service } = await setup({ root, server });
    expect(fetchOf(service)).toEqual({ status: "failed", error: "the TLS connection to the share failed (DEPTH_ZERO_SELF_SIGNED_CERT)" });
    expect(server.propfinds).toBe(0);
  });

  test("the password reaches the server, and no file of the cache holds it", async () => {
    const { cache } = await setup();
    const files = listFiles(cache);
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) expect(fs.readFileSync(path.join(cache, file)).includes(Buffer.from(PASSWORD))).toBe(false);
  });
});
