// The curated public API: the pipeline's stages, for embedding skillshelf or testing against it.
export { configFromDirectories, formatConfigErrors, loadConfig, parseConfig, CONFIG_SCHEMA } from "./config/index.js";
export type { Config, ConfigError, ConfigResult, ScopeSpec } from "./config/types.js";
export { harvestPlugin, type HarvestInput } from "./harvest/index.js";
export { buildShelf, type BuildInput, type LibraryPlan } from "./shelf/build.js";
export { buildHealth, type HealthReport } from "./health/index.js";
export { FULL_SCOPE, listingRows, readDirectory, resolve, visibleSkills } from "./resolve/index.js";
export { compileScope } from "./resolve/compile-scope.js";
export { renderPrompt } from "./prompts/index.js";
export { ShelfService } from "./live/shelf-service.js";
export { startLiveShelf } from "./live/live-shelf.js";
export { buildMcpServer, type ServerDeps } from "./mcp/server.js";
export { ContentCache } from "./mcp/content-cache.js";
export { createHttpApp } from "./http/app.js";
export type { Answer, Scope } from "./resolve/index.js";
export type { Shelf, Skill } from "./shelf/index.js";
export { VERSION } from "./version.js";
