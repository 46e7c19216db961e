// The config module's public surface.
export { parsePluginAddress, type SourceKinds } from "./address.js";
export { FILE_RULES, GIT_RULES, SOURCE_KINDS, type SourceKindRules, WEBDAV_RULES } from "./source-kinds.js";
export { checkGlob, pickGlobs, withFallbackGlobs } from "./globs.js";
export { ConfigInvalidError, formatConfigErrors, loadConfig, parseConfig } from "./load.js";
export { PAGE_CALLBACK_PATH } from "./defaults.js";
export { guardPolicyOf } from "./guard-policy.js";
export { CONFIG_SCHEMA, formatSchema } from "./schema.js";
export type * from "./types.js";
export { configFromDirectories } from "./zero-config.js";
export { normaliseTagItem, parseTagItem, parseTagSelector, type TagGroup } from "./tags.js";
