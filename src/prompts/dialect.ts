// Which dialect a prompt file is written in. The rules, first match wins, are in docs/prompts.md.
import type { Dialect } from "../config/index.js";
import { findClaudeMarkers } from "./claude.js";
import { hasCopilotInput } from "./copilot.js";
import { hasSkillshelfPlaceholder } from "./skillshelf.js";
import type { HarvestedPromptFile, PromptDialect } from "./types.js";

export type DialectResult = { readonly ok: true; readonly dialect: PromptDialect } | { readonly ok: false; readonly reason: string };

/** Frontmatter keys that make a file an instruction file (Copilot `applyTo`, Cursor `globs`), never a prompt. */
const INSTRUCTION_KEYS = ["applyTo", "globs"] as const;
/** Frontmatter keys only VS Code prompt files use (`mode` is the older name of `agent`). */
const COPILOT_KEYS = ["agent", "tools", "mode"] as const;

/** `commands/review.md` (or a file harvest declared a command) is a Claude command; `commands/x.prompt.md` is not. */
export function isClaudeCommand(file: HarvestedPromptFile): boolean {
  if (file.path.endsWith(".prompt.md")) return false;
  return file.command || file.path.split("/").slice(0, -1).includes("commands");
}

/** The shape of frontmatter `arguments`: names (claude), objects (skillshelf), both (an error) or neither. */
export function classifyArguments(value: unknown): "none" | "names" | "objects" | "mixed" | "invalid" {
  if (value === undefined || value === null) return "none";
  if (typeof value === "string") return "names";
  if (!Array.isArray(value)) return "invalid";
  if (value.length === 0) return "none";
  const objects = value.filter((v) => typeof v === "object" && v !== null && !Array.isArray(v)).length;
  const names = value.filter((v) => typeof v === "string").length;
  if (objects === value.length) return "objects";
  if (names === value.length) return "names";
  return objects > 0 && names > 0 ? "mixed" : "invalid";
}

export const MIXED_ARGUMENTS =
  "frontmatter 'arguments' mixes names and objects; list only names (claude) or only objects {name, description?, required?, default?} (skillshelf)";
export const INVALID_ARGUMENTS =
  "frontmatter 'arguments' must be a list of names (claude), a list of objects {name, description?, required?, default?} (skillshelf), or a space-separated string of names";

/** The plugin's dialect wins unless `auto`; then location, frontmatter keys, body markers, and skillshelf by default. */
export function detectDialect(
  file: HarvestedPromptFile,
  frontmatter: Readonly<Record<string, unknown>>,
  body: string,
  configured: Dialect,
): DialectResult {
  const decided: PromptDialect | null = configured !== "auto" ? configured : isClaudeCommand(file) ? "claude" : null;

  // Claude Code ignores `globs`/`applyTo` in a command (one command in wshobson/agents carries `globs`), so a
  // file read as a Claude command is never an instruction file; anywhere else those keys mean one.
  if (decided !== "claude") {
    const keys = INSTRUCTION_KEYS.filter((k) => Object.hasOwn(frontmatter, k));
    if (keys.length > 0) {
      const named = keys.map((k) => `'${k}'`).join(" and ");
      return { ok: false, reason: `has ${named} in its frontmatter, so it is an instruction file, not a prompt` };
    }
  }
  if (decided !== null) return { ok: true, dialect: decided };

  if (file.path.endsWith(".prompt.md") || COPILOT_KEYS.some((k) => Object.hasOwn(frontmatter, k))) {
    return { ok: true, dialect: "copilot" };
  }
  const shape = classifyArguments(frontmatter["arguments"]);
  if (shape === "mixed") return { ok: false, reason: MIXED_ARGUMENTS };
  if (shape === "invalid") return { ok: false, reason: INVALID_ARGUMENTS };
  if (shape === "objects") return { ok: true, dialect: "skillshelf" };
  if (shape === "names" || Object.hasOwn(frontmatter, "argument-hint")) return { ok: true, dialect: "claude" };

  // Body markers, strongest first: `{{name}}` is common in templating examples, `$N` in prices and shell snippets.
  if (hasCopilotInput(body)) return { ok: true, dialect: "copilot" };
  const claude = findClaudeMarkers(body);
  if (claude.all) return { ok: true, dialect: "claude" };
  if (hasSkillshelfPlaceholder(body)) return { ok: true, dialect: "skillshelf" };
  if (claude.positional) return { ok: true, dialect: "claude" };
  return { ok: true, dialect: "skillshelf" };
}
