// SKILL.md: the frontmatter block (§3.3) and the name rule (§3.4). Pure: bytes in, a value out.
import { isMap, isScalar, parseDocument } from "yaml";
import { cutAtWord } from "../address/index.js";
import { MAX_DESCRIPTION_CHARS, REASONS } from "./reasons.js";

export type SkillMdParse =
  | {
      readonly ok: true;
      readonly frontmatter: Record<string, unknown>;
      /** Byte offset of the first byte after the closing `---` line. */
      readonly bodyOffset: number;
    }
  | { readonly ok: false; readonly reason: string };

const LF = 0x0a;
const CR = 0x0d;

/** True for `---`, `---\r`, `---  ` (a fence line, its line break already cut off). */
function isFence(bytes: Uint8Array, start: number, end: number): boolean {
  let e = end;
  // No bound at `start` is needed: the byte before a line's start is a line feed, the BOM's last byte or none.
  while (bytes[e - 1] === CR || bytes[e - 1] === 0x20 || bytes[e - 1] === 0x09) e--;
  return e - start === 3 && bytes[start] === 0x2d && bytes[start + 1] === 0x2d && bytes[start + 2] === 0x2d;
}

function lineEnd(bytes: Uint8Array, from: number): number {
  const i = bytes.indexOf(LF, from);
  // Stryker disable next-line EqualityOperator: equivalent; 0 is found only for a first line that is empty, which is no fence either way
  return i < 0 ? bytes.length : i;
}

/** `a: b: c` => `Nested mappings are not allowed in compact mappings at line 2, column 4 of SKILL.md`. yaml's own
 *  message ends its first line with the position in the YAML text (and a colon before the quoted context). */
function describeYamlError(message: string, at?: { readonly line: number; readonly col: number }): string {
  const first = message.split("\n")[0] as string; // split always gives one part
  const head = (at === undefined ? first : first.replace(` at line ${at.line}, column ${at.col}`, "")).replace(/[.:]$/, "");
  // +1: the frontmatter starts on the line after the opening `---`.
  return at === undefined ? head : `${head} at line ${at.line + 1}, column ${at.col} of SKILL.md`;
}

