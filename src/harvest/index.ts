// Harvest: the only code that reads skill trees from disk (§3).
export { failedHarvest, harvestPlugin, type HarvestInput } from "./harvest-plugin.js";
export { SMALL_FILE_BYTES } from "./digest.js";
export { SLICE_MS } from "./pacer.js";
export { checkSkillFrontmatter, isSkillName, parseSkillMd, type SkillCheck, type SkillMdParse } from "./frontmatter.js";
export { PROMPT_CONVENTION, SKILL_CONVENTION, compileGlobs, normalizeGlob, type GlobSet } from "./globs.js";
export { MAX_DESCRIPTION_CHARS, MAX_SKILL_BYTES, MAX_SKILL_FILES, REASONS } from "./reasons.js";
export type * from "./types.js";
export { applyManifestMeta, readPluginManifest } from "./manifest.js";
export { hasMarketplaceFile, type MarketplaceEntry, readMarketplace } from "./marketplace.js";
