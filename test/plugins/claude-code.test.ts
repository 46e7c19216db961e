// The plugins against the real Claude Code CLI (pinned in test/tools, a temporary HOME each, everything on
// loopback): every marketplace the server makes passes `claude plugin validate`; a marketplace added with a token
// installs a plugin whose files are byte for byte what resources/read serves; after an edit, `marketplace update`
// and `plugin update` install the new bytes; a narrow token installs only its plugins; a personal link installs with
// no credential at all.
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { listPlugins, pluginContent } from "../../src/plugins/index.js";
import { FULL_SCOPE, FULL_SCOPE_ON } from "../../src/resolve/index.js";
import { makeTemp, removeTemps } from "../sources/git-fixture.js";
import { REPO_ROOT } from "../support/process.js";
import { NARROW_TOKEN, WIDE_TOKEN, serve, write, writeShelf, type Served } from "./fixture.js";

const run = promisify(execFile);
const CLAUDE = path.join(REPO_ROOT, "test", "tools", "node_modules", "@anthropic-ai", "claude-code", "bin", "claude.exe");

let shelfDir: string;
let one: Served;

beforeAll(async () => {
  shelfDir = writeShelf();
  one = await serve(shelfDir);
});

afterAll(async () => {
  await one.close();
  removeTemps();
});

/** A HOME whose git holds `token` for the server (a credential store, as for GitHub). */
function homeWith(token: string | undefined): string {
  const home = makeTemp("skillshelf-claude-home-");
  if (token !== undefined) {
    fs.writeFileSync(path.join(home, ".gitconfig"), "[credential]\n\thelper = store\n");
    fs.writeFileSync(path.join(home, ".git-credentials"), `${one.origin.replace("http://", `http://x-token:${token}@`)}\n`, {
      mode: 0o600,
    });
  }
  return home;
}

async function claude(home: string, ...args: string[]): Promise<string> {
  const { stdout } = await run(CLAUDE, args, {
    cwd: home,
    env: { PATH: process.env["PATH"] ?? "", HOME: home, CI: "1", NO_COLOR: "1", DISABLE_TELEMETRY: "1", DISABLE_AUTOUPDATER: "1" },
    timeout: 120_000,
  });
  return stdout;
}

interface Installed {
  id: string;
  version: string;
  installPath: string;
}

async function installed(home: string): Promise<Installed[]> {
  return (JSON.parse(await claude(home, "plugin", "list", "--json")) as Installed[]).filter((plugin) => !plugin.id.endsWith("@builtin"));
}

/** Every file under `dir` but Claude Code's own markers, by path. */
function filesUnder(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (at: string, prefix: string): void => {
    for (const name of fs.readdirSync(at).sort()) {
      const full = path.join(at, name);
      if (fs.statSync(full).isDirectory()) {
        if (name !== ".git") walk(full, `${prefix}${name}/`);
      } else if (name !== ".in_use") out.set(`${prefix}${name}`, fs.readFileSync(full));
    }
  };
  walk(dir, "");
  return out;
}

/** What the server serves for the plugin: each file as resources/read returns it, and the manifest. */
async function servedFiles(plugin: string): Promise<Map<string, Buffer>> {
  const shelf = one.service.holder.current;
  const listed = listPlugins(shelf, FULL_SCOPE).find((each) => each.plugin === plugin)!;
  const content = pluginContent(shelf, listed);
  const out = new Map<string, Buffer>();
  for (const entry of content.entries) {
    if ("text" in entry) {
      out.set(entry.path, Buffer.from(entry.text));
      continue;
    }
    const read = await one.reader.read(entry.uri, FULL_SCOPE_ON);
    if (!read.ok) throw new Error(`${entry.uri}: ${read.message}`);
    out.set(entry.path, "text" in read ? Buffer.from(read.text) : Buffer.from(read.blob, "base64"));
  }
  out.set(
    ".claude-plugin/plugin.json",
    Buffer.from(
      `${JSON.stringify({ name: listed.name, version: content.version, description: listed.meta.description, keywords: [...listed.meta.tags] }, null, 2)}\n`,
    ),
  );
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : 1)));
}

