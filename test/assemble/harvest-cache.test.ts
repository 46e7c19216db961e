// The cache directory's record of local harvests (§9): a restart with an unchanged config reuses the recorded
// digest of every file at the same real path, size and mtime, reads whatever changed, and builds the shelf a cold
// start builds. A changed config, or a record that is corrupted or not ours, is ignored.
import fs from "node:fs";
import path from "node:path";
import { afterAll, expect, test } from "vitest";
import { configFromDirectories } from "../../src/config/index.js";
import type { Config } from "../../src/config/types.js";
import { HARVEST_FILE } from "../../src/assemble/index.js";
import { ShelfService } from "../../src/live/shelf-service.js";
import { makeTemp, removeTemps, skillMd, writeFiles } from "../sources/git-fixture.js";
import type { HarvestedFile } from "../../src/harvest/index.js";
import type { Shelf } from "../../src/shelf/index.js";
import { sha256 } from "../support/digest.js";

afterAll(() => removeTemps());

const STILL = 1_700_000_000; // seconds: one fixed mtime, restored after a same-size rewrite

/** A shelf of two local directories; `big.txt` is over the small-file threshold, so its bytes are not kept. */
function fixture(): { readonly base: string; readonly big: string; readonly small: string } {
  const base = makeTemp();
  writeFiles(path.join(base, "plain"), {
    "skills/alpha/SKILL.md": skillMd("alpha"),
    "skills/alpha/big.txt": "a".repeat(20_000),
    "skills/alpha/small.txt": "small one\n",
    "skills/beta/SKILL.md": skillMd("beta"),
  });
  writeFiles(path.join(base, "other"), { "skills/gamma/SKILL.md": skillMd("gamma") });
  const big = path.join(base, "plain/skills/alpha/big.txt");
  fs.utimesSync(big, STILL, STILL);
  return { base, big, small: path.join(base, "plain/skills/alpha/small.txt") };
}

/** Same size, other bytes, the same mtime: only a reader that trusts the record misses the change. */
function rewriteUnseen(file: string): void {
  fs.writeFileSync(file, "b".repeat(fs.statSync(file).size));
  fs.utimesSync(file, STILL, STILL);
}

function configOf(base: string, dirs: readonly string[]): Config {
  const result = configFromDirectories(dirs, base);
  if (!result.ok) throw new Error("zero-config refused");
  return result.config;
}

async function shelfOf(config: Config, cacheDir?: string): Promise<Shelf> {
  const service = await ShelfService.start(config, () => new Date(0), cacheDir === undefined ? {} : { cacheDir });
  await service.close();
  return service.current;
}

/** What a client can see of every served file: per plugin, skill and path, its size, digest, text-ness and kept bytes. */
function served(shelf: Shelf): unknown {
  const fileView = (file: HarvestedFile) => ({
    size: file.size,
    digest: file.digest,
    text: file.text,
    bytes: file.bytes === undefined ? null : Buffer.from(file.bytes).toString("base64"),
  });
  return [...shelf.plugins.values()].map((plugin) => ({
    id: plugin.id,
    status: plugin.status,
    skills: plugin.skills.map((skill) => ({
      dir: skill.dir,
      name: skill.name,
      frontmatter: skill.frontmatter,
      bodyOffset: skill.bodyOffset,
      skillMd: fileView(skill.skillMd),
      files: skill.files.map((file) => ({ path: file.path, ...fileView(file) })),
    })),
    tree: [...plugin.tree.keys()],
  }));
}

function digestOfBig(shelf: Shelf): string | undefined {
  return shelf.plugins
    .get("plain")
    ?.skills.find((s) => s.dir === "skills/alpha")
    ?.files.find((f) => f.path === "big.txt")?.digest;
}

test("a restart with the record reuses unchanged files, reads changed ones, and serves what a cold start serves", async () => {
  const { base, big, small } = fixture();
  const cacheDir = makeTemp();
  const config = configOf(base, ["plain", "other"]);
  const first = await shelfOf(config, cacheDir);
  expect(fs.existsSync(path.join(cacheDir, HARVEST_FILE))).toBe(true);
  // Unchanged: the restart's shelf is the cold start's, bytes included.
  expect(served(await shelfOf(config, cacheDir))).toEqual(served(first));
  expect(served(await shelfOf(config, cacheDir))).toEqual(served(await shelfOf(config)));

  // A same-size rewrite under the same mtime keeps its recorded digest: the file was not read again.
  const recordedDigest = digestOfBig(first);
  rewriteUnseen(big);
  expect(digestOfBig(await shelfOf(config, cacheDir))).toBe(recordedDigest);
  expect(digestOfBig(await shelfOf(config))).not.toBe(recordedDigest);

  // A file that changed (size, mtime) is read again; a new skill is harvested.
  fs.writeFileSync(small, "a longer small one\n");
  fs.writeFileSync(big, "c".repeat(30_000));
  writeFiles(path.join(base, "plain"), { "skills/delta/SKILL.md": skillMd("delta") });
  const warm = await shelfOf(config, cacheDir);
  expect(served(warm)).toEqual(served(await shelfOf(config)));
  expect(digestOfBig(warm)).not.toBe(recordedDigest);
  expect(warm.plugins.get("plain")?.skills.map((s) => s.name)).toEqual(["alpha", "beta", "delta"]);
});

