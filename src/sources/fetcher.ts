// The one interface every kind of fetched source implements (git repositories, WebDAV folders, any kind registered
// beside them in kinds.ts), the one shape of what a fetch gives, and the one failure type, naming the source kind.
import type { Config, SourceConfig, SourceKindRules } from "../config/index.js";

/** Why a fetch failed: `auth` is a credential refused or unavailable, `ref` a ref or commit the source lacks,
 *  `missing` a folder the source does not have. */
export type FailureKind = "auth" | "unreachable" | "ref" | "missing" | "timeout" | "other";

/** A failure in a fixed sentence an operator can act on: never a URL, a path of the cache or a credential. */
export class SourceFailure extends Error {
  constructor(
    /** The source kind that failed: `git`, `webdav`. */
    readonly source: string,
    readonly kind: FailureKind,
    message: string,
  ) {
    super(message);
    this.name = "SourceFailure";
  }
}

/** What one fetch asks for: its key, the declared source, the path the address names inside it (`owner/repo` of a
 *  git host, a folder of a WebDAV share; `""` for the source itself) and a ref where the kind takes one. */
export interface FetchRequest {
  readonly key: string;
  readonly source: SourceConfig;
  readonly path: string;
  readonly ref?: string;
}

export interface Fetched {
  readonly key: string;
  /** `stale`: the last refresh failed and the last good tree serves. */
  readonly status: "ok" | "stale" | "failed";
  /** Absolute path of the exported tree (internal: never in a message). Absent when failed. */
  readonly dir?: string;
  /** What the tree holds: a git commit, the digest of a WebDAV listing. */
  readonly version?: string;
  /** When this version was first served. */
  readonly built?: string;
  readonly error?: string;
  readonly failure?: FailureKind;
  /** A live fetch whose source failed a read's re-check: reads come from the export until it ends. */
  readonly cooling?: boolean;
  /** Why it is cooling, as a fixed sentence. */
  readonly coolingError?: string;
}

export interface Fetcher {
  /** A tree for `request`. `refresh` asks the source again (a branch re-resolved, a folder listed); without it a
   *  known tree serves as is. Concurrent calls for one key share one fetch. Never throws: failure is a state. */
  materialize(request: FetchRequest, refresh: boolean): Promise<Fetched>;
  /** The fetch keys the current shelf uses: states of the others are forgotten and every export none of them serves
   *  is removed after the grace period. Rejects when what the fetcher keeps on disk (a record) could not be written;
   *  the trees still serve. */
  retain(keys: Iterable<string>): Promise<void>;
  /** For a live source, the bytes to serve instead of the export's for a read of `abs` when the file changed at the
   *  source, else undefined (serve the export). Never throws. */
  revalidate?(abs: string): Promise<Uint8Array | undefined>;
  /** Stop the timers and remove the superseded exports they were waiting for. */
  close(): Promise<void>;
}

/** How a live read re-checks its file: trust a tag this long, give up on the source after this long, and read from
 *  the export this long after a failure. */
export interface LiveTiming {
  readonly trustMs: number;
  readonly giveUpMs: number;
  readonly coolMs: number;
}

export const LIVE_TIMING: LiveTiming = { trustMs: 2_000, giveUpMs: 1_000, coolMs: 30_000 };

/** What a fetcher is opened with: one per kind and service, over the shared cache directory. */
export interface FetcherContext {
  readonly cacheDir: string;
  /** Digest of the config: a record written under another config is discarded. */
  readonly configDigest: string;
  readonly config: Config;
  /** Where credentials' `{env: NAME}` are read, when used. */
  readonly env: NodeJS.ProcessEnv;
  readonly now: () => Date;
  /** How long a superseded export stays on disk. */
  readonly graceMs?: number;
  /** How long one request to the source may take. */
  readonly timeoutMs?: number;
  /** How a live source re-checks a read (docs/sources.md, "Live reads"); defaults apply to what is not given. */
  readonly live?: Partial<LiveTiming>;
  /** A live fetch started or stopped cooling (the caller reports it on /health). */
  readonly onCooling: (key: string, cooling: boolean) => void;
}

/** One kind of fetched source: its rules in the config (the URL schemes, the address grammar) and its fetcher. */
export interface SourceKind {
  readonly rules: SourceKindRules;
  /** The fetcher of this kind, opened once per service when the config declares a source of this kind. */
  open(context: FetcherContext): Promise<Fetcher>;
}
