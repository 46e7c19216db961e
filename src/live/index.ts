// The live shelf: the holder of the current shelf, rebuilds, watching, change events, and the one serve-time read.
export { ContentCache } from "./content-cache.js";
export type { ShelfHolder } from "./holder.js";
export { startLiveShelf } from "./live-shelf.js";
export { ConfigReloads, ReloadableShelf } from "./reloadable.js";
export { type LiveFiles, ShelfReader } from "./reader.js";
export { type RefusedCredential, ShelfService } from "./shelf-service.js";
export { ShelfLog } from "./shelf-log.js";
