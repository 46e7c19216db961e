// What an MCP host makes of a SKILL.md as served. The SDK's host client (`SkillsClient`) refuses a whole
// `skills/list` page over one entry its rules reject, and refuses to read a SKILL.md whose frontmatter its YAML
// reader cannot read or whose frontmatter differs from the entry's. So every skill is put through the SDK's own
// entry builder (`skillEntry`, the same rules and the same reader as the host's) before it is served; under lenient
// naming a refused frontmatter is normalised into one a host accepts, under strict naming the skill is skipped.
import { skillEntry } from "@modelcontextprotocol/server/ext/skills";
import { parse as parseYaml } from "yaml";
import { cutAtWord } from "../address/index.js";

/** The Agent Skills limit on `compatibility`, in characters. */
export const MAX_COMPATIBILITY_CHARS = 500;

/** The first problem a host finds in this SKILL.md served as skill `name`, or undefined when it lists and reads it. */
export async function hostRefusal(name: string, skillMd: Uint8Array): Promise<string | undefined> {
  try {
    await skillEntry(name, { "SKILL.md": skillMd });
    return undefined;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // `1 skill problem:\n  <name>: <problem>` — the problem, without the SDK's framing.
    const line = message.split("\n").find((text) => text.startsWith(`  ${name}: `));
    return (line === undefined ? message : line.slice(name.length + 4)).replace(/^SKILL\.md frontmatter: /, "");
  }
}

export interface NormalisedFrontmatter {
  /** The served frontmatter's YAML: one `key: <JSON>` line per key, which every host's reader reads. */
  readonly yaml: string;
  /** The mapping a host reads from it. */
  readonly value: Readonly<Record<string, unknown>>;
  /** One sentence per field changed, for the skill's warning rows. */
  readonly warnings: readonly string[];
}

const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** The frontmatter `yaml` (as written in the file) with `values` (name, description as served) in place, rewritten
 *  so that a host accepts it: `metadata` becomes a mapping of strings (each value as written; a list of mappings is
 *  merged; anything else is left out), `compatibility` a string of 1-500 characters (left out when empty), and
 *  every value is written as JSON on one line. */
export function normaliseFrontmatter(yaml: string, values: Readonly<Record<string, string>>): NormalisedFrontmatter {
  const typed = parseYaml(yaml, { version: "1.2" }) as Record<string, unknown>;
  // The failsafe schema reads every scalar as the text written (`1.0` stays "1.0", not the number 1).
  const written = parseYaml(yaml, { version: "1.2", schema: "failsafe" }) as Record<string, unknown>;
  const out: Record<string, unknown> = { ...typed, ...values };
  const warnings: string[] = [];
  if ("metadata" in out) {
    const metadata = stringMap(written["metadata"]);
    if (metadata === undefined) {
      delete out["metadata"];
      warnings.push(
        "The frontmatter's metadata is not a mapping of names to values, which MCP hosts refuse: left out of the served frontmatter. Write metadata as name: value pairs.",
      );
    } else if (JSON.stringify(metadata) !== JSON.stringify(out["metadata"])) {
      out["metadata"] = metadata;
      warnings.push(
        "The frontmatter's metadata holds values that are not strings, which MCP hosts refuse: served with each value as the text written (lists and mappings as JSON). Quote metadata values.",
      );
    }
  }
  if ("compatibility" in out) {
    const raw = written["compatibility"];
    const text = typeof raw === "string" ? raw : JSON.stringify(raw ?? "");
    if (text.trim() === "") {
      delete out["compatibility"];
      warnings.push("The frontmatter's compatibility is empty, which MCP hosts refuse: left out of the served frontmatter.");
    } else if ([...text].length > MAX_COMPATIBILITY_CHARS) {
      out["compatibility"] = cutAtWord(text, MAX_COMPATIBILITY_CHARS);
      warnings.push(
        `The frontmatter's compatibility is ${[...text].length} characters long, over the limit of ${MAX_COMPATIBILITY_CHARS}: served cut at a word boundary.`,
      );
    } else if (text !== out["compatibility"]) {
      out["compatibility"] = text;
      warnings.push("The frontmatter's compatibility is not a string, which MCP hosts refuse: served as the text written.");
    }
  }
  const lines = Object.entries(out).map(([key, value]) => `${PLAIN_KEY.test(key) ? key : JSON.stringify(key)}: ${JSON.stringify(value)}`);
  if (warnings.length === 0) {
    warnings.push(
      "The frontmatter uses YAML that MCP hosts' readers do not read (a quoted value over several lines, an anchor, a tag, …): served with each value written as JSON on one line.",
    );
  }
  return { yaml: `${lines.join("\n")}\n`, value: out, warnings };
}

/** `metadata` as a host accepts it: a mapping of strings; a list of mappings merged (the first of a name wins). */
function stringMap(value: unknown): Record<string, string> | undefined {
  const maps = Array.isArray(value) && value.length > 0 && value.every(isMapping) ? value : isMapping(value) ? [value] : undefined;
  if (maps === undefined) return undefined;
  const out: Record<string, string> = {};
  for (const map of maps) {
    for (const [key, item] of Object.entries(map)) {
      if (!(key in out)) out[key] = typeof item === "string" ? item : JSON.stringify(item);
    }
  }
  return out;
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
