// A digest of everything a client or an operator can see of a shelf, so a rebuild that changes nothing keeps
// its generation and announces nothing.
import { createHash } from "node:crypto";
import { buildHealth } from "./health.js";
import type { Shelf } from "../shelf/index.js";

export function fingerprintShelf(shelf: Shelf): string {
  const hash = createHash("sha256");
  const { generation: _generation, built: _built, fetches, ...report } = buildHealth(shelf);
  hash.update(JSON.stringify(report));
  hash.update(
    JSON.stringify(
      Object.entries(fetches).map(([key, fetch]) => [key, fetch.status, fetch.watch ?? "", fetch.cooling === true, fetch.error ?? ""]),
    ),
  );
  for (const library of shelf.libraries.values()) {
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
  }
  for (const plugin of shelf.plugins.values()) {
    // Fallback reads serve whatever a file holds when read, so only which files exist is part of the shelf: a
    // touched file changes nothing a client can see.
    hash.update(`\0T${plugin.id}`);
    for (const path of plugin.tree.keys()) hash.update(`\0${path}`);
  }
  return hash.digest("hex");
}
