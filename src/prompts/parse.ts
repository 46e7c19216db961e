// Parse a plugin's prompt files once, at harvest/build: frontmatter, dialect, arguments, compiled body.
// Library-independent: naming (`<library>_<stem>`) happens in build-defs.ts.
import type { Dialect } from "../config/index.js";
import { compileClaude } from "./claude.js";
import { compileCopilot } from "./copilot.js";
import { classifyArguments, detectDialect, INVALID_ARGUMENTS, isClaudeCommand, MIXED_ARGUMENTS } from "./dialect.js";
import { parseFrontmatter, trimBody } from "./frontmatter.js";
import { compileSkillshelf } from "./skillshelf.js";
import type { Compiled, HarvestedPromptFile, ParsedPrompt, ParseResult, PromptDialect } from "./types.js";
import { compareCodeUnits, type SkipRow } from "../address/index.js";

/** `prompts/investigate.prompt.md` => `investigate`; `commands/review.md` => `review`; `notes/x.txt` => `x`. */
export function parsePromptStem(path: string): string {
  const base = path.slice(path.lastIndexOf("/") + 1);
  if (base.endsWith(".prompt.md")) return base.slice(0, -".prompt.md".length);
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(0, dot) : base;
}

/** One file => a parsed prompt, or the one-sentence reason it is skipped. Pure and total: never throws. */
export function parsePromptFile(file: HarvestedPromptFile, dialect: Dialect): ParseResult {
  const stem = parsePromptStem(file.path);
  if (stem === "") return { ok: false, reason: "prompt file name has an empty stem, so the prompt would have no name" };

  const parsed = parseFrontmatter(file.text);
  // Claude Code runs a command file without frontmatter as its whole body, and so do we (a deliberate
  // departure from SPEC §7, which skips every prompt without frontmatter: 40 of the 95 commands of a real
  // marketplace have none, and the issue asks that existing collections work unchanged).
  const commandWithoutFrontmatter =
    !parsed.ok && parsed.absent === true && (dialect === "claude" || (dialect === "auto" && isClaudeCommand(file)));
  const fm = commandWithoutFrontmatter ? ({ ok: true, data: {}, body: trimBody(file.text.replace(/^\uFEFF/, "")) } as const) : parsed;
  // A command file of a plugin configured for another dialect: "outside commands/" would name the wrong rule.
  if (!fm.ok && fm.absent === true && (dialect === "copilot" || dialect === "skillshelf") && isClaudeCommand(file))
    return {
      ok: false,
      reason: `prompt has no frontmatter; in the ${dialect} dialect every prompt file starts with a YAML block between '---' lines`,
    };
  if (!fm.ok) return fm;
  const { data, body } = fm;

  const detected = detectDialect(file, data, body, dialect);
  if (!detected.ok) return detected;

  const description = data["description"];
  if (description !== undefined && description !== null && typeof description !== "string") {
    return { ok: false, reason: "frontmatter 'description' is not a string" };
  }

  const compiled = compileFor(detected.dialect, data, body);
  if (!compiled.ok) return compiled;

  const title = [data["title"], data["name"]].find((t): t is string => typeof t === "string" && t.trim() !== "");
  const prompt: ParsedPrompt = {
    stem,
    path: file.path,
    dialect: detected.dialect,
    ...(title === undefined ? {} : { title: title.trim() }),
    description: typeof description === "string" && description.trim() !== "" ? description.trim() : describeFromBody(body),
    arguments: compiled.arguments,
    defaults: compiled.defaults,
    segments: compiled.segments,
  };
  return { ok: true, prompt };
}

function compileFor(dialect: PromptDialect, data: Readonly<Record<string, unknown>>, body: string): Compiled {
  // VS Code has no `arguments` key: a copilot prompt's arguments come from its `${input:…}` only.
  if (dialect === "copilot") return compileCopilot(body);
  const declared = data["arguments"];
  const shape = classifyArguments(declared);
  if (shape === "mixed") return { ok: false, reason: MIXED_ARGUMENTS };
  if (shape === "invalid") return { ok: false, reason: INVALID_ARGUMENTS };
  if (dialect === "claude") return compileClaude(declared, data["argument-hint"], body);
  return compileSkillshelf(declared, body);
}

/** The first non-empty body line without its heading marks: `# Review a PR\n…` => `Review a PR`. */
function describeFromBody(body: string): string {
  for (const line of body.split(/\r?\n/)) {
    const text = line.replace(/^\s*#+\s*/, "").trim();
    if (text !== "") return text;
  }
  return "";
}

/** All of one plugin's prompt files => the prompts it serves and a skip row per file it does not.
 *  Files are taken in sorted path order; the first file to parse claims its stem, and a later parsed file with the
 *  same stem is skipped (a file that fails to parse claims nothing). */
export function parsePromptFiles(
  files: readonly HarvestedPromptFile[],
  dialect: Dialect,
): { readonly prompts: readonly ParsedPrompt[]; readonly skipped: readonly SkipRow[] } {
  const prompts: ParsedPrompt[] = [];
  const skipped: SkipRow[] = [];
  const claimed = new Map<string, string>();
  const sorted = [...files].sort((a, b) => compareCodeUnits(a.path, b.path));
  for (const file of sorted) {
    const result = parsePromptFile(file, dialect);
    if (!result.ok) {
      skipped.push({ path: file.path, reason: result.reason });
      continue;
    }
    const first = claimed.get(result.prompt.stem);
    if (first !== undefined) {
      skipped.push({
        path: file.path,
        reason: `a second prompt named '${result.prompt.stem}' in this plugin; ${first} already serves that name`,
      });
      continue;
    }
    claimed.set(result.prompt.stem, file.path);
    prompts.push(result.prompt);
  }
  return { prompts, skipped };
}
