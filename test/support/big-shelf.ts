// A generated shelf with more skills than one page holds, in a fresh temporary directory, so pagination can be
// driven across a rebuild by adding and removing skills on disk.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

export interface BigShelf {
  /** The config file: plugin `big` served as library `big`. */
  readonly config: string;
  /** Skill names on disk now, sorted. */
  names(): string[];
  add(name: string): void;
  remove(name: string): void;
  /** The SKILL.md URI of `name`. */
  uri(name: string): string;
  dispose(): void;
}

/** `s000` … `s<count-1>`: names that sort the same way as their URIs. */
export function skillName(i: number): string {
  return `s${String(i).padStart(3, "0")}`;
}

export function makeBigShelf(count: number): BigShelf {
  const root = mkdtempSync(path.join(os.tmpdir(), "skillshelf-big-"));
  const config = path.join(root, "skillshelf.yaml");
  const skills = path.join(root, "big", "skills");
  const names = new Set<string>();
  writeFileSync(config, "plugins:\n  - name: big\n    source: ./big\nlibraries:\n  - name: big\n    plugins: [big]\n");
  const add = (name: string): void => {
    mkdirSync(path.join(skills, name), { recursive: true });
    writeFileSync(path.join(skills, name, "SKILL.md"), `---\nname: ${name}\ndescription: Generated skill ${name}.\n---\n# ${name}\n`);
    names.add(name);
  };
  for (let i = 0; i < count; i++) add(skillName(i));
  return {
    config,
    names: () => [...names].sort(),
    add,
    remove(name) {
      rmSync(path.join(skills, name), { recursive: true, force: true });
      names.delete(name);
    },
    uri: (name) => `skill://big/${name}/SKILL.md`,
    dispose: () => rmSync(root, { recursive: true, force: true }),
  };
}
