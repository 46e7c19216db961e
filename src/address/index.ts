// The shared vocabulary of every layer: skill URIs and paths (with the one hidden-name rule), media types, the
// published order, placeholders, digests and error codes. Pure: no disk, no process, no protocol.
export { describeErrorCode, errorCode } from "./errors.js";
export { digestBytes, formatDigest } from "./digest.js";
export { JSON_TYPE, MARKDOWN, mimeTypeFor } from "./media.js";
export { compareCodeUnits } from "./order.js";
export {
  BASE_DIR,
  hasPlaceholders,
  PLUGIN_ROOT,
  pluginRootUri,
  SKILL_DIR,
  SKILL_DIR_SPELLINGS,
  type PlaceholderBases,
  type SkillFolders,
  substitutePlaceholders,
} from "./placeholders.js";
export {
  VISIBLE_DOT_NAMES,
  ancestorsOf,
  baseName,
  hasHiddenSegment,
  isHiddenPath,
  isHiddenSegment,
  joinPath,
  parentOf,
  skillAddress,
} from "./paths.js";
export {
  FILES_FILE,
  INDEX_FILE,
  MANIFEST_FILE,
  SKILL_FILE,
  encodeSegment,
  formatPageName,
  generatedDocumentOf,
  formatSkillMdUri,
  formatSkillUri,
  isAddressableSegment,
  parseSkillUri,
} from "./uri.js";
export type { SkipRow } from "./skip-row.js";
export { VERSION } from "./version.js";
export { cutAtWord, formatOneLine } from "./text.js";
export { SCOPE_MARKETPLACE, libraryMarketplaceName, pluginName } from "./plugin-names.js";
