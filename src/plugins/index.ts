// Plugin marketplaces: the plugins a scope sees, each a deterministic git repository of its served bytes in the cache
// directory, and the marketplace.json that lists them for Claude Code.
export {
  COMMANDS_FOLDER,
  MANIFEST_PATH,
  findPlugin,
  formatManifest,
  keywordsOf,
  listPlugins,
  pluginContent,
  versionOf,
  type ListedPlugin,
  type PluginContent,
  type PluginEntry,
} from "./catalog.js";
export { pluginName } from "../address/index.js";
export { SCOPE_MARKETPLACE, formatMarketplace, libraryMarketplaceName, type Marketplace, type MarketplaceInput } from "./marketplace.js";
export {
  BRANCH,
  DEFAULT_HISTORY,
  DEFAULT_REPO_BYTES,
  PluginRepos,
  commitMessage,
  repoName,
  UPLOAD_PACK_CONFIG,
  type BuiltRepo,
  type PluginReposOptions,
  type ReadEntry,
} from "./repos.js";
export { gitEnv, PluginRepoError, runGit } from "./git-process.js";
