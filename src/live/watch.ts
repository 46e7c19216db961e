// Watching local plugin roots (§9): one non-recursive `fs.watch` (one inotify watch) per directory, added as
// directories appear. Measured on the 10,000-skill shelf (docs/performance.md): chokidar took 7.4 s and 576 MB
// to get ready, Node's recursive fs.watch 1.1 s and 196 MB, this 0.4 s and 91 MB. Hidden directories and
// node_modules are never served, so they are not walked into, but for the folders of plugin manifests and
// marketplace files (`.claude-plugin`), whose edits change what is served and to whom. Events are coalesced over a
// quiet window so a burst of writes is one rescan.
import { type FSWatcher, readdirSync, watch as watchDirectory } from "node:fs";
import path from "node:path";
import { isHiddenSegment } from "../address/index.js";
import { MANIFEST_FOLDERS } from "../harvest/index.js";
import { isDirectorySync } from "../sources/index.js";

export type WatchState = "watching" | "degraded" | "off";

export interface WatchTarget {
  /** The fetch key the root belongs to. */
  readonly fetch: string;
  /** Absolute root to watch. Internal: never reported. */
  readonly abs: string;
  /** Hidden directories (path from the root) the harvest enters because a glob spells them out, e.g.
   *  `skills/.curated`: they are watched too. */
  readonly hiddenOptIns?: (path: string) => boolean;
}

export interface WatchOptions {
  /** Quiet window in ms: a rescan starts once no event arrived for this long. */
  readonly quietMs: number;
  /** Called with the fetch keys whose roots changed, once per quiet window. */
  readonly onChange: (fetches: ReadonlySet<string>) => void;
  /** Called on every relevant event, before its quiet window ends. */
  readonly onEvent?: () => void;
  /** Called when a root's watch state changes. */
  readonly onState: (fetch: string, state: WatchState) => void;
}

const MAX_WAIT_WINDOWS = 5;

/** A directory worth walking into: not hidden (but `.github`/`.claude`/`.agents`), not node_modules; or a folder of
 *  manifests (`.claude-plugin`), hidden or not. */
function isWatchedName(name: string): boolean {
  return (name !== "node_modules" && !isHiddenSegment(name)) || MANIFEST_FOLDERS.has(name);
}

/** Directories watched between two turns of the event loop while a tree is being set up, so requests are served
 *  meanwhile (a 10,000-skill shelf has ~20,000 directories: ~0.4 s of readdir and watch calls in all). */
export const WATCH_SLICE = 256;

/** The watchers of one root, one per directory. */
class RootWatch {
  readonly dirs = new Map<string, FSWatcher>();
  private closed = false;

  constructor(
    readonly target: WatchTarget,
    private readonly onEvent: () => void,
    private readonly onFailure: () => void,
  ) {}

  /** Watch `dir` and every directory below it that could hold something served, a slice at a time. */
  async add(dir: string): Promise<void> {
    const stack = [dir];
    for (let done = 1; stack.length > 0 && !this.closed; done++) {
      stack.push(...this.watchOne(stack.pop() as string));
      if (done % WATCH_SLICE === 0) await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** Watch one directory; answers its subdirectories worth watching (none when it was watched already). */
  private watchOne(dir: string): string[] {
    if (this.dirs.has(dir)) return [];
    let watcher: FSWatcher;
    try {
      watcher = watchDirectory(dir, { persistent: false }, (_event, name) => this.changed(dir, name === null ? null : String(name)));
    } catch {
      // The directory went away between the listing and the watch, or the watch limit is reached.
      if (dir === this.target.abs) this.onFailure();
      return [];
    }
    watcher.on("error", () => {
      this.drop(dir);
      if (dir === this.target.abs) this.onFailure();
      this.onEvent();
    });
    this.dirs.set(dir, watcher);
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return [];
    }
    const children: string[] = [];
    for (const entry of entries) {
      const child = path.join(dir, entry.name);
      // In-root symlinks to directories are followed by harvest, so they are watched too; loops end at `has`.
      if (this.isWatched(child, entry.name) && (entry.isDirectory() || (entry.isSymbolicLink() && isDirectorySync(child)))) {
        children.push(child);
      }
    }
    return children;
  }

  /** Whether `abs` (named `name`) is a directory worth walking into: not hidden unless a glob opts it in. */
  private isWatched(abs: string, name: string): boolean {
    if (isWatchedName(name)) return true;
    const optIns = this.target.hiddenOptIns;
    return name !== ".git" && optIns !== undefined && optIns(path.relative(this.target.abs, abs).split(path.sep).join("/"));
  }

  /** An event worth a rescan: anything but hidden churn (`.git`, editor swap files), unless opted in. `..data` and
   *  its siblings are how a Kubernetes ConfigMap mount swaps its files in, so those count. */
  private isRelevantEvent(dir: string, name: string | null): boolean {
    return name === null || name.startsWith("..") || this.isWatched(path.join(dir, name), name);
  }

  close(): void {
    this.closed = true;
    for (const watcher of this.dirs.values()) watcher.close();
    this.dirs.clear();
  }

  private changed(dir: string, name: string | null): void {
    if (!this.isRelevantEvent(dir, name)) return;
    if (name !== null) {
      const child = path.join(dir, name);
      // A new directory is watched from now on; a vanished one stops being watched.
      if (this.isWatched(child, name) && isDirectorySync(child)) void this.add(child);
      else if (this.dirs.has(child)) this.dropTree(child);
    }
    this.onEvent();
  }

  private drop(dir: string): void {
    this.dirs.get(dir)?.close();
    this.dirs.delete(dir);
  }

  private dropTree(dir: string): void {
    for (const watched of [...this.dirs.keys()]) {
      if (watched === dir || watched.startsWith(dir + path.sep)) this.drop(watched);
    }
  }
}

export class RootWatcher {
  private readonly roots = new Map<string, RootWatch>();
  /** Every target ever asked for, by root, so a degraded one can be watched again. */
  private readonly targets = new Map<string, WatchTarget>();
  private readonly states = new Map<string, WatchState>();
  private readonly pending = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  /** When the oldest pending event arrived: a write storm that never goes quiet still rescans every few windows. */
  private firstPending = 0;

