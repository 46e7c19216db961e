// The shelf: plan libraries and build the immutable shelf from harvested plugins. Pure: building never reads the
// disk and never resolves an address.
export { buildShelf, type BuildInput, type LibraryPlan, skillFolders } from "./build.js";
export { parsePluginPrompts } from "./prompts.js";
export { compileSelector, type SelectorSpec } from "./select.js";
export type * from "./types.js";
export { describeFromPlugins, planLibraries, type MarketplaceOutcome } from "./plan.js";
