// The parent-link attack: a directory above a served file is replaced by a symlink to a copy outside the plugin
// root, in which each served file is a decoy of the same name, the same size and the same mtime (`touch -r`) but
// other bytes. `O_NOFOLLOW` refuses a link only in the last component, so nothing in the name of the file read
// tells the two apart. Shared by the live tests (in process) and the faults suite (the built server).
import { cpSync, mkdirSync, renameSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import path from "node:path";

/** In every decoy; no answer may ever contain it. */
export const SECRET = "MARKER-PARENT-LINK-SECRET-5b2c";
/** A word only the decoy SKILL.md's body holds: a search that matches it has read the decoy. */
export const DECOY_WORD = "zorblaxquint";

/** Over the content cache's 256 KiB entry size: such a file is not hashed on a read whose size and mtime match. */
const LARGE_BYTES = 300 * 1024;

export interface Target {
  /** From the plugin root. */
  readonly path: string;
  readonly uri: string;
  readonly text: string;
}

const skillMd = (body: string): string => `---\nname: alpha\ndescription: Alpha.\n---\n# alpha\n\n${body}\n`;
const pad = (head: string, size: number, fill: string): string => head + fill.repeat(size - Buffer.byteLength(head));

/** The served files of plugin `pa` in library `lib`, each two or more directories below the plugin root. */
export const TARGETS = {
  /** A skill's own SKILL.md: small (read hashed), its body read unhashed by the search index. */
  skillMd: { path: "skills/alpha/SKILL.md", uri: "skill://lib/alpha/SKILL.md", text: skillMd(pad("How to water the ferns.", 200, ".")) },
  /** A small file of the skill: hashed on every read from disk. */
  small: { path: "skills/alpha/one/two/small.md", uri: "skill://lib/alpha/one/two/small.md", text: pad("small ", 300, "s") },
  /** A file of the skill over the cache's entry size: served as read while its size and mtime match. */
  large: { path: "skills/alpha/one/two/large.txt", uri: "skill://lib/alpha/one/two/large.txt", text: pad("large ", LARGE_BYTES, "l") },
  /** A plugin-root file outside any skill: read through the library-level fallback, with no digest published. */
  fallback: { path: "notes/one/two/n.md", uri: "skill://lib/notes/one/two/n.md", text: pad("notes ", 400, "n") },
} as const satisfies Record<string, Target>;

export const ALL_TARGETS: readonly Target[] = Object.values(TARGETS);

/** The decoy of `target`: the same size, other bytes, the secret in them (and the decoy word in a SKILL.md body). */
function decoyOf(target: Target): string {
  const size = Buffer.byteLength(target.text);
  if (target === TARGETS.skillMd) {
    const head = skillMd(`${DECOY_WORD} ${SECRET}`).slice(0, -1);
    return `${pad(head, size - 1, ".")}\n`;
  }
  return pad(`${SECRET}\n`, size, "x");
}

/** The config of the fixture (written into `base`): plugin `pa` at `base/pa`, alone in library `lib`. */
export function parentLinkConfig(watch: boolean): string {
  return `plugins:\n  - {name: pa, source: ./pa, watch: ${watch}}\nlibraries:\n  - {name: lib, plugins: [pa]}\n`;
}

/** Writes plugin `pa` under `base` (and `base/outside`, the folder the links will lead to); answers the root. */
export function writeParentLinkPlugin(base: string): string {
  const root = path.join(base, "pa");
  for (const target of ALL_TARGETS) {
    mkdirSync(path.dirname(path.join(root, target.path)), { recursive: true });
    writeFileSync(path.join(root, target.path), target.text);
  }
  mkdirSync(path.join(base, "outside"), { recursive: true });
  return root;
}

/** The directories above `target` inside the root, nearest first: `one/two`'s `two`, then `one`, … up to the first
 *  segment. `levels[0]` is one level up. */
export function ancestorsOf(target: Target): string[] {
  const segments = target.path.split("/").slice(0, -1);
  return segments.map((_segment, i) => segments.slice(0, segments.length - i).join("/"));
}

/**
 * Replace directory `dir` (from the root) by a symlink to a copy of it under `base/outside`, in which every served
 * file below `dir` is a decoy with the original's size and mtime. The original is moved out of the root. Answers the
 * targets below `dir`.
 */
export function swapForLink(base: string, dir: string): Target[] {
  const root = path.join(base, "pa");
  const copy = path.join(base, "outside", "decoy", dir);
  mkdirSync(path.dirname(copy), { recursive: true });
  cpSync(path.join(root, dir), copy, { recursive: true });
  const below = ALL_TARGETS.filter((target) => target.path.startsWith(`${dir}/`));
  for (const target of below) {
    const decoy = path.join(base, "outside", "decoy", target.path);
    writeFileSync(decoy, decoyOf(target));
    // `touch -r` copies the mtime to the nanosecond, which a JavaScript Date cannot carry.
    execFileSync("touch", ["-r", path.join(root, target.path), decoy]);
    const [original, made] = [statSync(path.join(root, target.path)), statSync(decoy)];
    if (original.size !== made.size || original.mtimeMs !== made.mtimeMs)
      throw new Error(`decoy of ${target.path} differs in size or mtime`);
  }
  renameSync(path.join(root, dir), path.join(base, "outside", `moved-${dir.replaceAll("/", "-")}`));
  symlinkSync(copy, path.join(root, dir));
  return below;
}
