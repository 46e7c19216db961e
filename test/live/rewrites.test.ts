// A skill that exists all along is never "not found", however often its files are rewritten. A read that finds a
// file changed since the harvest waits for a rescan (asking for one when no watcher has reported the change yet),
// and that rescan holds the bytes it read of each changed file under the digest it publishes: the read after it
// answers with that version even when the file on disk has changed yet again in between. Before, it went back to the
// disk, found bytes that disagree with the published digest, and answered not found.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, expect, test } from "vitest";
import { ContentCache, ShelfReader, ShelfService } from "../../src/live/index.js";
import { FULL_SCOPE_ON } from "../../src/resolve/index.js";
import { tempDir } from "../support/temp.js";
import { configOf, writeUnder } from "./helpers.js";

const closers: (() => unknown)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const version = (n: string): string => `---\nname: busy\ndescription: Rewritten all the time.\n---\n# Version ${n}\n`;

test("a file rewritten again right after the rescan its read waited for still answers the version published", async () => {
  const base = tempDir("skillshelf-rewrites-");
  writeUnder(base, "kit/skills/busy/SKILL.md", version("0"));
  writeUnder(base, "kit/skills/busy/notes.md", "notes 0\n");
  const file = path.join(base, "kit/skills/busy/SKILL.md");
  const notes = path.join(base, "kit/skills/busy/notes.md");
  const contents = new ContentCache();
  const yaml = "plugins:\n  - {name: kit, source: ./kit, watch: false}\nlibraries:\n  - {name: lib, plugins: [kit]}\n";
  const service = await ShelfService.start(configOf(yaml, base), () => new Date(0), { contents });
  closers.push(() => service.close());
  // The writer strikes again the moment each rescan ends, before the read that waited for it reads.
  let next = "";
  const reader = new ShelfReader(service.holder, contents, {
    revalidate: async () => undefined,
    rescan: async () => {
      await service.rescan();
      writeFileSync(file, version(`${next}, again`));
      writeFileSync(notes, `notes ${next}, again\n`);
    },
  });
  const answers: string[] = [];
  const readBoth = async (): Promise<void> => {
    for (const uri of ["skill://lib/busy/SKILL.md", "skill://lib/busy/notes.md"]) {
      const read = await reader.read(uri, FULL_SCOPE_ON);
      answers.push(read.ok ? ("text" in read ? read.text : "a blob") : `not found: ${uri}`);
    }
  };
  // First, a change no rescan has seen: the read finds the file changed, asks for the rescan, and answers what that
  // rescan published although the file has moved on again since.
  next = "1";
  writeFileSync(file, version(next));
  writeFileSync(notes, `notes ${next}\n`);
  await readBoth();
  // Then rescans that the files outrun at once: every read answers the version the shelf publishes.
  for (let n = 2; n <= 10; n++) {
    next = String(n);
    writeFileSync(file, version(next));
    writeFileSync(notes, `notes ${next}\n`);
    await service.rescan();
    writeFileSync(file, version(`${next}, again`));
    writeFileSync(notes, `notes ${next}, again\n`);
    await readBoth();
  }
  expect(answers).toEqual(Array.from({ length: 10 }, (_, i) => [version(String(i + 1)), `notes ${i + 1}\n`]).flat());
});
