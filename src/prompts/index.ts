// The prompts module: pure dialect detection, argument lists and rendering (SPEC §7, docs/prompts.md).
export { buildPromptDefs, formatPromptName } from "./build-defs.js";
export { splitArgumentWords } from "./claude.js";
export { detectDialect } from "./dialect.js";
export { parsePromptFile, parsePromptFiles, parsePromptStem } from "./parse.js";
export { missingArguments, renderPrompt } from "./render.js";
export { type HarvestedPromptFile, type ParsedPrompt, type PromptArgs, type PromptDef } from "./types.js";
