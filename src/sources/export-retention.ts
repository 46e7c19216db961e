// The exports a fetcher keeps on disk: those the current shelf serves stay; a superseded one is removed after a
// grace period (a request that began on the old shelf still finishes reading it), and at once on close.

export class ExportRetention {
  /** Every known export → its pending removal, or null while it is in use (or not yet superseded). */
  private readonly exports = new Map<string, NodeJS.Timeout | null>();
  private inUse = new Set<string>();

  /** `remove` deletes one export and whatever belongs to it. */
  constructor(
    private readonly graceMs: number,
    private readonly remove: (dir: string) => Promise<void>,
  ) {}

  /** An export now on disk (a new build, or one found at start-up). */
  add(dir: string): void {
    if (!this.exports.has(dir)) this.exports.set(dir, null);
  }

  /** The exports the current shelf serves: the rest are removed once the grace period passes. */
  retain(dirs: Iterable<string>): void {
    this.inUse = new Set(dirs);
    for (const [dir, timer] of this.exports) {
      if (this.inUse.has(dir)) {
        if (timer !== null) clearTimeout(timer);
        this.exports.set(dir, null);
      } else if (timer === null) {
        const removal = setTimeout(() => void this.removeNow(dir), this.graceMs);
        removal.unref();
        this.exports.set(dir, removal);
      }
    }
  }

  /** Stop the timers and remove what they were waiting for: nothing serves it after close. */
  async close(): Promise<void> {
    const pending: string[] = [];
    for (const [dir, timer] of this.exports) {
      if (timer !== null) {
        clearTimeout(timer);
        pending.push(dir);
      }
    }
    await Promise.all(pending.map((dir) => this.remove(dir)));
  }

  private async removeNow(dir: string): Promise<void> {
    if (this.inUse.has(dir)) return;
    this.exports.delete(dir);
    await this.remove(dir);
  }
}