  constructor(private readonly options: WatchOptions) {}

  /** Watch each root (several plugins may share one root; it is watched once). Resolves once every directory below
   *  the targets is watched; events are delivered from the first one on. The roots are set up one after another:
   *  set up side by side, each would take its slice of directories in the same turn of the event loop (20 roots
   *  × WATCH_SLICE directories held a 10,000-skill shelf's first requests for ~200 ms a turn). */
  async watch(targets: readonly WatchTarget[]): Promise<void> {
    const setups: (() => Promise<void>)[] = [];
    for (const target of targets) {
      this.targets.set(target.abs, target);
      if (this.roots.has(target.abs)) continue;
      if (!isDirectorySync(target.abs)) {
        this.setState(target.fetch, "degraded");
        continue;
      }
      const root = new RootWatch(
        target,
        () => this.schedule(target.fetch),
        () => this.setState(target.fetch, "degraded"),
      );
      this.roots.set(target.abs, root);
      this.setState(target.fetch, "watching");
      setups.push(() => root.add(target.abs));
    }
    for (const setup of setups) await setup();
  }

  /** Watch degraded roots again (after `POST /reindex`): a root that came back is watched from now on. */
  retry(): Promise<void> {
    const degraded = [...this.targets.values()].filter((target) => this.states.get(target.fetch) === "degraded");
    for (const target of degraded) {
      this.roots.get(target.abs)?.close();
      this.roots.delete(target.abs);
    }
    return this.watch(degraded);
  }

  /** Number of directories watched, for tests and the log. */
  get size(): number {
    let total = 0;
    for (const root of this.roots.values()) total += root.dirs.size;
    return total;
  }

  close(): void {
    clearTimeout(this.timer);
    for (const root of this.roots.values()) root.close();
    this.roots.clear();
  }

  private setState(fetch: string, state: WatchState): void {
    if (this.states.get(fetch) === state) return;
    this.states.set(fetch, state);
    this.options.onState(fetch, state);
  }

  private schedule(fetch: string): void {
    this.options.onEvent?.();
    const now = Date.now();
    if (this.pending.size === 0) this.firstPending = now;
    this.pending.add(fetch);
    clearTimeout(this.timer);
    const overdue = now - this.firstPending >= this.options.quietMs * MAX_WAIT_WINDOWS;
    this.timer = setTimeout(
      () => {
        const fetches = new Set(this.pending);
        this.pending.clear();
        // A root that vanished can no longer be watched: serve what was harvested, report it degraded.
        for (const root of this.roots.values()) {
          if (fetches.has(root.target.fetch) && !isDirectorySync(root.target.abs)) this.setState(root.target.fetch, "degraded");
        }
        this.options.onChange(fetches);
      },
      overdue ? 0 : this.options.quietMs,
    );
  }
}
