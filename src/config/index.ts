// The config module's public surface.
export { ADDRESS_GRAMMAR, isLocalPath, parsePluginAddress, type AddressResult, type SourceKinds } from "./address.js";
export { DEFAULT_FILE_BYTES, DEFAULT_TTL_MS, checkSourceUrl } from "./build.js";
export { checkGlob, pickGlobs, withFallbackGlobs } from "./globs.js";
export { ConfigInvalidError, formatConfigErrors, loadConfig, parseConfig } from "./load.js";
export { CONFIG_SCHEMA, formatSchema } from "./schema.js";
export type * from "./types.js";
export { MAX_DURATION_MS, parseDuration, parseSize } from "./units.js";
export { configFromDirectories, slugName } from "./zero-config.js";
