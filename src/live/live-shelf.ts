// The shelf service with its local roots watched: a change is rescanned after a quiet window, a degraded root
// is reported on /health and watched again after POST /reindex.
import type { Config } from "../config/index.js";
import { ShelfService, type ShelfServiceOptions } from "./shelf-service.js";
import { RootWatcher, type WatchState } from "./watch.js";
import { isDirectorySync } from "../sources/index.js";
import { planWatch } from "./watch-targets.js";

/** Long enough to fold an editor's save (write, rename, chmod) into one rescan; short enough to feel live. */
const QUIET_MS = 250;

export interface LiveShelf {
  readonly service: ShelfService;
  /** POST /reindex: watch degraded roots again, then rebuild every fetch. */
  reindex(): Promise<string[]>;
  close(): Promise<void>;
}

export async function startLiveShelf(
  config: Config,
  now: () => Date,
  options: ShelfServiceOptions,
  quietMs = QUIET_MS,
): Promise<LiveShelf> {
  const plan = planWatch(config);
  const states = new Map<string, WatchState>();
  for (const fetch of plan.off) states.set(fetch, "off");
  // The first shelf is served before the directories are watched (one watch per directory costs a few hundred
  // ms on a large shelf); it already reports the roots it is about to watch.
  for (const target of plan.targets) states.set(target.fetch, isDirectorySync(target.abs) ? "watching" : "degraded");
  const service = await ShelfService.start(config, now, { ...options, watch: (fetch) => states.get(fetch) });

  const holder = service.holder;
  /** `absorbs`: this rescan takes in every event seen so far (the watcher's quiet window ended, or every watched
   *  root is rescanned), so reads waiting on those may go on once it ends. */
  const rescan = (fetches: ReadonlySet<string>, absorbs: boolean): void => {
    const upTo = absorbs ? holder.sawChange() : 0;
    service
      .rescan(fetches)
      .catch((error: unknown) => {
        options.log?.log("error", "rescan failed", { error: error instanceof Error ? error.message : String(error) });
      })
      .finally(() => {
        if (absorbs) holder.absorbedChanges(upTo);
      });
  };
  const watcher = new RootWatcher({
    quietMs,
    onChange: (fetches) => rescan(fetches, true),
    onEvent: () => void holder.sawChange(),
    onState: (fetch, state) => {
      if (states.get(fetch) === state) return;
      states.set(fetch, state);
      options.log?.log(state === "degraded" ? "warn" : "info", `watch ${state}`, { fetch });
      rescan(new Set([fetch]), false);
    },
  });
  // The directories are watched while the first shelf is already served. Whatever changed while the first harvest
  // ran, or in a directory before its watch began, was seen by no watch: one rescan of the watched roots once all
  // are watched catches it (it re-reads only what changed, and an unchanged shelf is not swapped).
  let closing = false;
  const watched = watcher.watch(plan.targets).then(() => {
    // Plugins served from the record are verified here too, watched or not.
    if (!closing) rescan(new Set([...plan.targets.map((target) => target.fetch), ...service.unverified]), true);
  });

  return {
    service,
    async reindex() {
      // A root that came back is watched from the first directory on; the rebuild below reads it whole.
      void watcher.retry();
      return service.rebuild();
    },
    async close() {
      closing = true;
      watcher.close();
      await watched;
      await service.close();
    },
  };
}
