// The curated public API: the pipeline's stages, for embedding skillshelf or testing against it.
export { configFromDirectories, formatConfigErrors, loadConfig, parseConfig, CONFIG_SCHEMA } from "./config/index.js";
export type { Config, ConfigError, ConfigResult, ScopeSpec } from "./config/index.js";
export { harvestPlugin, type HarvestInput } from "./harvest/index.js";
export { buildShelf, type BuildInput, type LibraryPlan } from "./shelf/index.js";
export { buildHealth, type HealthReport } from "./health/index.js";
export { FULL_SCOPE, listingRows, readDirectory, resolve, visibleSkills } from "./resolve/index.js";
export { compileScope } from "./resolve/index.js";
export { renderPrompt } from "./prompts/index.js";
export { ShelfService } from "./live/index.js";
export { startLiveShelf } from "./live/index.js";
export { buildMcpServer, type ServerDeps } from "./mcp/index.js";
export { ContentCache, ShelfReader } from "./live/index.js";
export { createHttpApp } from "./http/index.js";
export type { Answer, Scope } from "./resolve/index.js";
export type { Shelf, Skill } from "./shelf/index.js";
export { VERSION } from "./address/index.js";