/** `description: Use when: asked` on line 3 => the rule, the line, and the line with its value quoted. */
function unquotedColon(text: string, { line, col }: { readonly line: number; readonly col: number }): string {
  const written = (text.split("\n")[line - 1] ?? "").replace(/\r$/, "").replace(/^\uFEFF/, "");
  const pair = /^(\s*[^\s#'"][^:]*?):\s+(\S.*?)\s*$/.exec(written);
  const value = pair?.[2];
  // The example only when the colon is in this line's value (a continuation line may hold it instead).
  const example = pair !== null && value !== undefined && value.includes(": ") ? `${pair[1]?.trim()}: ${JSON.stringify(value)}` : null;
  // +1: the frontmatter starts on the line after the opening `---`.
  return REASONS.unquotedColon(line + 1, col, example);
}

/**
 * `---\nname: x\n---\nbody` => `{frontmatter: {name: "x"}, bodyOffset: 15}`. Tolerates a BOM and CRLF; the
 * offset counts bytes as on disk (BOM included), so the body is `bytes.subarray(bodyOffset)`.
 */
export function parseSkillMd(bytes: Uint8Array): SkillMdParse {
  const span = frontmatterSpan(bytes);
  if (span === undefined) return { ok: false, reason: REASONS.noFrontmatter };
  const { yamlStart, closing, closingEnd } = span;
  let text: string;
  try {
    // ignoreBOM: a BOM that starts the YAML text is kept, so yaml counts it in its columns as an editor does.
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes.subarray(yamlStart, closing));
  } catch {
    return { ok: false, reason: REASONS.notUtf8 };
  }
  // resolveKnownTags off: `!!binary`, `!!set`, `!!omap` stay plain data (a string, a mapping, a list), since the
  // frontmatter is published as JSON by skills/list and must survive that unchanged.
  const doc = parseDocument(text, { version: "1.2", prettyErrors: true, resolveKnownTags: false });
  const error = doc.errors[0];
  // Stryker disable next-line OptionalChaining: equivalent; prettyErrors gives every error its position
  if (error !== undefined) {
    const at = error.linePos?.[0];
    if (error.code === "BLOCK_AS_IMPLICIT_KEY" && at !== undefined) return { ok: false, reason: unquotedColon(text, at) };
    return { ok: false, reason: REASONS.unparseable(describeYamlError(error.message, at)) };
  }
  if (!isMap(doc.contents)) return { ok: false, reason: REASONS.notMapping };
  let frontmatter: unknown;
  try {
    // Stryker disable next-line ObjectLiteral: equivalent; 100 is also yaml's default, written out so that no upgrade of yaml can lift the limit on an alias bomb
    frontmatter = doc.toJS({ maxAliasCount: 100 });
  } catch (e) {
    // An alias bomb or an alias to an unknown anchor.
    return {
      ok: false,
      reason: REASONS.unparseable(
        // Stryker disable next-line ConditionalExpression,StringLiteral: equivalent; yaml throws only Error objects, the text is a defence should that change
        describeYamlError(e instanceof Error ? e.message : "it cannot be read as plain data"),
      ),
    };
  }
  // `a: &x [*x]` is valid YAML whose value holds itself: JSON, in which skills/list publishes it, cannot carry it.
  if (!survivesJson(frontmatter)) return { ok: false, reason: REASONS.unparseable("an alias refers to a value that holds it") };
  // A copy: the parsed values are views of the YAML text, which they would otherwise keep alive in the shelf.
  return {
    ok: true,
    frontmatter: structuredClone(frontmatter) as Record<string, unknown>,
    bodyOffset: Math.min(closingEnd + 1, bytes.length),
  };
}

function survivesJson(value: unknown): boolean {
  try {
    JSON.stringify(value);
  } catch {
    return false;
  }
  return true;
}

/** Where the YAML between the fences lies: `[yamlStart, closing)`; the closing fence line ends at `closingEnd`. */
function frontmatterSpan(bytes: Uint8Array): { yamlStart: number; closing: number; closingEnd: number } | undefined {
  const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const firstEnd = lineEnd(bytes, start);
  if (!isFence(bytes, start, firstEnd)) return undefined;
  const yamlStart = firstEnd + 1;
  // Stryker disable next-line EqualityOperator: equivalent; at the very end the line is empty, which is no fence
  for (let s = yamlStart; s < bytes.length;) {
    const e = lineEnd(bytes, s);
    if (isFence(bytes, s, e)) return { yamlStart, closing: s, closingEnd: e };
    s = e + 1;
  }
  return undefined;
}

/** SKILL.md with the values of some top-level frontmatter keys replaced and every other byte kept, with the body's
 *  new offset; `undefined` when one of them is not a single scalar that can be replaced in place. A value is
 *  written plain when it is a valid skill name, else as a double-quoted (JSON) string.
 *  `---\nname: My Skill\n---\nx` + `{name: "my-skill"}` => `---\nname: my-skill\n---\nx`. */
export function rewriteSkillMd(
  bytes: Uint8Array,
  bodyOffset: number,
  values: Readonly<Record<string, string>>,
): { bytes: Uint8Array; bodyOffset: number } | undefined {
  const span = frontmatterSpan(bytes);
  if (span === undefined) return undefined;
  let text = new TextDecoder("utf-8").decode(bytes.subarray(span.yamlStart, span.closing));
  const doc = parseDocument(text, { version: "1.2", resolveKnownTags: false });
  if (doc.errors.length > 0 || !isMap(doc.contents)) return undefined;
  const edits: [number, number, string][] = [];
  for (const [key, value] of Object.entries(values)) {
    const pair = doc.contents.items.find((item) => isScalar(item.key) && item.key.value === key);
    const range = pair !== undefined && isScalar(pair.value) ? pair.value.range : undefined;
    if (!range) return undefined;
    // A block scalar's range (`|`, `>-`, …) ends after its last line break (and, kept by `|+`, its trailing empty
    // lines): those stay, or the next key (or the closing fence) would be glued to the value.
    const kept = /(?:\r?\n)*$/.exec(text.slice(range[0], range[1]))?.[0] ?? "";
    edits.push([range[0], range[1], (isSkillName(value) ? value : JSON.stringify(value)) + kept]);
  }
  // Ranges count UTF-16 code units of `text`: splice from the last, then encode again.
  for (const [from, to, value] of edits.sort((a, b) => b[0] - a[0])) text = text.slice(0, from) + value + text.slice(to);
  const yaml = new TextEncoder().encode(text);
  const out = new Uint8Array(span.yamlStart + yaml.byteLength + (bytes.byteLength - span.closing));
  out.set(bytes.subarray(0, span.yamlStart), 0);
  out.set(yaml, span.yamlStart);
  out.set(bytes.subarray(span.closing), span.yamlStart + yaml.byteLength);
  return { bytes: out, bodyOffset: bodyOffset + out.byteLength - bytes.byteLength };
}

/** The YAML text between SKILL.md's fences, or undefined when it has none. */
export function frontmatterText(bytes: Uint8Array): string | undefined {
  const span = frontmatterSpan(bytes);
  return span === undefined ? undefined : new TextDecoder("utf-8").decode(bytes.subarray(span.yamlStart, span.closing));
}

/** SKILL.md with the YAML between its fences replaced by `yaml` (fences and body kept byte for byte), with the
 *  body's new offset; undefined when it has no frontmatter. */
export function replaceFrontmatter(
  bytes: Uint8Array,
  bodyOffset: number,
  yaml: string,
): { bytes: Uint8Array; bodyOffset: number } | undefined {
  const span = frontmatterSpan(bytes);
  if (span === undefined) return undefined;
  const text = new TextEncoder().encode(yaml);
  const out = new Uint8Array(span.yamlStart + text.byteLength + (bytes.byteLength - span.closing));
  out.set(bytes.subarray(0, span.yamlStart), 0);
  out.set(text, span.yamlStart);
  out.set(bytes.subarray(span.closing), span.yamlStart + text.byteLength);
  return { bytes: out, bodyOffset: bodyOffset + out.byteLength - bytes.byteLength };
}

/** The Agent Skills name rule (§3.4): `pdf-tools` => true, `-x`, `a--b`, `PDF` => false. */
export function isSkillName(name: string): boolean {
  return /^[a-z0-9-]{1,64}$/.test(name) && !name.startsWith("-") && !name.endsWith("-") && !name.includes("--");
}

export type SkillCheck =
  { readonly ok: true; readonly name: string; readonly description: string } | { readonly ok: false; readonly reason: string };

/** Name and description rules (§3.3, §3.4). `dirName` is `null` for a whole-plugin skill (any valid name). */
export function checkSkillFrontmatter(frontmatter: Readonly<Record<string, unknown>>, dirName: string | null): SkillCheck {
  const name = frontmatter["name"];
  if (name === undefined || name === null) return { ok: false, reason: REASONS.noName };
  if (typeof name !== "string") return { ok: false, reason: nameNotString(name) };
  if (!isSkillName(name)) return { ok: false, reason: REASONS.badName(name) };
  if (dirName !== null && name !== dirName) return { ok: false, reason: REASONS.nameMismatch(name, dirName) };
  const description = frontmatter["description"];
  if (description === undefined || description === null) return { ok: false, reason: REASONS.noDescription };
  if (typeof description !== "string" || description.trim() === "") return { ok: false, reason: REASONS.emptyDescription };
  // Characters are code points, as the Agent Skills reference counts them (an emoji is one character).
  const chars = [...description].length;
  if (chars > MAX_DESCRIPTION_CHARS) return { ok: false, reason: REASONS.longDescription(chars) };
  return { ok: true, name, description };
}

/** A name YAML did not read as a string: a number or boolean is to be quoted; anything else is no name. */
function nameNotString(name: unknown): string {
  const scalar = typeof name === "number" || typeof name === "boolean";
  return REASONS.nameNotString(kindOf(name), scalar ? String(name) : null);
}

/** What YAML read, for a message: `a number`, `a list`, `nothing`. */
function kindOf(value: unknown): string {
  if (value === null) return "nothing";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a mapping";
  if (typeof value === "boolean") return `the boolean ${value}`;
  return `a ${typeof value}`;
}

/** What the lenient policy did to serve a skill the strict rule would skip. */
export interface LenientCheck {
  readonly ok: true;
  /** The name served (in the frontmatter and, unless `byName`, the folder's). */
  readonly name: string;
  /** The description for listing and index rows, cut at a word boundary when over the limit. */
  readonly description: string;
  /** The skill is served at its parent folder's address plus `name`, not at its folder's own. */
  readonly byName: boolean;
  /** The frontmatter's name breaks the rule: the served frontmatter's `name` is set to `name`. */
  readonly renamed: boolean;
  /** The description is over the limit: the served frontmatter's `description` is set to `description`. */
  readonly cut: boolean;
  /** One sentence per rule bent: the rule and what was done. */
  readonly warnings: readonly string[];
}

/** The lenient policy: a valid name that differs from its folder is served at the address it gives; a name that
 *  breaks the rule in a folder whose name keeps it is served under the folder's name; a long description is cut in
 *  rows. Everything else (no name, no description, both names bad) is skipped as under the strict rule. */
export function checkSkillFrontmatterLenient(
  frontmatter: Readonly<Record<string, unknown>>,
  dirName: string | null,
): LenientCheck | { readonly ok: false; readonly reason: string } {
  const raw = frontmatter["name"];
  if (raw === undefined || raw === null) return { ok: false, reason: REASONS.noName };
  const warnings: string[] = [];
  let name: string;
  let byName = false;
  let renamed = false;
  if (typeof raw === "string" && isSkillName(raw)) {
    name = raw;
    if (dirName !== null && raw !== dirName) {
      byName = true;
      warnings.push(REASONS.servedByName(raw, dirName));
    }
  } else if (typeof raw === "string" && dirName !== null && isSkillName(dirName)) {
    name = dirName;
    renamed = true;
    warnings.push(REASONS.servedByFolder(raw, dirName));
  } else {
    return { ok: false, reason: typeof raw === "string" ? REASONS.badName(raw) : nameNotString(raw) };
  }
  const description = frontmatter["description"];
  if (description === undefined || description === null) return { ok: false, reason: REASONS.noDescription };
  if (typeof description !== "string" || description.trim() === "") return { ok: false, reason: REASONS.emptyDescription };
  const chars = [...description].length;
  if (chars <= MAX_DESCRIPTION_CHARS) return { ok: true, name, description, byName, renamed, cut: false, warnings };
  warnings.push(REASONS.descriptionCut(chars));
  return { ok: true, name, description: cutAtWord(description, MAX_DESCRIPTION_CHARS), byName, renamed, cut: true, warnings };
}
