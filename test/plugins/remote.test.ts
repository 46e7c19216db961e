// The plugins as a read-only git remote, driven with plain git: replicas (their own cache directories, each having
// served a different sequence of contents) and a restarted one answer a `clone --depth 1` and a later `fetch` with
// the same commit ids, over protocol v2; a fetch after an edit, shallow or not, brings only the changed objects
// although the new commit is a root commit; a push is refused; an unknown repository and one out of scope are one 404, and
// a caller without a credential is asked for one; the marketplaces list what the caller sees.
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { listPlugins, pluginContent } from "../../src/plugins/index.js";
import { FULL_SCOPE } from "../../src/resolve/index.js";
import { makeTemp, removeTemps } from "../sources/git-fixture.js";
import { NARROW_TOKEN, WIDE_TOKEN, serve, write, writeShelf, type Served } from "./fixture.js";

const run = promisify(execFile);
const ENV = {
  PATH: process.env["PATH"] ?? "",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  HOME: "/nonexistent",
  GIT_TERMINAL_PROMPT: "0",
};

let shelfDir: string;
let one: Served;
let two: Served;

beforeAll(async () => {
  shelfDir = writeShelf();
  [one, two] = await Promise.all([serve(shelfDir), serve(shelfDir)]);
});

afterAll(async () => {
  await one.close();
  await two.close();
  removeTemps();
});

const withToken = (origin: string, token: string): string => origin.replace("http://", `http://x-token:${token}@`);

async function git(args: string[], cwd?: string): Promise<{ stdout: string; stderr: string }> {
  const { stdout, stderr } = await run("git", ["-c", "protocol.version=2", ...args], { env: ENV, cwd });
  return { stdout: stdout.trim(), stderr };
}

/** Runs a fetch, clone or ls-remote and answers the number of objects in the pack the server sent (git writes the
 *  pack it receives to GIT_TRACE_PACKFILE; the object count is in its header), 0 when none was sent. */
async function objectsSent(args: string[], cwd?: string): Promise<number> {
  const trace = path.join(makeTemp("skillshelf-pack-"), "pack");
  await run("git", ["-c", "protocol.version=2", ...args], { env: { ...ENV, GIT_TRACE_PACKFILE: trace }, cwd });
  const pack = fs.existsSync(trace) ? fs.readFileSync(trace) : Buffer.alloc(0);
  if (pack.byteLength === 0) return 0;
  expect(pack.subarray(0, 4).toString("latin1")).toBe("PACK");
  return pack.readUInt32BE(8);
}

