// Writes the local harvests into the cache directory's record, a second after a build and off the request path, so
// a restart with an unchanged config can skip the walk. A build that kept every local harvest as it was writes
// nothing; a record that cannot be written costs the next cold start its shortcut, nothing more.
import { describeErrorCode } from "../address/index.js";
import { type Logger } from "../log/index.js";
import { writeHarvestCache } from "../assemble/index.js";
import type { HarvestedPlugin } from "../harvest/index.js";
import type { Tree } from "../sources/index.js";

/** How long after a build its harvest record is written. */
const RECORD_DELAY_MS = 1000;

export class HarvestRecorder {
  /** The local harvests last recorded (or being recorded), by plugin id; the writes, one after another. */
  private recorded: ReadonlyMap<string, HarvestedPlugin> = new Map();
  private recording: Promise<void> = Promise.resolve();
  /** Ends the wait before the pending write at once (close). */
  private hurry: (() => void) | undefined;
  private closed = false;

  /** `cacheDir` absent: nothing is recorded. */
  constructor(
    private readonly cacheDir: string | undefined,
    private readonly configDigest: string,
    private readonly log: Logger | undefined,
  ) {}

  /** What is on disk already (a start served from the record): only a harvest that differs is written again. */
  knowRecorded(plugins: ReadonlyMap<string, HarvestedPlugin>): void {
    this.recorded = plugins;
  }

  record(plugins: Iterable<HarvestedPlugin>, trees: ReadonlyMap<string, Tree>): void {
    const cacheDir = this.cacheDir;
    if (cacheDir === undefined) return;
    const local = new Map<string, HarvestedPlugin>();
    for (const plugin of plugins) {
      if (plugin.status === "ok" && trees.get(plugin.fetch)?.kind === "local") local.set(plugin.id, plugin);
    }
    if (local.size === this.recorded.size && [...local].every(([id, plugin]) => this.recorded.get(id) === plugin)) return;
    this.recorded = local;
    this.recording = this.recording
      .then(() => this.delay())
      .then(() => writeHarvestCache(cacheDir, this.configDigest, [...local.values()]))
      .catch((error: unknown) => {
        this.recorded = new Map();
        this.log?.log("warn", "harvest record not written", { error: describeErrorCode(error) });
      });
  }

  /** Write what is pending now, and wait for it. */
  async close(): Promise<void> {
    this.closed = true;
    this.hurry?.();
    await this.recording;
  }

  /** The wait before a record is written: its JSON is tens of MB on a large shelf, and the first requests after a
   *  start should not queue behind it. Cut short by close(). */
  private delay(): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.hurry = undefined;
        resolve();
      };
      const timer = setTimeout(done, RECORD_DELAY_MS);
      timer.unref();
      this.hurry = done;
    });
  }
}
