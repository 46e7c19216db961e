// Fixture trees for harvest tests, built in a fresh temporary directory at test time (symlinks included).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { type HarvestedPlugin, type HarvestInput, harvestPlugin } from "../../src/harvest/index.js";

/** A file's content, a symlink (target as written, relative to the link's directory) or an empty directory. */
export type Node = string | Uint8Array | { readonly symlink: string } | { readonly dir: true } | { readonly sparse: number };
export type Tree = Readonly<Record<string, Node>>;

const made: string[] = [];

/** Build `tree` under a new temporary directory and return that directory (its real path). */
export function makeTree(tree: Tree): string {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "skillshelf-harvest-")));
  made.push(base);
  for (const [rel, node] of Object.entries(tree)) {
    const abs = path.join(base, ...rel.split("/"));
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    if (typeof node === "string" || node instanceof Uint8Array) fs.writeFileSync(abs, node);
    else if ("symlink" in node) fs.symlinkSync(node.symlink, abs);
    else if ("sparse" in node) {
      fs.writeFileSync(abs, "");
      fs.truncateSync(abs, node.sparse); // Big without writing the bytes: a size-limit file costs nothing.
    } else fs.mkdirSync(abs, { recursive: true });
  }
  return base;
}

export function removeTrees(): void {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

export const META = { description: "a plugin", tags: [], keywords: [] };

/** Harvest `rootAbs` as plugin `kit` of fetch `./kit`, with the default 8 MiB file limit. */
export function harvest(rootAbs: string, over: Partial<HarvestInput> = {}): Promise<HarvestedPlugin> {
  return harvestPlugin({ id: "kit", meta: META, fetch: "./kit", root: "", rootAbs, limits: { fileBytes: 8 * 1024 * 1024 }, ...over });
}

/** A SKILL.md with this name and description (and extra frontmatter lines), LF line ends. */
export function skillMd(name: string, description = `Use ${name}.`, extra = ""): string {
  return `---\nname: ${name}\ndescription: ${description}\n${extra}---\n# ${name}\n`;
}

/** The served skills as `dir => [address, files…]`, the shape most assertions compare. */
export function skillsOf(plugin: HarvestedPlugin): Record<string, { address: string; files: string[] }> {
  return Object.fromEntries(plugin.skills.map((s) => [s.dir, { address: s.address.join("/"), files: s.files.map((f) => f.path) }]));
}