describe("the git remote", { timeout: 60_000 }, () => {
  test("replicas of different histories and a restart give the same commits; a fetch after an edit sends only the change", async () => {
    const url = (served: Served): string => `${withToken(served.origin, WIDE_TOKEN)}/plugins/git/kit/kit.git`;
    const a = path.join(makeTemp("skillshelf-clone-"), "a");
    const b = path.join(makeTemp("skillshelf-clone-"), "b");
    const full = path.join(makeTemp("skillshelf-clone-"), "full");
    const d = path.join(makeTemp("skillshelf-clone-"), "d");
    await git(["clone", "--quiet", "--depth", "1", url(one), a]);
    await git(["clone", "--quiet", "--depth", "1", url(two), b]);
    await git(["clone", "--quiet", "--depth", "1", url(two), d]);
    // The whole tree: the commit, 8 trees and 6 files.
    expect(await objectsSent(["clone", "--quiet", url(one), full])).toBe(15);
    const first = (await git(["rev-parse", "HEAD"], a)).stdout;
    expect((await git(["rev-parse", "HEAD"], b)).stdout).toBe(first);
    expect((await git(["rev-parse", "HEAD"], full)).stdout).toBe(first);
    expect((await git(["ls-files"], a)).stdout.split("\n")).toEqual([
      ".claude-plugin/plugin.json",
      "commands/review.md",
      "shared/style.md",
      "skills/notes/SKILL.md",
      "skills/pdf/SKILL.md",
      "skills/pdf/scripts/fill.py",
    ]);
    expect(fs.readFileSync(path.join(a, "skills", "pdf", "scripts", "fill.py"), "utf8")).toBe("print('fill')\n");

    write(path.join(shelfDir, "kit", "skills", "pdf", "scripts", "fill.py"), "print('fill, edited')\n");
    await Promise.all([one.service.rebuild(), two.service.rebuild()]);
    // A replica started after the edit has only ever seen the new content.
    const three = await serve(shelfDir);
    try {
      const c = path.join(makeTemp("skillshelf-clone-"), "c");
      await git(["clone", "--quiet", "--depth", "1", url(three), c]);
      // Fetch from each replica: the same new commit, a root commit (no parent) like the first.
      // The edit changed one file: each fetch brings the new commit, its root tree, the trees of skills/, skills/pdf/,
      // skills/pdf/scripts/ and .claude-plugin/, the edited file and plugin.json (its version): 8 objects of 15, from
      // a shallow clone and from a full one alike, though the new commit does not descend from the one the client has.
      expect(await objectsSent(["fetch", "--quiet", "--depth", "1", "origin"], a)).toBe(8);
      await git(["remote", "set-url", "origin", url(two)], b);
      expect(await objectsSent(["fetch", "--quiet", "origin"], b)).toBe(8);
      expect(await objectsSent(["fetch", "--quiet", "origin"], full)).toBe(8);
      const second = (await git(["rev-parse", "origin/main"], a)).stdout;
      expect(second).not.toBe(first);
      expect((await git(["rev-parse", "origin/main"], b)).stdout).toBe(second);
      expect((await git(["rev-parse", "origin/main"], full)).stdout).toBe(second);
      expect((await git(["rev-parse", "HEAD"], c)).stdout).toBe(second);
      expect((await git(["rev-list", "--parents", "origin/main"], full)).stdout).toBe(second);
      expect((await git(["show", "origin/main:skills/pdf/scripts/fill.py"], b)).stdout).toBe("print('fill, edited')");
      // A replica that never served the first content does not know the client's commit: it sends the whole tree,
      // the same commit.
      await git(["remote", "set-url", "origin", url(three)], d);
      expect(await objectsSent(["fetch", "--quiet", "--depth", "1", "origin"], d)).toBe(15);
      expect((await git(["rev-parse", "origin/main"], d)).stdout).toBe(second);
      // The earlier content's commit is kept but never advertised.
      expect((await git(["ls-remote", url(one)])).stdout.split("\n")).toEqual([`${second}\tHEAD`, `${second}\trefs/heads/main`]);

      // Back to the first content: its first commit again, on every replica, the one that never served it included.
      write(path.join(shelfDir, "kit", "skills", "pdf", "scripts", "fill.py"), "print('fill')\n");
      await Promise.all([one.service.rebuild(), three.service.rebuild()]);
      // The full clone holds the first content's commit already: no pack is sent at all.
      expect(await objectsSent(["fetch", "--quiet", "origin"], full)).toBe(0);
      expect((await git(["rev-parse", "origin/main"], full)).stdout).toBe(first);
      expect((await git(["ls-remote", url(three), "refs/heads/main"])).stdout).toBe(`${first}\trefs/heads/main`);
    } finally {
      await three.close();
      write(path.join(shelfDir, "kit", "skills", "pdf", "scripts", "fill.py"), "print('fill, edited')\n");
      await Promise.all([one.service.rebuild(), two.service.rebuild()]);
    }
  });

  test("a restarted replica answers the same commit from its cache, and after an edit made while it was down", async () => {
    const reposDir = makeTemp("skillshelf-repos-");
    const url = (served: Served): string => `${withToken(served.origin, WIDE_TOKEN)}/plugins/git/kit/kit.git`;
    let replica = await serve(shelfDir, reposDir);
    const before = (await git(["ls-remote", url(replica), "refs/heads/main"])).stdout;
    await replica.close();
    replica = await serve(shelfDir, reposDir);
    try {
      expect((await git(["ls-remote", url(replica), "refs/heads/main"])).stdout).toBe(before);
      // ls-remote asks twice (the v2 advertisement, then ls-refs): the repository on disk answered both.
      expect(replica.repos.stats).toEqual({ built: 0, reused: 2, removed: 0 });
      expect((await git(["ls-remote", url(one), "refs/heads/main"])).stdout).toBe(before);
    } finally {
      await replica.close();
    }
    write(path.join(shelfDir, "kit", "shared", "style.md"), "# Style, restarted\n");
    replica = await serve(shelfDir, reposDir);
    try {
      const after = (await git(["ls-remote", url(replica), "refs/heads/main"])).stdout;
      expect(after).not.toBe(before);
      expect(replica.repos.stats).toEqual({ built: 1, reused: 1, removed: 0 });
      await one.service.rebuild();
      expect((await git(["ls-remote", url(one), "refs/heads/main"])).stdout).toBe(after);
    } finally {
      await replica.close();
      write(path.join(shelfDir, "kit", "shared", "style.md"), "# Style\n");
      await one.service.rebuild();
    }
  });

  test("protocol v2 is spoken, a push is refused, and nothing but upload-pack is served", async () => {
    const base = `${one.origin}/plugins/git/kit/kit.git`;
    const auth = { Authorization: `Basic ${Buffer.from(`x:${WIDE_TOKEN}`).toString("base64")}` };
    const v2 = await fetch(`${base}/info/refs?service=git-upload-pack`, { headers: { ...auth, "Git-Protocol": "version=2" } });
    expect(v2.status).toBe(200);
    expect(v2.headers.get("content-type")).toBe("application/x-git-upload-pack-advertisement");
    expect((await v2.text()).startsWith("000eversion 2\n")).toBe(true);
    const push = await fetch(`${base}/info/refs?service=git-receive-pack`, { headers: auth });
    expect([push.status, await push.text()]).toEqual([403, "pushes are refused: this remote is read-only\n"]);
    const post = await fetch(`${base}/git-receive-pack`, { method: "POST", headers: auth, body: "0000" });
    expect(post.status).toBe(403);
    for (const dumb of ["HEAD", "info/refs", "objects/info/packs", "config"]) {
      expect({ dumb, status: (await fetch(`${base}/${dumb}`, { headers: auth })).status }).toEqual({ dumb, status: 404 });
    }
    const clone = path.join(makeTemp("skillshelf-clone-"), "c");
    await git(["clone", "--quiet", `${withToken(one.origin, WIDE_TOKEN)}/plugins/git/kit/kit.git`, clone]);
    fs.writeFileSync(path.join(clone, "x.md"), "x\n");
    await git(["-c", "user.name=t", "-c", "user.email=t@t", "commit", "--quiet", "-am", "x", "--allow-empty"], clone);
    await expect(git(["push", "origin", "HEAD:main"], clone)).rejects.toThrow(/403/);
  });

  test("an unknown repository and one out of scope are the same 404; without a credential git is asked for one", async () => {
    const narrow = withToken(one.origin, NARROW_TOKEN);
    const answers = await Promise.all(
      [`${narrow}/plugins/git/kit/kit.git`, `${narrow}/plugins/git/kit/none.git`, `${narrow}/plugins/git/none/ops.git`].map((url) =>
        fetch(`${url.replace(`x-token:${NARROW_TOKEN}@`, "")}/info/refs?service=git-upload-pack`, {
          headers: { Authorization: `Basic ${Buffer.from(`x-token:${NARROW_TOKEN}`).toString("base64")}` },
        }).then(async (response) => [response.status, await response.text()]),
      ),
    );
    expect(answers).toEqual([
      [404, "not found: no plugin or marketplace at this address for this caller\n"],
      [404, "not found: no plugin or marketplace at this address for this caller\n"],
      [404, "not found: no plugin or marketplace at this address for this caller\n"],
    ]);
    const ops = path.join(makeTemp("skillshelf-clone-"), "ops");
    await git(["clone", "--quiet", "--depth", "1", `${narrow}/plugins/git/ops/ops.git`, ops]);
    expect(fs.readFileSync(path.join(ops, "skills", "runbook", "SKILL.md"), "utf8")).toContain("Page the owner.");
    const anonymous = await fetch(`${one.origin}/plugins/git/kit/kit.git/info/refs?service=git-upload-pack`);
    expect([anonymous.status, anonymous.headers.get("www-authenticate")]).toEqual([401, 'Basic realm="skillshelf", charset="UTF-8"']);
    const wrong = await fetch(`${one.origin}/plugins/git/kit/kit.git/info/refs?service=git-upload-pack`, {
      headers: { Authorization: `Basic ${Buffer.from("x:not-a-token").toString("base64")}` },
    });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).not.toContain("not-a-token");
    await expect(git(["clone", "--quiet", `${one.origin}/plugins/git/kit/kit.git`, path.join(makeTemp(), "d")])).rejects.toThrow(
      /could not read Username|Authentication failed|terminal prompts disabled/,
    );
  });

  test("the marketplaces list each visible plugin with its git URL, description, version, category and keywords", async () => {
    const wide = { Authorization: `Bearer ${WIDE_TOKEN}` };
    const shelf = one.service.holder.current;
    const [kit, ops] = listPlugins(shelf, FULL_SCOPE).map((listed) => pluginContent(shelf, listed));
    const response = await fetch(`${one.origin}/plugins/marketplace.json`, { headers: wide });
    expect(response.headers.get("cache-control")).toBe("private, no-cache");
    expect(await response.json()).toEqual({
      name: "skillshelf",
      owner: { name: "skillshelf" },
      metadata: { description: "Every plugin this skillshelf serves you" },
      plugins: [
        {
          name: "kit",
          source: { source: "url", url: `${one.origin}/plugins/git/kit/kit.git` },
          description: "The team's kit",
          version: kit!.version,
          category: "productivity",
          keywords: ["tools"],
        },
        {
          name: "ops",
          source: { source: "url", url: `${one.origin}/plugins/git/ops/ops.git` },
          description: "On-call",
          version: ops!.version,
          keywords: ["oncall"],
        },
      ],
    });
    const narrow = await fetch(`${one.origin}/plugins/marketplace.json`, { headers: { Authorization: `Bearer ${NARROW_TOKEN}` } });
    expect(((await narrow.json()) as { plugins: { name: string }[] }).plugins.map((plugin) => plugin.name)).toEqual(["ops"]);
    const library = await fetch(`${one.origin}/plugins/libraries/ops/marketplace.json`, { headers: wide });
    expect(((await library.json()) as { name: string }).name).toBe("skillshelf-ops");
    const hidden = await fetch(`${one.origin}/plugins/libraries/kit/marketplace.json`, {
      headers: { Authorization: `Bearer ${NARROW_TOKEN}` },
    });
    expect(hidden.status).toBe(404);
    // A personal link: git URLs under the same link, no header needed.
    const link = await one.feeds.issue({ name: "narrow", scope: { library: "ops" }, user: false });
    const feed = (await (await fetch(`${one.origin}/feeds/${link.token}/plugins/marketplace.json`)).json()) as {
      plugins: { source: { url: string } }[];
    };
    expect(feed.plugins.map((plugin) => plugin.source.url)).toEqual([`${one.origin}/feeds/${link.token}/plugins/git/ops/ops.git`]);
    const viaFeed = path.join(makeTemp("skillshelf-clone-"), "feed");
    await git(["clone", "--quiet", "--depth", "1", feed.plugins[0]!.source.url, viaFeed]);
    expect(fs.existsSync(path.join(viaFeed, "skills", "runbook", "SKILL.md"))).toBe(true);
    expect((await fetch(`${one.origin}/feeds/forged/plugins/marketplace.json`)).status).toBe(404);
  });
});
