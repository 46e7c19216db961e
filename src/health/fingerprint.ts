// A digest of everything a client or an operator can see of a shelf, so a rebuild that changes nothing keeps
// its generation and announces nothing.
import { createHash } from "node:crypto";
import type { HarvestedPlugin } from "../harvest/index.js";
import { memoize } from "../memo/index.js";
import type { Library, Shelf } from "../shelf/index.js";
import { healthBasis } from "./health.js";

export function fingerprintShelf(shelf: Shelf): string {
  const hash = createHash("sha256");
  // The report's basis: its citation audit and name checks are derived from what is hashed below.
  const { generation: _generation, built: _built, fetches, ...report } = healthBasis(shelf);
  hash.update(JSON.stringify(report));
  hash.update(
    JSON.stringify(
      Object.entries(fetches).map(([key, fetch]) => [key, fetch.status, fetch.watch ?? "", fetch.cooling === true, fetch.error ?? ""]),
    ),
  );
  // Per library and per plugin, memoized: a rebuild keeps the libraries and plugins nothing changed in as the very
  // same objects, so only what changed is hashed again.
  for (const library of shelf.libraries.values()) hash.update(libraryDigest(library));
  for (const plugin of shelf.plugins.values()) hash.update(treeDigest(plugin));
  return hash.digest("hex");
}

const libraryDigest = memoize((library: Library): string => {
  const hash = createHash("sha256");
  hash.update(`\0L${library.name}`);
  for (const skill of library.skills.values()) {
    hash.update(`\0S${skill.uri}\0${skill.description}\0${JSON.stringify(skill.frontmatter)}`);
    for (const path of skill.paths) {
      const file = skill.files.get(path);
      // The executable bit is part of what an installed copy holds (the discovery index's archives).
      hash.update(`\0F${path}\0${file?.digest ?? ""}${file?.disk.executable === true ? "\0x" : ""}`);
    }
  }
  for (const [path, file] of library.files) hash.update(`\0P${path}\0${file.file.digest}`);
  for (const [name, prompt] of library.prompts) hash.update(`\0Q${name}\0${JSON.stringify(prompt)}`);
  return hash.digest("hex");
});

/** Fallback reads serve whatever a file holds when read, so only which files exist is part of the shelf: a touched
 *  file changes nothing a client can see. */
const treeDigest = memoize((plugin: HarvestedPlugin): string => {
  const hash = createHash("sha256");
  hash.update(`\0T${plugin.id}`);
  for (const path of plugin.tree.keys()) hash.update(`\0${path}`);
  return hash.digest("hex");
});
