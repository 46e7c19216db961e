// The shelf service with its local roots watched: a change is rescanned after a quiet window, a degraded root
// is reported on /health and watched again after POST /reindex.
import type { Config } from "../config/types.js";
import { ShelfService, type ShelfServiceOptions } from "./shelf-service.js";
import { RootWatcher, type WatchState } from "./watch.js";
import { planWatch } from "./watch-targets.js";

/** Long enough to fold an editor's save (write, rename, chmod) into one rescan; short enough to feel live. */
export const QUIET_MS = 250;

export interface LiveShelf {
  readonly service: ShelfService;
  /** POST /reindex: watch degraded roots again, then rebuild every fetch. */
  reindex(): Promise<string[]>;
  close(): Promise<void>;
}

export async function startLiveShelf(config: Config, now: () => Date, options: ShelfServiceOptions, quietMs = QUIET_MS): Promise<LiveShelf> {
  const states = new Map<string, WatchState>();
  let service: ShelfService | undefined;
  const rescan = (fetches: ReadonlySet<string>): void => {
    service?.rescan(fetches).catch((error: unknown) => {
      options.log?.log("error", "rescan failed", { error: error instanceof Error ? error.message : String(error) });
    });
  };
  const watcher = new RootWatcher({
    quietMs,
    onChange: rescan,
    onState: (fetch, state) => {
      states.set(fetch, state);
      options.log?.log(state === "degraded" ? "warn" : "info", `watch ${state}`, { fetch });
      rescan(new Set([fetch]));
    },
  });
  const plan = planWatch(config);
  for (const fetch of plan.off) states.set(fetch, "off");
  watcher.watch(plan.targets);
  try {
    service = await ShelfService.start(config, now, { ...options, watch: (fetch) => states.get(fetch) });
  } catch (error) {
    watcher.close();
    throw error;
  }
  const started = service;
  return {
    service: started,
    async reindex() {
      watcher.retry();
      return started.rebuild();
    },
    async close() {
      watcher.close();
      await started.close();
    },
  };
}
