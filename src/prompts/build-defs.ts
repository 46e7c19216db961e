// Name a plugin's parsed prompts for one library: `<library>_<stem>`. Per library, pure and cheap.
import type { SkillFolders } from "../address/index.js";
import type { ParsedPrompt, PromptDef } from "./types.js";

/** `("kit", [review])` => `[kit_review]`. The same parsed prompts are named again for every library serving the plugin. */
export function buildPromptDefs(library: string, prompts: readonly ParsedPrompt[], plugin?: string, skills?: SkillFolders): PromptDef[] {
  return prompts.map((prompt) => ({
    ...prompt,
    name: formatPromptName(library, prompt.stem),
    library,
    ...(plugin === undefined ? {} : { plugin }),
    ...(skills === undefined || skills.size === 0 ? {} : { skills }),
  }));
}

/** `("kit", "review")` => `kit_review`. */
export function formatPromptName(library: string, stem: string): string {
  return `${library}_${stem}`;
}
