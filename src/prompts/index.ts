// The prompts module: pure dialect detection, argument lists and rendering (SPEC §7, docs/prompts.md).
export { buildPromptDefs, formatPromptName } from "./build-defs.js";
export { splitArgumentWords } from "./claude.js";
export { detectDialect, isClaudeCommand } from "./dialect.js";
export { parseFrontmatter } from "./frontmatter.js";
export { parsePromptFile, parsePromptFiles, parsePromptStem } from "./parse.js";
export { renderPrompt } from "./render.js";
export {
  FREE_TEXT_ARGUMENT,
  type HarvestedPromptFile,
  type ParsedPrompt,
  type ParseResult,
  type PromptArgs,
  type PromptArgument,
  type PromptDef,
  type PromptDialect,
  type RenderResult,
  type Segment,
} from "./types.js";
