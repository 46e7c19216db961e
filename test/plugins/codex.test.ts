// The plugins against the real Codex CLI (pinned in test/tools, a temporary HOME, everything on loopback). Codex adds
// a marketplace from a folder or a git repository, not from a URL: the scope's marketplace.json, saved as
// `.claude-plugin/marketplace.json` in a folder, is added as a local marketplace; Codex lists its plugins with their
// git URLs and `codex plugin add` clones one with git (the credential from git's store), byte for byte what the
// server serves; after an edit, the marketplace saved again and `plugin add` again install the new version; a narrow
// token's marketplace does not list the other plugins and its credential cannot clone them.
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
const CODEX = path.join(REPO_ROOT, "test", "tools", "node_modules", "@openai", "codex", "bin", "codex.js");

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

/** A HOME whose git holds `token` for the server. */
function homeWith(token: string): string {
  const home = makeTemp("skillshelf-codex-home-");
  fs.writeFileSync(path.join(home, ".gitconfig"), "[credential]\n\thelper = store\n");
  fs.writeFileSync(path.join(home, ".git-credentials"), `${one.origin.replace("http://", `http://x-token:${token}@`)}\n`, { mode: 0o600 });
  return home;
}

async function codex(home: string, ...args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, [CODEX, ...args], {
    cwd: home,
    env: { PATH: process.env["PATH"] ?? "", HOME: home, NO_COLOR: "1" },
    timeout: 120_000,
  });
  return stdout;
}

/** The caller's marketplace saved where Codex reads a local marketplace; answers the folder. */
async function saveMarketplace(token: string, dir = makeTemp("skillshelf-codex-marketplace-")): Promise<string> {
  const body = await (await fetch(`${one.origin}/plugins/marketplace.json`, { headers: { Authorization: `Bearer ${token}` } })).text();
  write(path.join(dir, ".claude-plugin", "marketplace.json"), body);
  return dir;
}

function filesUnder(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (at: string, prefix: string): void => {
    for (const name of fs.readdirSync(at).sort()) {
      const full = path.join(at, name);
      if (fs.statSync(full).isDirectory()) {
        if (name !== ".git") walk(full, `${prefix}${name}/`);
      } else out.set(`${prefix}${name}`, fs.readFileSync(full));
    }
  };
  walk(dir, "");
  return out;
}

/** What the server serves for `kit`: each file as resources/read returns it, and the manifest; and its version. */
async function servedKit(): Promise<{ files: Map<string, Buffer>; version: string }> {
  const shelf = one.service.holder.current;
  const listed = listPlugins(shelf, FULL_SCOPE).find((each) => each.plugin === "kit")!;
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
      `${JSON.stringify({ name: "kit", version: content.version, description: "The team's kit", keywords: ["tools"] }, null, 2)}\n`,
    ),
  );
  return { files: new Map([...out].sort(([a], [b]) => (a < b ? -1 : 1))), version: content.version };
}

describe("Codex", { timeout: 180_000 }, () => {
  test("adds the saved marketplace, installs a plugin byte for byte as served, and installs the new version after an edit", async () => {
    const home = homeWith(WIDE_TOKEN);
    const dir = await saveMarketplace(WIDE_TOKEN);
    expect(await codex(home, "plugin", "marketplace", "add", dir)).toContain("Added marketplace `skillshelf`");
    const listing = await codex(home, "plugin", "list");
    expect(listing).toMatch(new RegExp(`kit@skillshelf +not installed +${one.origin}/plugins/git/kit/kit\\.git`));
    expect(listing).toMatch(new RegExp(`ops@skillshelf +not installed +${one.origin}/plugins/git/ops/ops\\.git`));
    const served = await servedKit();
    const added = await codex(home, "plugin", "add", "kit@skillshelf");
    const root = path.join(home, ".codex", "plugins", "cache", "skillshelf", "kit", served.version);
    expect(added).toContain(`Installed plugin root: ${root}`);
    expect(filesUnder(root)).toEqual(served.files);
    expect(await codex(home, "plugin", "list")).toMatch(
      new RegExp(`kit@skillshelf +installed, enabled +${served.version.replace(/\./g, "\\.")} `),
    );

    write(path.join(shelfDir, "kit", "skills", "pdf", "scripts", "fill.py"), "print('fill, for codex')\n");
    await one.service.rebuild();
    await saveMarketplace(WIDE_TOKEN, dir);
    const now = await servedKit();
    expect(now.version).not.toBe(served.version);
    await codex(home, "plugin", "add", "kit@skillshelf");
    const updated = path.join(home, ".codex", "plugins", "cache", "skillshelf", "kit", now.version);
    expect(filesUnder(updated)).toEqual(now.files);
    expect(filesUnder(updated).get("skills/pdf/scripts/fill.py")!.toString()).toBe("print('fill, for codex')\n");
  });

  test("a narrow token's marketplace lists only its plugins, and its credential cannot install another", async () => {
    const home = homeWith(NARROW_TOKEN);
    const dir = await saveMarketplace(NARROW_TOKEN);
    await codex(home, "plugin", "marketplace", "add", dir);
    const listing = await codex(home, "plugin", "list");
    expect(listing).toContain("ops@skillshelf");
    expect(listing).not.toContain("kit@skillshelf");
    await codex(home, "plugin", "add", "ops@skillshelf");
    expect(fs.existsSync(path.join(home, ".codex", "plugins", "cache", "skillshelf", "ops"))).toBe(true);
    // A wide marketplace file in the narrow HOME: kit is listed, but git's credential is refused its repository.
    await saveMarketplace(WIDE_TOKEN, dir);
    await expect(codex(home, "plugin", "add", "kit@skillshelf")).rejects.toThrow(/not found|404|git clone/);
    expect(fs.existsSync(path.join(home, ".codex", "plugins", "cache", "skillshelf", "kit"))).toBe(false);
  });
});
