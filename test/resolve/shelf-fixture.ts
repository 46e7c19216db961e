// Builds Shelf objects straight from literals, for the pure resolver's tests: no disk, fake `abs` values.
import { mimeTypeFor } from "../../src/address/index.js";
import type { DiskFile, HarvestedFile, HarvestedPlugin } from "../../src/harvest/index.js";
import type { Library, LibraryFile, ServedFile, Shelf, Skill } from "../../src/shelf/index.js";
import type { Scope } from "../../src/resolve/index.js";
import { sha256 } from "../support/digest.js";

export interface SkillSpec {
  /** The skill directory relative to the plugin root. */
  readonly dir: string;
  /** Address below the library; default: `dir` minus its skill root (`skills/a/b` => `a/b`). */
  readonly address?: string;
  readonly description?: string;
  /** Files relative to the skill dir => content. `SKILL.md` is made up when absent. */
  readonly files?: Readonly<Record<string, string>>;
}

export interface PluginSpec {
  readonly id: string;
  /** Default: the id. */
  readonly fetch?: string;
  /** Default: `""`. */
  readonly root?: string;
  readonly skills?: readonly SkillSpec[];
  /** Skill directories harvest found but skipped: in `skillDirs` and the library's `skillAddresses`. */
  readonly skippedDirs?: readonly string[];
  /** Library files (path from the plugin root => content); also on the tree. */
  readonly libraryFiles?: Readonly<Record<string, string>>;
  /** Further files on the tree (fallback-readable), beside the skills' and library files. */
  readonly tree?: Readonly<Record<string, string>>;
}

export interface LibrarySpec {
  readonly name: string;
  readonly description?: string;
  readonly plugins: readonly string[];
  /** Default: every plugin of `plugins`. */
  readonly served?: readonly string[];
}

export interface ShelfSpec {
  readonly plugins: readonly PluginSpec[];
  readonly libraries: readonly LibrarySpec[];
}

const SKILL_ROOTS = [".github/skills/", ".claude/skills/", ".agents/skills/", "skills/"];
const OWNERS = new WeakMap<object, string>();
const ENCODER = new TextEncoder();

/** The plugin id that owns a ServedFile or DiskFile of a fixture shelf. */
export function ownerOf(file: object): string | undefined {
  return OWNERS.get(file);
}

export function digestOf(content: string): string {
  return sha256(content);
}

export function skillMd(name: string, description: string): string {
  return `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\n---\n# ${name}\n`;
}

export function scopeOf(spec: { library?: string | undefined; plugins?: readonly string[] | undefined }): Scope {
  const plugins = spec.plugins === undefined ? null : new Set(spec.plugins);
  const key = `${spec.library ?? "*"}|${plugins === null ? "*" : [...plugins].sort().join(",")}`;
  return { library: spec.library ?? null, plugins, key };
}

function addressOf(dir: string): string {
  const root = SKILL_ROOTS.find((prefix) => dir.startsWith(prefix));
  return root === undefined ? dir : dir.slice(root.length);
}

function joinPath(head: string, tail: string): string {
  return head === "" ? tail : `${head}/${tail}`;
}

function diskFile(plugin: string, path: string, content: string): HarvestedFile {
  const size = ENCODER.encode(content).byteLength;
  const disk = { path, abs: `fixture:${plugin}/${path}`, size, mtimeMs: 0, digest: digestOf(content), text: true };
  OWNERS.set(disk, plugin);
  return disk;
}

function servedFile(plugin: string, disk: HarvestedFile, content: string): ServedFile {
  const bytes = ENCODER.encode(content);
  const file: ServedFile = { size: bytes.byteLength, digest: disk.digest, mimeType: mimeTypeFor(disk.path), text: true, bytes, disk };
  OWNERS.set(file, plugin);
  return file;
}

interface BuiltPlugin {
  readonly plugin: HarvestedPlugin;
  /** Per skill: address, dir, description, files keyed relative to the skill dir. */
  readonly skills: readonly { address: string; dir: string; description: string; files: Map<string, ServedFile> }[];
  readonly libraryFiles: ReadonlyMap<string, ServedFile>;
  readonly skippedAddresses: readonly string[];
}

