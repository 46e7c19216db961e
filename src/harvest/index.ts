// Harvest: the only code that reads skill trees from disk (§3).
export { failedHarvest, harvestPlugin, type HarvestInput } from "./harvest-plugin.js";
export { type FileBytesSeen, SMALL_FILE_BYTES } from "./digest.js";
export { rewrites } from "./skills.js";
export { checkSkillFrontmatter, isSkillName, parseSkillMd, replaceFrontmatter, rewriteSkillMd } from "./frontmatter.js";
export { COMMAND_CONVENTION, PROMPT_CONVENTION, SKILL_CONVENTION, compileGlobs, compileHiddenOptIns, normalizeGlob } from "./globs.js";
export { REASONS } from "./reasons.js";
export type * from "./types.js";
export { applyManifestMeta, readPluginManifest } from "./manifest.js";
export { hasMarketplaceFile, MANIFEST_FOLDERS, type MarketplaceEntry, readMarketplace } from "./marketplace.js";
