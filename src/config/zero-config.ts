// `skillshelf serve <dir>…` with no config file (§8): each directory is one library holding one convention
// plugin of the same name. Pure: no directory is read here (harvest reports a missing one).
import path from "node:path";
import { DEFAULT_FILE_BYTES, DEFAULT_TTL_MS } from "./defaults.js";
import type { ConfigError, ConfigResult, LibraryConfig, Naming, PluginConfig } from "./types.js";

const MAX_NAME = 64;

/** What a directory served without a config is searched for: every SKILL.md at any depth (the directory itself as
 *  one skill, flat, grouped, the conventions), and the hidden folders directly inside a `skills` folder
 *  (`skills/.curated/*`), which the wildcard alone never enters. `node_modules` and hidden folders such as `.git`
 *  stay unwalked. */
export const DISCOVERY_SKILLS: readonly string[] = ["**/SKILL.md", "**/skills/.*/**/SKILL.md"];

/** `My Skills_v2` => `my-skills-v2`; `Café` => `cafe`; `日本` => `` (nothing usable is left). */
export function slugName(text: string): string {
  const dashed = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "") // the accents NFKD split off
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-");
  // `dashed` holds no run of two '-': one at either end is all there is to trim, before and after the cut.
  const slug = dashed.replace(/^-|-$/g, "");
  return slug.slice(0, MAX_NAME).replace(/-$/, "");
}

/** Each directory (as the user wrote it, relative to `cwd`) becomes library and plugin `slugName(basename)`.
 *  Names are lenient unless asked otherwise: a folder of skills gathered from anywhere should serve. */
export function configFromDirectories(dirs: readonly string[], cwd: string, naming: Naming = "lenient"): ConfigResult {
  const errors: ConfigError[] = [];
  const firstDir = new Map<string, string>();
  const plugins: PluginConfig[] = [];
  const libraries: LibraryConfig[] = [];
  for (const dir of dirs) {
    const abs = path.resolve(cwd, dir);
    const name = slugName(path.basename(abs));
    // Errors name the directory as the user wrote it, never the resolved absolute path.
    if (name === "") {
      errors.push({ file: dir, path: "/", rule: "the directory's name has no letter or digit to name a library after; use a config file" });
      continue;
    }
    const first = firstDir.get(name);
    if (first !== undefined) {
      errors.push({ file: dir, path: "/", rule: `names library '${name}', as '${first}' does already; rename one or use a config file` });
      continue;
    }
    firstDir.set(name, dir);
    plugins.push({
      name,
      // The fetch key is the library name: the operator wrote no address, and the absolute path stays internal.
      address: { kind: "local", abs, written: name },
      description: "",
      tags: [],
      keywords: [],
      skills: DISCOVERY_SKILLS,
      dialect: "auto",
      watch: true,
      naming,
    });
    libraries.push({ name, description: "", plugins: [name] });
  }
  if (dirs.length === 0) errors.push({ file: "(command line)", path: "/", rule: "name at least one directory to serve, or a config file" });
  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    config: {
      file: null,
      sources: [],
      plugins,
      libraries,
      clients: [],
      anonymous: true,
      ttlMs: DEFAULT_TTL_MS,
      limits: { fileBytes: DEFAULT_FILE_BYTES },
    },
  };
}
