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

export class RootWatcher {
  private readonly watchers = new Map<string, FSWatcher>();
  private readonly states = new Map<string, WatchState>();
  private readonly pending = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  /** When the oldest pending event arrived: a write storm that never goes quiet still rescans every few windows. */
  private firstPending = 0;

  constructor(private readonly options: WatchOptions) {}

  /** Watch each root (several plugins may share one root; it is watched once). */
  watch(targets: readonly WatchTarget[]): void {
    for (const target of targets) {
      if (this.watchers.has(target.abs)) continue;
      if (!existsSync(target.abs) || !statSync(target.abs).isDirectory()) {
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
      watcher.on("ready", () => {
        if (this.states.get(target.fetch) !== "degraded") this.setState(target.fetch, "watching");
      });
      this.watchers.set(target.abs, watcher);
    }
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
      this.options.onChange(fetches);
    }, overdue ? 0 : this.options.quietMs);
  }
}
