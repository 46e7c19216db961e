// One build of the shelf from the config (fetch, read marketplaces, harvest, plan, build), and the cache
// directory's record of local harvests that lets a restart skip the walk.
export { assemble, type AssembleResult } from "./assemble.js";
export { HARVEST_FILE, readHarvestCache, writeHarvestCache } from "./harvest-cache.js";
export type { HarvestMemo } from "./harvest-spec.js";
