// A plugin's prompt files, parsed once per harvest whatever the number of libraries serving the plugin.
import { parsePromptFiles } from "../prompts/index.js";
import { compareCodeUnits } from "../address/index.js";
import type { HarvestedPlugin } from "../harvest/index.js";

/** The plugin with `parsedPrompts` set and a skip row for every prompt file that does not serve. */
export function parsePluginPrompts(plugin: HarvestedPlugin): HarvestedPlugin {
  const { prompts, skipped } = parsePromptFiles(plugin.prompts, plugin.dialect ?? "auto");
  return {
    ...plugin,
    parsedPrompts: prompts,
    skipped: skipped.length === 0 ? plugin.skipped : [...plugin.skipped, ...skipped].sort((a, b) => compareCodeUnits(a.path, b.path)),
  };
}