function buildPlugin(spec: PluginSpec): BuiltPlugin {
  const tree = new Map<string, DiskFile>();
  const served = new Map<string, ServedFile>(); // by path from the plugin root
  const put = (path: string, content: string): ServedFile => {
    const disk = diskFile(spec.id, path, content);
    tree.set(path, disk);
    const file = servedFile(spec.id, disk, content);
    served.set(path, file);
    return file;
  };
  const skillSpecs = spec.skills ?? [];
  for (const skill of skillSpecs) {
    const address = skill.address ?? addressOf(skill.dir);
    const name = address.slice(address.lastIndexOf("/") + 1);
    const files = { "SKILL.md": skillMd(name, skill.description ?? `The ${name} skill.`), ...skill.files };
    for (const [path, content] of Object.entries(files)) put(joinPath(skill.dir, path), content);
  }
  const libraryFiles = new Map<string, ServedFile>();
  for (const [path, content] of Object.entries(spec.libraryFiles ?? {})) libraryFiles.set(path, put(path, content));
  for (const [path, content] of Object.entries(spec.tree ?? {})) {
    const disk = diskFile(spec.id, path, content);
    tree.set(path, disk);
  }
  const skills = skillSpecs.map((skill) => {
    const address = skill.address ?? addressOf(skill.dir);
    const files = new Map<string, ServedFile>();
    // A skill's files include its nested skills' files (every file under its directory).
    const prefix = skill.dir === "" ? "" : `${skill.dir}/`;
    for (const [path, file] of served) {
      if (path.startsWith(prefix) && !libraryFiles.has(path)) files.set(path.slice(prefix.length), file);
    }
    return { address, dir: skill.dir, description: skill.description ?? `The ${address.split("/").pop()} skill.`, files };
  });
  const skillDirs = [...skillSpecs.map((skill) => skill.dir), ...(spec.skippedDirs ?? [])];
  const plugin: HarvestedPlugin = {
    id: spec.id,
    meta: { description: "", tags: [], keywords: [] },
    fetch: spec.fetch ?? spec.id,
    root: spec.root ?? "",
    status: "ok",
    skills: [],
    libraryFiles: [],
    tree,
    skillDirs,
    prompts: [],
    skipped: [],
  };
  return { plugin, skills, libraryFiles, skippedAddresses: (spec.skippedDirs ?? []).map(addressOf) };
}

export function buildTestShelf(spec: ShelfSpec): Shelf {
  const built = new Map(spec.plugins.map((plugin) => [plugin.id, buildPlugin(plugin)]));
  const libraries = new Map<string, Library>();
  for (const lib of spec.libraries) {
    const served = lib.served ?? lib.plugins;
    const skills = new Map<string, Skill>();
    const files = new Map<string, LibraryFile>();
    const skillAddresses = new Set<string>();
    for (const id of served) {
      const entry = built.get(id);
      if (entry === undefined) continue;
      for (const skill of entry.skills) {
        skillAddresses.add(skill.address);
        const address = skill.address.split("/");
        const name = address[address.length - 1] as string;
        if (skills.has(skill.address)) continue;
        skills.set(skill.address, {
          uri: `skill://${lib.name}/${skill.address}`,
          library: lib.name,
          plugin: id,
          address,
          name,
          description: skill.description,
          frontmatter: { name, description: skill.description },
          dir: skill.dir,
          files: skill.files,
          paths: [...skill.files.keys()].sort(),
        });
      }
      for (const address of entry.skippedAddresses) skillAddresses.add(address);
      for (const [path, file] of entry.libraryFiles) if (!files.has(path)) files.set(path, { plugin: id, path, file });
    }
    // A variable, not a literal, so the fixture builds whether or not the model carries `prompts` yet.
    const library = {
      name: lib.name,
      description: lib.description ?? "",
      plugins: lib.plugins,
      served,
      skills,
      files,
      prompts: new Map(),
      skillAddresses,
      conflicts: [],
      skipped: [],
    };
    libraries.set(lib.name, library);
  }
  return {
    generation: 1,
    built: "2026-01-01T00:00:00.000Z",
    libraries,
    plugins: new Map([...built].map(([id, entry]) => [id, entry.plugin])),
    fetches: new Map(),
  };
}
