// A plugin whose root is a link re-pointed to another folder between rescans is harvested in the new folder, also
// when the rescan is for another plugin's change: the last harvest, found to lie within the old root on every rescan
// before, is not taken for the new root's.
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { ShelfService } from "../../src/live/index.js";
import { tempDir } from "../support/temp.js";
import { configOf } from "./helpers.js";

function writePlugin(dir: string, says: string): void {
  fs.mkdirSync(path.join(dir, "skills", "alpha"), { recursive: true });
  fs.writeFileSync(path.join(dir, "skills", "alpha", "SKILL.md"), `---\nname: alpha\ndescription: ${says}\n---\n\n# Alpha\n`);
}

test("a root re-pointed to another folder is harvested there, however often the same harvest was checked before", async () => {
  const base = tempDir("skillshelf-repointed-");
  writePlugin(path.join(base, "first"), "From the first folder.");
  writePlugin(path.join(base, "second"), "From the second folder.");
  writePlugin(path.join(base, "other"), "Another plugin.");
  fs.symlinkSync("first", path.join(base, "root"));
  const config = configOf("plugins:\n  - {name: kit, source: ./root, watch: false}\nlibraries:\n  - {name: kit, plugins: [kit]}\n", base);
  const service = await ShelfService.start(config, () => new Date(0));
  try {
    const alpha = () => service.holder.current.libraries.get("kit")?.skills.get("alpha");
    // Only the other plugin seen to change: this one's last harvest is checked against its root, again and again.
    await service.rescan(new Set(["./other"]));
    await service.rescan(new Set(["./other"]));
    expect(alpha()?.description).toBe("From the first folder.");
    fs.rmSync(path.join(base, "root"));
    fs.symlinkSync("second", path.join(base, "root"));
    await service.rescan(new Set(["./other"]));
    expect(alpha()?.description).toBe("From the second folder.");
    expect(alpha()?.files.get("SKILL.md")?.disk.abs).toBe(path.join(fs.realpathSync(base), "second", "skills", "alpha", "SKILL.md"));
  } finally {
    await service.close();
  }
});
