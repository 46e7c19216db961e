// The live shelf: the holder of the current shelf, rebuilds, watching, diffs and change events.
export { changedUris, diffShelves, readKey } from "./diff.js";
export type { ShelfHolder } from "./holder.js";
export { startLiveShelf } from "./live-shelf.js";
export { CredentialRefusedError, ShelfService } from "./shelf-service.js";
