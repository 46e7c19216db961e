// Faults against the built server: a served file replaced by a FIFO or by a symlink out of the root, a directory
// above served files replaced by a symlink out of the root (at every depth), a plugin folder deleted while serving, SIGTERM with a request in flight, a cache directory that cannot be written, two
// servers on one cache directory, a git repository that disappears. Each leaves the server up and answering
// correctly, and no client ever sees a secret, a path or a 5xx.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { MCP_HEADERS, openRequest, send } from "../support/http.js";
import { killStragglers, startHttpServer, type ServerProcess } from "../support/process.js";
import { parseRpcAnswer } from "./fuzz-run.js";
import { makeRepo, makeTemp, removeTemps, skillMd } from "../sources/git-fixture.js";
import {
  ALL_TARGETS,
  DECOY_WORD,
  parentLinkConfig,
  SECRET as LINKED_SECRET,
  swapForLink,
  writeParentLinkPlugin,
} from "../support/parent-links.js";

const SECRET = "MARKER-FAULT-SECRET-1d7e";
const dirs: string[] = [];
const servers: ServerProcess[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
afterAll(() => {
  killStragglers();
  removeTemps();
});

function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "skillshelf-faults-"));
  dirs.push(dir);
  return dir;
}

function put(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

/** Two local plugins `ka` (alpha, with files f1..f6) and `kb` (beta) in library `lib`, and a secret outside both. */
function writeShelf(dir: string): { config: string; alpha: string; pluginB: string } {
  const alpha = path.join(dir, "a", "skills", "alpha");
  put(path.join(alpha, "SKILL.md"), skillMd("alpha"));
  for (let i = 1; i <= 6; i++) put(path.join(alpha, `f${i}.md`), `file ${i}\n`);
  put(path.join(dir, "b", "skills", "beta", "SKILL.md"), skillMd("beta"));
  put(path.join(dir, "secret.txt"), `${SECRET}\n`);
  const config = path.join(dir, "config.yaml");
  writeFileSync(
    config,
    `plugins:\n  - {name: ka, source: ${path.join(dir, "a")}}\n  - {name: kb, source: ${path.join(dir, "b")}}\nlibraries:\n  - {name: lib, plugins: [ka, kb]}\n`,
  );
  return { config, alpha, pluginB: path.join(dir, "b") };
}

async function start(dir: string, config: string, extra: string[] = []): Promise<ServerProcess> {
  const server = await startHttpServer(["--config", config, "--cache-dir", path.join(dir, "cache"), ...extra]);
  servers.push(server);
  return server;
}

async function read(server: ServerProcess, uri: string): Promise<{ status: number; text?: string; code?: number; raw: string }> {
  const response = await send(server.origin, {
    method: "POST",
    path: "/mcp",
    headers: MCP_HEADERS,
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "resources/read", params: { uri } }),
  });
  const answer = parseRpcAnswer(response.text);
  const text = answer?.result?.contents?.[0]?.text;
  return {
    status: response.status,
    ...(typeof text === "string" ? { text } : {}),
    ...(typeof answer?.error?.code === "number" ? { code: answer.error.code } : {}),
    raw: response.text,
  };
}

const reindex = async (server: ServerProcess) => (await send(server.origin, { method: "POST", path: "/reindex" })).status;