describe("Claude Code", { timeout: 120_000 }, () => {
  test("validates every marketplace the server makes", async () => {
    const home = homeWith(undefined);
    for (const address of [
      "/plugins/marketplace.json",
      "/plugins/libraries/kit/marketplace.json",
      "/plugins/libraries/ops/marketplace.json",
    ]) {
      const body = await (await fetch(`${one.origin}${address}`, { headers: { Authorization: `Bearer ${WIDE_TOKEN}` } })).text();
      const file = path.join(makeTemp("skillshelf-marketplace-"), ".claude-plugin", "marketplace.json");
      write(file, body);
      expect(await claude(home, "plugin", "validate", file)).toContain("Validation passed");
    }
  });

  test("installs a plugin with a token, byte for byte as served, and updates it after an edit", async () => {
    const home = homeWith(WIDE_TOKEN);
    await claude(
      home,
      "plugin",
      "marketplace",
      "add",
      `${one.origin.replace("http://", `http://x-token:${WIDE_TOKEN}@`)}/plugins/marketplace.json`,
    );
    await claude(home, "plugin", "install", "kit@skillshelf");
    const [kit] = await installed(home);
    const served = await servedFiles("kit");
    expect(kit!.id).toBe("kit@skillshelf");
    expect(kit!.version).toBe(JSON.parse(served.get(".claude-plugin/plugin.json")!.toString()).version);
    expect(filesUnder(kit!.installPath)).toEqual(served);

    write(path.join(shelfDir, "kit", "skills", "pdf", "scripts", "fill.py"), "print('fill, edited')\n");
    await one.service.rebuild();
    await claude(home, "plugin", "marketplace", "update", "skillshelf");
    // Claude Code clones afresh (`git clone --depth 1` into a new folder) to update: that the new content's commit
    // is a root commit, not a descendant of the one installed, does not matter to it.
    await claude(home, "plugin", "update", "kit@skillshelf");
    const [updated] = await installed(home);
    const now = await servedFiles("kit");
    expect(updated!.version).not.toBe(kit!.version);
    expect(updated!.version).toBe(JSON.parse(now.get(".claude-plugin/plugin.json")!.toString()).version);
    expect(filesUnder(updated!.installPath)).toEqual(now);
    expect(filesUnder(updated!.installPath).get("skills/pdf/scripts/fill.py")!.toString()).toBe("print('fill, edited')\n");
  });

  test("a narrow token installs only its plugins; a personal link installs with no credential", async () => {
    const home = homeWith(NARROW_TOKEN);
    await claude(
      home,
      "plugin",
      "marketplace",
      "add",
      `${one.origin.replace("http://", `http://x-token:${NARROW_TOKEN}@`)}/plugins/marketplace.json`,
    );
    await expect(claude(home, "plugin", "install", "kit@skillshelf")).rejects.toThrow(/not found/i);
    await claude(home, "plugin", "install", "ops@skillshelf");
    expect((await installed(home)).map((plugin) => plugin.id)).toEqual(["ops@skillshelf"]);
    // Its git credential does not reach the other plugin's repository either.
    await expect(
      run("git", ["clone", "--depth", "1", `${one.origin}/plugins/git/kit/kit.git`, path.join(home, "kit")], {
        env: { PATH: process.env["PATH"] ?? "", HOME: home, GIT_TERMINAL_PROMPT: "0" },
      }),
    ).rejects.toThrow(/not found|404/);

    const bare = homeWith(undefined);
    const link = await one.feeds.issue({ name: "narrow", scope: { library: "ops" }, user: false });
    await claude(bare, "plugin", "marketplace", "add", `${one.origin}/feeds/${link.token}/plugins/libraries/ops/marketplace.json`);
    await claude(bare, "plugin", "install", "ops@skillshelf-ops");
    const [ops] = await installed(bare);
    expect(filesUnder(ops!.installPath)).toEqual(await servedFiles("ops"));
  });
});
