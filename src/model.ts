// The data that flows down the pipeline: config → harvest → shelf → resolve.
// Types only; every stage imports from here so the stages agree on one shape.
import type { Dialect } from "./config/types.js";
import type { ParsedPrompt, PromptDef } from "./prompts/types.js";

/** A file on disk as harvest found it. `abs` is internal: it never appears in any message, report or answer. */
export interface DiskFile {
  /** POSIX path relative to the plugin root, as reached (a followed in-root symlink keeps its own name). */
  readonly path: string;
  readonly abs: string;
  readonly size: number;
  readonly mtimeMs: number;
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
}

export interface SkipRow {
  /** Relative to the plugin root; a skipped skill's path is its directory, a skipped file's path is the file. */
  readonly path: string;
  readonly reason: string;
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
  /** Whether the body holds `${CLAUDE_PLUGIN_ROOT}` or `${CLAUDE_SKILL_DIR}` (§2.3). */
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
  /** A digest of the harvest's input and of every walked file's real path, size and mtime: a later harvest whose
   *  walk gives the same key keeps this one as it is. */
  readonly walkKey?: string;
}

/** A prompt file as harvest read it; the prompts module decides the dialect and arguments. */
export interface HarvestedPromptFile {
  /** Relative to the plugin root. */
  readonly path: string;
  readonly text: string;
  /** True when the file was picked as a Claude command (under `commands/` or declared as commands). */
  readonly command: boolean;
}

// ───────────────────────────── the shelf ─────────────────────────────

/** A file as the shelf serves it: metadata of the exact bytes a read returns. */
export interface ServedFile {
  readonly size: number;
  readonly digest: string;
  readonly mimeType: string;
  readonly text: boolean;
  /** The served bytes when they are not the file's (SKILL.md after substitution); else read from `disk`. */
  readonly bytes?: Uint8Array;
  /** Where the bytes live on disk when `bytes` is absent; the shell verifies size/mtime/digest on read. */
  readonly disk: DiskFile;
}

export interface Skill {
  /** `skill://<library>/<folder…>/<name>` (no trailing slash). */
  readonly uri: string;
  readonly library: string;
  readonly plugin: string;
  /** Address segments below the library (`[...folder, name]`), joined by `/` is the key in `Library.skills`. */
  readonly address: readonly string[];
  readonly name: string;
  readonly description: string;
  readonly frontmatter: Readonly<Record<string, unknown>>;
  /** The skill directory relative to its plugin root. */
  readonly dir: string;
  /** Every served file keyed by path relative to the skill directory, `SKILL.md` included, nested skills' files included. */
  readonly files: ReadonlyMap<string, ServedFile>;
  /** Paths of `files`, sorted in code-unit order. */
  readonly paths: readonly string[];
}

export interface LibraryFile {
  readonly plugin: string;
  /** Path relative to the plugin root = address below the library. */
  readonly path: string;
  readonly file: ServedFile;
}

export interface LibraryConflict {
  /** The plugin dropped from the library. */
  readonly plugin: string;
  readonly message: string;
}

export interface Library {
  readonly name: string;
  readonly description: string;
  /** Plugins the library names, in library order, before conflicts. */
  readonly plugins: readonly string[];
  /** Plugins served after conflicts, in library order. */
  readonly served: readonly string[];
  /** Skills keyed by their address path (`folder/name`). */
  readonly skills: ReadonlyMap<string, Skill>;
  /** Library files keyed by path, first plugin in library order wins. */
  readonly files: ReadonlyMap<string, LibraryFile>;
  /** Prompts keyed by name (`<library>_<stem>`). */
  readonly prompts: ReadonlyMap<string, PromptDef>;
  /** Every skill address of the library ignoring scope, served or skipped (for the fallback refusal). */
  readonly skillAddresses: ReadonlySet<string>;
  readonly conflicts: readonly LibraryConflict[];
  /** A library-level error (a marketplace that cannot be read, an `x@lib` naming no entry); the library's
   *  other plugins still serve. */
  readonly error?: string;
  /** Marketplace entries that could not be served. */
  readonly skipped: readonly { readonly plugin: string; readonly reason: string }[];
}

export interface Dangling {
  readonly skill: string;
  readonly cites: string;
}

export interface FetchReport {
  readonly status: "ok" | "stale" | "failed";
  readonly built?: string;
  readonly watch?: "watching" | "degraded" | "off";
  readonly error?: string;
}

/** Immutable once built; a rebuild makes a new one. */
export interface Shelf {
  readonly generation: number;
  /** ISO time of the build (given by the caller: the shelf itself never reads a clock). */
  readonly built: string;
  readonly libraries: ReadonlyMap<string, Library>;
  readonly plugins: ReadonlyMap<string, HarvestedPlugin>;
  /** Dangling citations per plugin id. */
  readonly dangling: ReadonlyMap<string, readonly Dangling[]>;
  readonly fetches: ReadonlyMap<string, FetchReport>;
}

// ───────────────────────────── scopes and answers ─────────────────────────────

/** The part of the shelf one request may see; compiled against a shelf. `null` means "no restriction". */
export interface Scope {
  readonly library: string | null;
  /** Plugin ids admitted; `null` admits every plugin. */
  readonly plugins: ReadonlySet<string> | null;
  /** A stable key for caches (two equal scopes have equal keys). */
  readonly key: string;
}

export type Answer =
  | {
      readonly kind: "file";
      readonly uri: string;
      readonly mimeType: string;
      /** Metadata of the served bytes. */
      readonly file: ServedFile;
    }
  | {
      /** A plugin-root fallback read: bytes, size and type are only known once read from disk. */
      readonly kind: "fallback";
      readonly uri: string;
      readonly mimeType: string;
      readonly disk: DiskFile;
    }
  | {
      readonly kind: "document";
      readonly uri: string;
      readonly mimeType: string;
      readonly text: string;
    }
  | {
      readonly kind: "notFound";
      readonly uri: string;
      /** The full message: `Not found: <uri>. …` */
      readonly message: string;
    };
