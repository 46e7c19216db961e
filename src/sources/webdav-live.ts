// The live re-check of a `cache: live` WebDAV fetch: before a read of one of its files is served from the export,
// the share is asked for that file's tag, within a short budget. A changed file's bytes are served instead of the
// export's (until the next listing makes an export holding them); after a failure, reads come from the export for a
// while (cooling), announced through `onCooling` when it starts and ends.
import { LIVE_TIMING, type LiveTiming, type SourceFailure } from "./fetcher.js";
import { describeDavFailure } from "./webdav-errors.js";
import { type DavEntry, type DavFolder, DavShare } from "./webdav-share.js";

/** A file a live read found changed on the share: its tag there and its bytes now. */
interface Override {
  readonly tag: string;
  readonly bytes: Uint8Array;
}

interface LiveFetch {
  /** When each file's tag was last checked, and what was found. */
  readonly checked: Map<string, { readonly at: number; readonly override?: Override }>;
  coolUntil: number;
  coolTimer?: NodeJS.Timeout | undefined;
  coolReason?: string;
}

export interface LiveChecksOptions {
  /** Where `{env: NAME}` credentials are read from, each time the share is asked. */
  readonly env: NodeJS.ProcessEnv;
  readonly now: () => Date;
  readonly timing?: Partial<LiveTiming> | undefined;
  /** A live read never downloads a file larger than this (the config's `limits.fileBytes`). */
  readonly maxFileBytes?: number | undefined;
  /** A live fetch started or stopped cooling. */
  readonly onCooling?: ((key: string, cooling: boolean) => void) | undefined;
}

export class LiveChecks {
  private readonly live = new Map<string, LiveFetch>();
  private readonly timing: LiveTiming;

  constructor(private readonly options: LiveChecksOptions) {
    this.timing = { ...LIVE_TIMING, ...options.timing };
  }

  /** Start checking the reads of fetch `key` (a `cache: live` source); a fetch already checked keeps its state. */
  track(key: string): void {
    if (!this.live.has(key)) this.live.set(key, { checked: new Map(), coolUntil: 0 });
  }

  has(key: string): boolean {
    return this.live.has(key);
  }

  /** A new export holds what the share held at the listing: what reads found changed before is in it now. */
  newExport(key: string): void {
    this.live.get(key)?.checked.clear();
  }

  /** Why reads of `key` come from the export now, or undefined when they are checked. */
  coolingReason(key: string): string | undefined {
    const live = this.live.get(key);
    if (live === undefined || live.coolUntil <= this.nowMs()) return undefined;
    const seconds = Math.round(this.timing.coolMs / 100) / 10;
    return `a live read failed: ${live.coolReason ?? "the share did not answer"}; reads come from the export for ${seconds} s`;
  }

  /**
   * The bytes to serve instead of the export's for a read of `rel` (listed as `entry`) of fetch `key`, else
   * undefined (serve the export). Asks the share at most once per file per `trustMs`, waits at most `giveUpMs`, and
   * after a failure reads from the export for `coolMs`. Never throws.
   */
  async check(key: string, folder: DavFolder, rel: string, entry: DavEntry): Promise<Uint8Array | undefined> {
    const live = this.live.get(key);
    if (live === undefined) return undefined;
    const now = this.nowMs();
    if (live.coolUntil > now) return undefined;
    const last = live.checked.get(rel);
    if (last !== undefined && now - last.at < this.timing.trustMs) return last.override?.bytes;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.timing.giveUpMs);
    try {
      const share = DavShare.open(folder, this.options.env, this.timing.giveUpMs);
      const current = await share.tag(rel, controller.signal);
      let override: Override | undefined;
      // Gone from the share (or a folder now), or grown past the size limit: the export serves until a listing.
      if (current !== null && current.tag !== entry.tag && current.size <= (this.options.maxFileBytes ?? Infinity)) {
        const tag = current.tag;
        override = last?.override?.tag === tag ? last.override : { tag, bytes: await share.download(rel, controller.signal) };
      }
      live.checked.set(rel, override === undefined ? { at: this.nowMs() } : { at: this.nowMs(), override });
      return override?.bytes;
    } catch (error) {
      this.cool(key, live, describeDavFailure(error, folder.path, this.timing.giveUpMs));
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Stop checking `key` (no longer served). */
  forget(key: string): void {
    const live = this.live.get(key);
    if (live?.coolTimer !== undefined) clearTimeout(live.coolTimer);
    this.live.delete(key);
  }

  close(): void {
    for (const live of this.live.values()) if (live.coolTimer !== undefined) clearTimeout(live.coolTimer);
  }

  private cool(key: string, live: LiveFetch, failure: SourceFailure): void {
    live.coolUntil = this.nowMs() + this.timing.coolMs;
    live.coolReason = failure.message;
    live.checked.clear();
    if (live.coolTimer !== undefined) return;
    this.options.onCooling?.(key, true);
    live.coolTimer = setTimeout(() => {
      live.coolTimer = undefined;
      live.coolUntil = 0;
      this.options.onCooling?.(key, false);
    }, this.timing.coolMs);
    live.coolTimer.unref();
  }

  private nowMs(): number {
    return this.options.now().getTime();
  }
}
