// Prompt files (§3.1, §7): picked by globs and read as text; the prompts module decides their dialect.
import fs from "node:fs";

import type { HarvestContext } from "./context.js";
import { digestBytes, errorCode } from "../address/index.js";
import { guardFindings, IO_ERROR } from "./digest.js";
import { compileGlobs, type GlobSet, isLiteralGlob, PROMPT_CONVENTION } from "./globs.js";
import { REASONS } from "./reasons.js";
import type { HarvestedPromptFile } from "../prompts/index.js";

export interface PromptGlobs {
  readonly globs: GlobSet;
  /** Every picked file is a Claude command (the globs came from a manifest's `commands`). */
  readonly allCommands: boolean;
  /** The globs as given, for the walk's hidden opt-ins. */
  readonly patterns: readonly string[];
}

/** `prompts` globs, else declared `commands` globs, else the convention. A literal directory names the `.md`
 *  files beneath it (`./commands` from a plugin manifest). */
export function selectPromptGlobs(prompts: readonly string[] | undefined, commands: readonly string[] | undefined): PromptGlobs {
  const patterns = prompts ?? commands ?? PROMPT_CONVENTION;
  const globs = compileGlobs(patterns, (glob) => (isLiteralGlob(glob) ? [`${glob}/**/*.md`] : []));
  return { globs, allCommands: prompts === undefined && commands !== undefined, patterns };
}

/** `.claude-plugin/` holds manifests, never prompts, whatever a glob says. */
function isInPluginManifestDir(path: string): boolean {
  return path.startsWith(".claude-plugin/") || path.includes("/.claude-plugin/");
}

export async function harvestPrompts(ctx: HarvestContext, select: PromptGlobs): Promise<HarvestedPromptFile[]> {
  if (select.globs.empty) return [];
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const prompts: HarvestedPromptFile[] = [];
  for (const entry of ctx.entries) {
    if (isInPluginManifestDir(entry.path) || !select.globs.match(entry.path)) continue;
    if (entry.size > ctx.fileBytes) {
      ctx.skipped.add(entry.path, REASONS.overFileBytes(entry.size, ctx.fileBytes));
      continue;
    }
    if (ctx.pacer.due()) await ctx.pacer.pause();
    let bytes: Buffer;
    try {
      bytes = fs.readFileSync(entry.abs);
    } catch (error) {
      ctx.skipped.add(entry.path, REASONS.unreadable(errorCode(error, IO_ERROR)));
      continue;
    }
    let text: string;
    try {
      text = decoder.decode(bytes); // A leading BOM is dropped: the prompts module parses the text.
    } catch {
      ctx.skipped.add(entry.path, REASONS.promptNotUtf8);
      continue;
    }
    const digest = digestBytes(bytes);
    for (const finding of await guardFindings.text(digest, entry.path, text))
      ctx.promptFindings.push({ ...finding, path: entry.path, digest });
    prompts.push({ path: entry.path, text, command: select.allCommands || entry.path.startsWith("commands/") });
  }
  return prompts;
}
