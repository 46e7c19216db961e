// What harvest hands the pure stages: plain data read off one plugin root. `abs` paths are internal: they never
// appear in any message, report or answer.
import type { SkipRow } from "../address/index.js";
import type { Dialect } from "../config/index.js";
import type { FileFinding, GuardFinding } from "../guard/index.js";
import type { HarvestedPromptFile, ParsedPrompt } from "../prompts/index.js";

/** A file on disk as harvest found it. `abs` is internal: it never appears in any message, report or answer. */
export interface DiskFile {
  /** POSIX path relative to the plugin root, as reached (a followed in-root symlink keeps its own name). */
  readonly path: string;
  readonly abs: string;
  readonly size: number;
  readonly mtimeMs: number;
  /** The owner may execute it (mode `u+x`): installed copies keep it. Absent otherwise. */
  readonly executable?: true;
}

/** A file whose served bytes were read and hashed at harvest. */
export interface HarvestedFile extends DiskFile {
  /** sha256 over the bytes on disk: `sha256:` + 64 lower-case hex. */
  readonly digest: string;
  /** Whether the bytes are valid UTF-8 (served as text, else as a base64 blob). */
  readonly text: boolean;
  /** The bytes, kept only for a SKILL.md whose body has placeholders to substitute; every other file is read
   *  from `abs` when served. */
  readonly bytes?: Uint8Array;
  /** What the guard found in these bytes (absent: nothing); kept with the read, so an unchanged file is not
   *  checked again. */
  readonly findings?: readonly FileFinding[];
}

export interface HarvestedSkill {
  /** The skill directory relative to the plugin root (`""` for a whole-plugin skill). */
  readonly dir: string;
  /** Address segments below the library: the folder segments then the name. `skills/a/b` → `["a", "b"]`. */
  readonly address: readonly string[];
  readonly name: string;
  readonly description: string;
  /** The parsed frontmatter mapping, verbatim. */
  readonly frontmatter: Readonly<Record<string, unknown>>;
  /** SKILL.md as on disk; its raw bytes are kept when `placeholders` (they are substituted per library at build). */
  readonly skillMd: HarvestedFile;
  /** Byte offset in SKILL.md where the body (after the frontmatter) starts. */
  readonly bodyOffset: number;
  /** What the body cites (§3.6), as the author wrote it, in order, each once. */
  readonly cites: readonly string[];
  /** Set when the frontmatter's name breaks the naming rule and the skill is served under this name (naming:
   *  lenient): the served SKILL.md and frontmatter have this name (`frontmatter` stays as parsed from the file),
   *  and `skillMd.bytes` holds the file's bytes. */
  readonly servedName?: string;
  /** Set when the description is over the limit (naming: lenient): the description served, cut at a word
   *  boundary, in the frontmatter and the served SKILL.md alike. */
  readonly servedDescription?: string;
  /** Set when MCP hosts would refuse the frontmatter as written (naming: lenient): the served frontmatter, one
   *  `key: <JSON>` line per key (`yaml`), and the mapping hosts read from it (`value`), which is what skills/list
   *  publishes. `skillMd.bytes` then holds the file's bytes. */
  readonly servedFrontmatter?: { readonly yaml: string; readonly value: Readonly<Record<string, unknown>> };
  /** Whether the body holds `${CLAUDE_PLUGIN_ROOT}`, `${CLAUDE_SKILL_DIR}` or `{baseDir}` (§2.3). */
  readonly placeholders: boolean;
  /** Every served file of the skill except SKILL.md, paths relative to the skill dir, nested skills' files included. */
  readonly files: readonly HarvestedFile[];
}

export interface PluginMeta {
  readonly description: string;
  readonly category?: string;
  readonly tags: readonly string[];
  readonly keywords: readonly string[];
  readonly version?: string;
}

/** One plugin after harvest: plain data, everything the pure stages need. */
export interface HarvestedPlugin {
  /** Plugin id: its config name, or `<entry>@<library>` for a marketplace entry. */
  readonly id: string;
  readonly meta: PluginMeta;
  /** The fetch key (§10): the address as the config wrote it. */
  readonly fetch: string;
  /** The subdirectory inside the fetch (`""` for the fetch root). */
  readonly root: string;
  readonly status: "ok" | "failed";
  readonly error?: string;
  readonly skills: readonly HarvestedSkill[];
  /** Library files picked by `files` globs, paths relative to the plugin root, sorted. */
  readonly libraryFiles: readonly HarvestedFile[];
  /** Every file under the root that could be served by a fallback read (not hidden, not node_modules, not a
   *  symlink leaving the root), keyed by path relative to the plugin root. */
  readonly tree: ReadonlyMap<string, DiskFile>;
  /** Every skill directory found (served or skipped), relative to the plugin root; fallback reads refuse them. */
  readonly skillDirs: readonly string[];
  readonly prompts: readonly HarvestedPromptFile[];
  /** The plugin's prompt dialect from the config (`auto` when absent). */
  readonly dialect?: Dialect;
  /** The prompts that parse (set by `parsePluginPrompts`, which also adds the prompt skip rows to `skipped`). */
  readonly parsedPrompts?: readonly ParsedPrompt[];
  readonly skipped: readonly SkipRow[];
  /** What was served although it bends a rule (naming: lenient), one row per file and rule; absent when none. */
  readonly warnings?: readonly SkipRow[];
  /** What the guard found in the plugin's skill files, library files and prompts, by path from the plugin root
   *  (absent: nothing). What each finding does is the shelf's policy, not the harvest's. */
  readonly findings?: readonly GuardFinding[];
  /** A digest of the harvest's input and of every walked file's real path, size and mtime: a later harvest whose
   *  walk gives the same key keeps this one as it is. */
  readonly walkKey?: string;
}
