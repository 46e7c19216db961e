// Watching local plugin roots (§9). chokidar, because Node's recursive fs.watch on Linux misses events in
// directories created after the watch started on Node 20 and reports renames inconsistently; chokidar keeps
// one inotify watch per directory, follows new directories, and reports errors instead of going quiet.
// Events are coalesced over a quiet window so a burst of writes is one rescan.
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import chokidar, { type FSWatcher } from "chokidar";

export type WatchState = "watching" | "degraded" | "off";

export interface WatchTarget {
  /** The fetch key the root belongs to. */
  readonly fetch: string;
  /** Absolute root to watch. Internal: never reported. */
  readonly abs: string;
}

export interface WatchOptions {
  /** Quiet window in ms: a rescan starts once no event arrived for this long. */
  readonly quietMs: number;
  /** Called with the fetch keys whose roots changed, once per quiet window. */
  readonly onChange: (fetches: ReadonlySet<string>) => void;
  /** Called when a root's watch state changes. */
  readonly onState: (fetch: string, state: WatchState) => void;
}

const MAX_WAIT_WINDOWS = 5;
const VISIBLE_DOT_NAMES = new Set([".github", ".claude", ".agents"]);

/** Hidden entries and node_modules are never served, so their churn (`.git`, editor swap files) is ignored. */
export function isIgnoredPath(root: string, file: string): boolean {
  const rel = path.relative(root, file);
  if (rel === "" || rel.startsWith("..")) return false;
  return rel.split(path.sep).some((segment) => segment === "node_modules" || (segment.startsWith(".") && !VISIBLE_DOT_NAMES.has(segment)));
}

function isDirectory(abs: string): boolean {
  return existsSync(abs) && statSync(abs).isDirectory();
}

export class RootWatcher {
  private readonly watchers = new Map<string, FSWatcher>();
  private readonly targets = new Map<string, WatchTarget>();
  private readonly states = new Map<string, WatchState>();
  private readonly pending = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  /** When the oldest pending event arrived: a write storm that never goes quiet still rescans every few windows. */
  private firstPending = 0;

  constructor(private readonly options: WatchOptions) {}

  /** Watch each root (several plugins may share one root; it is watched once). */
  watch(targets: readonly WatchTarget[]): void {
    for (const target of targets) {
      this.targets.set(target.abs, target);
      if (this.watchers.has(target.abs)) continue;
      if (!isDirectory(target.abs)) {
        this.setState(target.fetch, "degraded");
        continue;
      }
      const watcher = chokidar.watch(target.abs, {
        ignoreInitial: true,
        ignored: (file: string) => isIgnoredPath(target.abs, file),
        followSymlinks: true,
      });
      watcher.on("all", (event, file) => {
        // The root itself vanishing leaves nothing to watch: serve what was harvested, report it degraded.
        if (event === "unlinkDir" && path.resolve(file) === path.resolve(target.abs)) this.setState(target.fetch, "degraded");
        this.schedule(target.fetch);
      });
      watcher.on("error", () => {
        this.setState(target.fetch, "degraded");
        this.schedule(target.fetch);
      });
      // Changes made while chokidar was still scanning the tree were not reported: one rescan closes that window
      // (it re-reads only what changed, and an unchanged shelf is not swapped).
      watcher.on("ready", () => this.schedule(target.fetch));
      this.watchers.set(target.abs, watcher);
      // Watching from the start, so the first shelf already reports it; a failure degrades it later.
      this.setState(target.fetch, "watching");
    }
  }

  /** Watch degraded roots again (after `POST /reindex`): a root that came back is watched from now on. */
  async retry(): Promise<void> {
    const degraded = [...this.targets.values()].filter((target) => this.states.get(target.fetch) === "degraded");
    for (const target of degraded) {
      await this.watchers.get(target.abs)?.close();
      this.watchers.delete(target.abs);
    }
    this.watch(degraded);
  }

  stateOf(fetch: string): WatchState | undefined {
    return this.states.get(fetch);
  }

  async close(): Promise<void> {
    clearTimeout(this.timer);
    await Promise.all([...this.watchers.values()].map((watcher) => watcher.close()));
    this.watchers.clear();
  }

  private setState(fetch: string, state: WatchState): void {
    if (this.states.get(fetch) === state) return;
    this.states.set(fetch, state);
    this.options.onState(fetch, state);
  }

  private schedule(fetch: string): void {
    const now = Date.now();
    if (this.pending.size === 0) this.firstPending = now;
    this.pending.add(fetch);
    clearTimeout(this.timer);
    const overdue = now - this.firstPending >= this.options.quietMs * MAX_WAIT_WINDOWS;
    this.timer = setTimeout(() => {
      const fetches = new Set(this.pending);
      this.pending.clear();
      // A root that vanished (chokidar does not always report its own root going) can no longer be watched.
      for (const target of this.targets.values()) {
        if (fetches.has(target.fetch) && !isDirectory(target.abs)) this.setState(target.fetch, "degraded");
      }
      this.options.onChange(fetches);
    }, overdue ? 0 : this.options.quietMs);
  }
}
