// The resolver's public surface: parse an address, resolve a read, list what a scope sees.
export { resolve } from "./resolve.js";
export { findSkillBySkillMd, listingKey, listingRows, visibleSkills } from "./listing.js";
export { FULL_SCOPE, FULL_SCOPE_ON, NO_SCOPE } from "./scope.js";
export { INDEX_ADVICE, MAX_DOCUMENT_BYTES, formatCount, manifestOf } from "./documents.js";
export { NOT_FOUND_ADVICE } from "./hints.js";
export { DIRECTORY_TYPE, readDirectory } from "./directory.js";
export { findPrompt, visiblePrompts } from "./prompts.js";
export type * from "./types.js";
export { compileScope, scopeOn, type ScopeOn } from "./compile-scope.js";
export { changedUris, diffShelves, readKey } from "./diff.js";
export { libraryView, viewOf, type FolderNode, type LibraryView, type Manifest, type ManifestEntry, type ShelfView } from "./view.js";
