// The shelf: immutable once built, one per generation; a rebuild makes a new one.
import type { DiskFile, HarvestedPlugin } from "../harvest/index.js";
import type { PromptDef } from "../prompts/index.js";
import type { GuardAction, GuardFinding } from "../guard/index.js";

/** A guard finding as a library serves it: the file's skill:// URI, the skill it lies in (innermost), and what
 *  the library's policy made of it. */
export interface ShelfFinding extends GuardFinding {
  readonly plugin: string;
  /** The file's address in the library. */
  readonly uri: string;
  /** The SKILL.md URI of the innermost skill holding the file; absent for a library file or a prompt. */
  readonly skill?: string;
  /** The prompt's name, for a finding in a prompt file. */
  readonly prompt?: string;
  readonly action: GuardAction;
}

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
  /** Every guard finding in what the library's served plugins hold, by file URI then line. */
  readonly findings?: readonly ShelfFinding[];
  /** Skills (SKILL.md URIs) and prompts (names) a finding quarantined: left out of `skills` and `prompts`. */
  readonly quarantined?: readonly { readonly skill?: string; readonly prompt?: string; readonly plugin: string }[];
}

export interface FetchReport {
  readonly status: "ok" | "stale" | "failed";
  readonly built?: string;
  readonly watch?: "watching" | "degraded" | "off";
  /** A live WebDAV fetch whose share failed a read's revalidation: reads come from the export for a while. */
  readonly cooling?: boolean;
  readonly error?: string;
}

/** Immutable once built; a rebuild makes a new one. */
export interface Shelf {
  readonly generation: number;
  /** ISO time of the build (given by the caller: the shelf itself never reads a clock). */
  readonly built: string;
  readonly libraries: ReadonlyMap<string, Library>;
  readonly plugins: ReadonlyMap<string, HarvestedPlugin>;
  readonly fetches: ReadonlyMap<string, FetchReport>;
}