describe("faults", () => {
  it("answers reads of files replaced by FIFOs as not found, and keeps serving (no open blocks the process)", async () => {
    const dir = tempDir();
    const shelf = writeShelf(dir);
    const server = await start(dir, shelf.config);
    for (let i = 1; i <= 6; i++) {
      rmSync(path.join(shelf.alpha, `f${i}.md`));
      execFileSync("mkfifo", [path.join(shelf.alpha, `f${i}.md`)]);
    }
    // More FIFOs than libuv has threads, read at once, before or after the watcher's rescan: every one answers.
    const answers = await Promise.all([1, 2, 3, 4, 5, 6].map((i) => read(server, `skill://lib/alpha/f${i}.md`)));
    expect(answers.map((a) => [a.status, a.code])).toEqual(Array.from({ length: 6 }, () => [200, -32602]));
    expect((await read(server, "skill://lib/alpha/SKILL.md")).text).toBe(skillMd("alpha"));
    expect(await reindex(server)).toBe(200);
    expect((await read(server, "skill://lib/alpha/f1.md")).code).toBe(-32602);
  });

  it("never follows a served file replaced by a symlink out of the root", async () => {
    const dir = tempDir();
    const shelf = writeShelf(dir);
    const server = await start(dir, shelf.config);
    expect((await read(server, "skill://lib/alpha/f1.md")).text).toBe("file 1\n");
    for (const i of [1, 2]) {
      rmSync(path.join(shelf.alpha, `f${i}.md`));
      symlinkSync(path.join(dir, "secret.txt"), path.join(shelf.alpha, `f${i}.md`));
    }
    // f1 was read before (its bytes may be held, published under the old digest); f2 never was.
    const before = [await read(server, "skill://lib/alpha/f1.md"), await read(server, "skill://lib/alpha/f2.md")];
    expect(await reindex(server)).toBe(200);
    const after = [await read(server, "skill://lib/alpha/f1.md"), await read(server, "skill://lib/alpha/f2.md")];
    for (const answer of [...before, ...after]) {
      expect(answer.status).toBe(200);
      expect(answer.raw).not.toContain(SECRET);
      expect(answer.raw).not.toContain(dir);
    }
    expect(after.map((a) => a.code)).toEqual([-32602, -32602]);
  });

  it("keeps serving the other plugins when a plugin folder is deleted, and reports it", async () => {
    const dir = tempDir();
    const shelf = writeShelf(dir);
    const server = await start(dir, shelf.config);
    expect((await read(server, "skill://lib/beta/SKILL.md")).text).toBe(skillMd("beta"));
    rmSync(shelf.pluginB, { recursive: true, force: true });
    const gone = await read(server, "skill://lib/beta/SKILL.md");
    expect(gone.status).toBe(200);
    expect(gone.code === -32602 || gone.text === skillMd("beta")).toBe(true);
    expect(await reindex(server)).toBe(200);
    expect((await read(server, "skill://lib/beta/SKILL.md")).code).toBe(-32602);
    expect((await read(server, "skill://lib/alpha/SKILL.md")).text).toBe(skillMd("alpha"));
    const health = JSON.parse((await send(server.origin, { path: "/health" })).text) as {
      status: string;
      plugins: Record<string, { status: string }>;
    };
    expect(health.status).toBe("degraded");
    expect(health.plugins["kb"]?.status).toBe("failed");
    expect(health.plugins["ka"]?.status).toBe("ok");
  });

  it("answers a request in flight at SIGTERM, then exits 0", async () => {
    const dir = tempDir();
    const shelf = writeShelf(dir);
    const server = await start(dir, shelf.config);
    servers.splice(servers.indexOf(server), 1);
    const body = JSON.stringify({ jsonrpc: "2.0", id: 9, method: "resources/read", params: { uri: "skill://lib/alpha/SKILL.md" } });
    const { request, response } = openRequest(server.origin, {
      method: "POST",
      path: "/mcp",
      headers: { ...MCP_HEADERS, "content-length": String(Buffer.byteLength(body)) },
    });
    request.write(body.slice(0, 20));
    // The request is in flight once the server has its headers: a ping on another connection answers after that.
    expect(
      (await send(server.origin, { method: "POST", path: "/mcp", headers: MCP_HEADERS, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' }))
        .status,
    ).toBe(200);
    const exited = server.stop("SIGTERM");
    while (!server.stderr().includes("draining in-flight requests")) await new Promise((resolve) => setTimeout(resolve, 10));
    request.end(body.slice(20));
    const answer = await response;
    expect(answer.status).toBe(200);
    expect(parseRpcAnswer(answer.text)?.result?.contents?.[0]?.text).toBe(skillMd("alpha"));
    expect(await exited).toEqual({ code: 0, signal: null });
  });

  it("serves with a default cache directory it cannot write, and says so once in the log", async () => {
    const dir = tempDir();
    const shelf = writeShelf(dir);
    // A path through a regular file cannot be created by anyone, root included (chmod does not stop root). The
    // default cache directory lies under it; an explicit --cache-dir that cannot be written is refused instead.
    writeFileSync(path.join(dir, "not-a-dir"), "");
    const server = await startHttpServer(["--config", shelf.config], { env: { XDG_CACHE_HOME: path.join(dir, "not-a-dir") } });
    servers.push(server);
    expect((await read(server, "skill://lib/alpha/SKILL.md")).text).toBe(skillMd("alpha"));
    expect(await reindex(server)).toBe(200);
    expect(server.stderr().split("cache directory not writable").length - 1).toBe(1);
    const health = (await send(server.origin, { path: "/health" })).text;
    expect(health).not.toContain("not-a-dir");
    expect(server.stderr()).not.toMatch(/^\s+at /m);
  });

  it("runs two servers on one cache directory over one git repository, and a third restarts from it", async () => {
    const base = makeTemp();
    makeRepo(base, "kit", { "skills/gitty/SKILL.md": skillMd("gitty") });
    const dir = tempDir();
    const config = path.join(dir, "config.yaml");
    writeFileSync(
      config,
      `sources:\n  - {name: local, url: "git+file://${base}"}\nplugins:\n  - {name: kit, source: "local://kit"}\nlibraries:\n  - {name: lib, plugins: [kit]}\n`,
    );
    mkdirSync(path.join(dir, "cache"));
    const [one, two] = await Promise.all([start(dir, config), start(dir, config)]);
    for (const server of [one, two]) {
      expect((await read(server as ServerProcess, "skill://lib/gitty/SKILL.md")).text).toBe(skillMd("gitty"));
      expect(await reindex(server as ServerProcess)).toBe(200);
    }
    for (const server of servers.splice(0)) expect(await server.stop()).toEqual({ code: 0, signal: null });
    const three = await start(dir, config);
    expect((await read(three, "skill://lib/gitty/SKILL.md")).text).toBe(skillMd("gitty"));
  });

  it("keeps serving a git repository that disappears, marked stale", async () => {
    const base = makeTemp();
    const repo = makeRepo(base, "kit", { "skills/gitty/SKILL.md": skillMd("gitty") });
    const dir = tempDir();
    const config = path.join(dir, "config.yaml");
    writeFileSync(
      config,
      `sources:\n  - {name: local, url: "git+file://${base}"}\nplugins:\n  - {name: kit, source: "local://kit"}\nlibraries:\n  - {name: lib, plugins: [kit]}\n`,
    );
    const server = await start(dir, config);
    rmSync(repo, { recursive: true, force: true });
    expect(await reindex(server)).toBe(200);
    const health = JSON.parse((await send(server.origin, { path: "/health" })).text) as {
      status: string;
      fetches: Record<string, { status: string; error?: string }>;
    };
    expect(health.status).toBe("degraded");
    expect(health.fetches["local://kit"]?.status).toBe("stale");
    expect(health.fetches["local://kit"]?.error).not.toContain(base);
    expect((await read(server, "skill://lib/gitty/SKILL.md")).text).toBe(skillMd("gitty"));
  });
});

/** An MCP request's answer text. */
const rpc = async (server: ServerProcess, method: string, params: object): Promise<string> =>
  (
    await send(server.origin, {
      method: "POST",
      path: "/mcp",
      headers: MCP_HEADERS,
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    })
  ).text;

describe("faults: a directory above served files swapped for a symlink out of the root", () => {
  // Every depth of every served file's path (watch: false, so no rescan ever comes on its own): the large file
  // over the content cache's entry size, the small one, the plugin-root fallback file and the SKILL.md the search
  // index reads each have a decoy of the same size and mtime behind the link.
  it.each(["skills/alpha/one/two", "skills/alpha/one", "skills/alpha", "skills", "notes/one/two", "notes/one", "notes"])(
    "%s: no surface serves a byte from outside, before or after /reindex",
    async (swapped) => {
      const dir = tempDir();
      writeParentLinkPlugin(dir);
      const config = path.join(dir, "config.yaml");
      writeFileSync(config, parentLinkConfig(false));
      const server = await start(dir, config);
      const below = swapForLink(dir, swapped);
      for (const round of ["before", "after"]) {
        if (round === "after") expect(await reindex(server)).toBe(200);
        for (const target of ALL_TARGETS) {
          const resource = await read(server, target.uri);
          const tool = await rpc(server, "tools/call", { name: "read_resource", arguments: { uri: target.uri } });
          const page = await send(server.origin, { path: `/raw/lib/${target.uri.slice("skill://lib/".length)}` });
          for (const body of [resource.raw, tool, page.text]) expect(body).not.toContain(LINKED_SECRET);
          const served = below.includes(target) ? undefined : target.text;
          expect([target.uri, resource.text, resource.code]).toEqual([target.uri, served, served === undefined ? -32602 : undefined]);
          expect([target.uri, page.status]).toEqual([target.uri, served === undefined ? 404 : 200]);
        }
        const search = await rpc(server, "tools/call", { name: "search_skills", arguments: { query: DECOY_WORD } });
        expect(search).not.toContain(LINKED_SECRET);
        expect(search).not.toContain("skill://lib/alpha/SKILL.md");
      }
    },
  );
});
