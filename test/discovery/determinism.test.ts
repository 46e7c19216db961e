// Two replicas (or one server before and after a restart, or across a rebuild) serving the same content publish
// the same discovery index and the same artifacts, byte for byte: installers compare digests, and a load balancer
// may send the index request to one replica and the download to another.
import fs from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { extract } from "tar-stream";
import { afterAll, expect, test } from "vitest";
import { Discovery, type ReadBytes } from "../../src/discovery/index.js";
import { ContentCache, ShelfReader } from "../../src/live/index.js";
import { ShelfService } from "../../src/live/shelf-service.js";
import { FULL_SCOPE, FULL_SCOPE_ON, visibleSkills } from "../../src/resolve/index.js";
import { makeTemp, removeTemps } from "../sources/git-fixture.js";
import { configOf } from "../live/helpers.js";

afterAll(() => removeTemps());

function write(file: string, text: string | Buffer): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

async function publish(service: ShelfService, discovery = new Discovery()): Promise<{ index: string; artifacts: Map<string, Buffer> }> {
  const reader = new ShelfReader(service.holder, new ContentCache());
  const read: ReadBytes = async (uri) => {
    const outcome = await reader.read(uri, FULL_SCOPE_ON);
    if (!outcome.ok) return null;
    return "text" in outcome ? new TextEncoder().encode(outcome.text) : new Uint8Array(Buffer.from(outcome.blob, "base64"));
  };
  const shelf = service.holder.current;
  const visible = visibleSkills(shelf, FULL_SCOPE);
  const index = await discovery.index(shelf, FULL_SCOPE.key, { folder: [] }, visible, read);
  const artifacts = new Map<string, Buffer>();
  for (const skill of visible) artifacts.set(skill.uri, Buffer.from((await discovery.artifact(shelf, skill, read)).bytes));
  return { index: Buffer.from(index.body).toString("utf8"), artifacts };
}

test("two servers over the same content, and one server across a rebuild, publish identical bytes", async () => {
  const dir = makeTemp("skillshelf-determinism-");
  const kit = path.join(dir, "kit");
  write(
    path.join(kit, "skills", "pdf", "SKILL.md"),
    "---\nname: pdf\ndescription: Fill forms.\n---\nSee ${CLAUDE_PLUGIN_ROOT}/shared/a.md and [b](refs/b.md).\n",
  );
  write(path.join(kit, "skills", "pdf", "refs", "b.md"), "# B\n");
  write(path.join(kit, "skills", "pdf", "bin", "blob.bin"), Buffer.from([0, 1, 2, 255, 254]));
  write(path.join(kit, "shared", "a.md"), "# A\n");
  const yaml = `plugins:\n  - {name: kit, source: ./kit, files: ["shared/**"]}\nlibraries:\n  - {name: kit, plugins: [kit]}\n`;
  const first = await ShelfService.start(configOf(yaml, dir), () => new Date(0), { cacheDir: makeTemp() });
  // The second replica starts later, with its own cache directory, and sees files touched since.
  const later = Date.now() / 1000 + 3600;
  for (const file of ["skills/pdf/SKILL.md", "skills/pdf/refs/b.md", "shared/a.md"]) fs.utimesSync(path.join(kit, file), later, later);
  const second = await ShelfService.start(configOf(yaml, dir), () => new Date(86_400_000), { cacheDir: makeTemp() });
  try {
    const one = await publish(first);
    const two = await publish(second);
    expect(two.index).toBe(one.index);
    expect(two.artifacts).toEqual(one.artifacts);
    expect(JSON.parse(one.index).skills).toHaveLength(1);
    // One server's caches across rebuilds: unchanged content is the same; a change to a cited library file (and
    // nothing else) makes the artifact that copied it in again.
    const kept = new Discovery();
    expect(await publish(first, kept)).toEqual(one);
    await first.rebuild();
    expect(await publish(first, kept)).toEqual(one);
    write(path.join(kit, "shared", "a.md"), "# A, revised\n");
    await first.rebuild();
    const changed = await publish(first, kept);
    expect(changed).toEqual(await publish(first));
    expect(changed.index).not.toBe(one.index);
    expect(changed.artifacts.get("skill://kit/pdf")).not.toEqual(one.artifacts.get("skill://kit/pdf"));
  } finally {
    await first.close();
    await second.close();
  }
});

test("an archive keeps the executable bit, and only it: 0755 for a file its owner may run, 0644 for any other", async () => {
  const dir = makeTemp("skillshelf-modes-");
  const kit = path.join(dir, "kit");
  write(path.join(kit, "skills", "deploy", "SKILL.md"), "---\nname: deploy\ndescription: Deploy.\n---\nRun scripts/run.sh.\n");
  write(path.join(kit, "skills", "deploy", "scripts", "run.sh"), "#!/bin/sh\necho ok\n");
  write(path.join(kit, "skills", "deploy", "notes.md"), "# Notes\n");
  fs.chmodSync(path.join(kit, "skills", "deploy", "scripts", "run.sh"), 0o700);
  fs.chmodSync(path.join(kit, "skills", "deploy", "notes.md"), 0o666);
  const yaml = `plugins:\n  - {name: kit, source: ./kit}\nlibraries:\n  - {name: kit, plugins: [kit]}\n`;
  const service = await ShelfService.start(configOf(yaml, dir), () => new Date(0), { cacheDir: makeTemp() });
  try {
    const archive = (await publish(service)).artifacts.get("skill://kit/deploy") as Buffer;
    const modes = new Map<string, number>();
    const extractor = extract();
    extractor.on("entry", (header, stream, next) => {
      modes.set(header.name, header.mode ?? -1);
      stream.on("end", next);
      stream.resume();
    });
    await new Promise<void>((resolve, reject) => {
      extractor.on("finish", resolve);
      extractor.on("error", reject);
      extractor.end(gunzipSync(archive));
    });
    expect(Object.fromEntries(modes)).toEqual({ "SKILL.md": 0o644, "notes.md": 0o644, "scripts/run.sh": 0o755 });
    // Making it executable is a change of content: the next shelf's archive differs.
    fs.chmodSync(path.join(kit, "skills", "deploy", "notes.md"), 0o755);
    await service.rebuild();
    expect((await publish(service)).artifacts.get("skill://kit/deploy")).not.toEqual(archive);
  } finally {
    await service.close();
  }
});