test("a changed config ignores the record", async () => {
  const { base, big } = fixture();
  const cacheDir = makeTemp();
  const before = await shelfOf(configOf(base, ["plain", "other"]), cacheDir);
  rewriteUnseen(big);
  const after = await shelfOf(configOf(base, ["plain"]), cacheDir);
  expect(digestOfBig(after)).not.toBe(digestOfBig(before));
  expect(served(after)).toEqual(served(await shelfOf(configOf(base, ["plain"]))));
});

test("a corrupted or foreign record is ignored", async () => {
  const { base, big } = fixture();
  const cacheDir = makeTemp();
  const config = configOf(base, ["plain", "other"]);
  const before = await shelfOf(config, cacheDir);
  const file = path.join(cacheDir, HARVEST_FILE);
  const text = fs.readFileSync(file, "utf8");
  // A header line, one line per plugin, then a trailer with the digest of the plugin lines.
  const lines = text.split("\n");
  const header = JSON.parse(lines[0] as string) as { version: number; config: string };
  const plugins = lines.slice(1, -1);
  const trailer = lines[lines.length - 1] as string;
  expect(plugins.length).toBe(2);
  rewriteUnseen(big);
  const fresh = served(await shelfOf(config));
  const record = (head: object, body: readonly string[], tail: string): string => [JSON.stringify(head), ...body, tail].join("\n");
  const damaged = [
    "{ not json",
    record(header, plugins, "").slice(text.indexOf("\n") + 1), // no header
    record({ ...header, version: 99 }, plugins, trailer),
    record({ ...header, config: "another config" }, plugins, trailer),
    // The right header and trailer, but plugin lines that are not the ones the digest describes: none is trusted.
    record(
      header,
      plugins.map((line) => line.replace('"id":"plain"', '"id":"plainer"')),
      trailer,
    ),
    record(header, plugins, ""), // cut before the trailer
  ];
  for (const bad of damaged) {
    fs.writeFileSync(file, bad);
    const shelf = await shelfOf(config, cacheDir);
    expect(digestOfBig(shelf)).not.toBe(digestOfBig(before));
    expect(served(shelf)).toEqual(fresh);
  }
});

test("fromRecord serves the recorded harvest without walking the disk, until a rescan verifies it", async () => {
  const { base } = fixture();
  const cacheDir = makeTemp();
  const config = configOf(base, ["plain", "other"]);
  const first = await shelfOf(config, cacheDir);
  writeFiles(path.join(base, "plain"), { "skills/delta/SKILL.md": skillMd("delta") });
  const service = await ShelfService.start(config, () => new Date(0), { cacheDir, fromRecord: true });
  try {
    expect(served(service.current)).toEqual(served(first));
    expect([...service.unverified].sort()).toEqual(["other", "plain"]);
    await service.rescan(service.unverified);
    expect(service.current.plugins.get("plain")?.skills.map((s) => s.name)).toEqual(["alpha", "beta", "delta"]);
    expect(served(service.current)).toEqual(served(await shelfOf(config)));
  } finally {
    await service.close();
  }
  // Without a record (or without fromRecord) nothing is unverified: the first shelf is what the disk holds.
  const plain = await ShelfService.start(config, () => new Date(0), { fromRecord: true });
  expect(plain.unverified.size).toBe(0);
  await plain.close();
});

test("fromRecord never serves a recorded file outside the plugin's root: that plugin is harvested again", async () => {
  const { base } = fixture();
  const cacheDir = makeTemp();
  const config = configOf(base, ["plain", "other"]);
  await shelfOf(config, cacheDir);
  const outside = path.join(makeTemp(), "secret.txt");
  fs.writeFileSync(outside, "a".repeat(20_000));
  // Re-point big.txt's recorded path outside the root (and through `..`), with a trailer that matches.
  const file = path.join(cacheDir, HARVEST_FILE);
  const lines = fs.readFileSync(file, "utf8").split("\n");
  type Line = { id: string; skills: { dir: string; files: { path: string; abs: string }[] }[] };
  for (const forged of [outside, path.join(base, "plain", "..", "..", outside)]) {
    const body = lines.slice(1, -1).map((text) => {
      const plugin = JSON.parse(text) as Line;
      for (const f of plugin.skills.find((skill) => skill.dir === "skills/alpha")?.files ?? []) if (f.path === "big.txt") f.abs = forged;
      return JSON.stringify(plugin);
    });
    expect(body.join("\n")).toContain(JSON.stringify(forged));
    const digest = sha256(body.map((line) => `${line}\n`).join(""));
    fs.writeFileSync(file, [lines[0], ...body, JSON.stringify({ digest })].join("\n"));
    const service = await ShelfService.start(config, () => new Date(0), { cacheDir, fromRecord: true });
    try {
      const big = service.current.plugins
        .get("plain")
        ?.skills.find((s) => s.dir === "skills/alpha")
        ?.files.find((f) => f.path === "big.txt");
      expect(big?.abs).toBe(path.join(fs.realpathSync(base), "plain/skills/alpha/big.txt"));
    } finally {
      await service.close();
    }
  }
});

test("a cache directory that cannot be written costs only the shortcut", async () => {
  const { base } = fixture();
  const config = configOf(base, ["plain"]);
  const blocked = path.join(makeTemp(), "a-file");
  fs.writeFileSync(blocked, "not a directory");
  const shelf = await shelfOf(config, blocked);
  expect(served(shelf)).toEqual(served(await shelfOf(config)));
});
