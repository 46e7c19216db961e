// SKILL.md: the frontmatter block (§3.3) and the name rule (§3.4). Pure: bytes in, a value out.
import { isMap, parseDocument } from "yaml";

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
  while (e > start && (bytes[e - 1] === CR || bytes[e - 1] === 0x20 || bytes[e - 1] === 0x09)) e--;
  return e - start === 3 && bytes[start] === 0x2d && bytes[start + 1] === 0x2d && bytes[start + 2] === 0x2d;
}

function lineEnd(bytes: Uint8Array, from: number): number {
  const i = bytes.indexOf(LF, from);
  return i < 0 ? bytes.length : i;
}

/** `a: b: c` => `Nested mappings are not allowed in compact mappings at line 2, column 4 of SKILL.md`. */
function describeYamlError(message: string, line: number | undefined, col: number | undefined): string {
  const head = (message.split("\n")[0] ?? "").replace(/ at line \d+, column \d+:?\s*$/, "").replace(/[.:]\s*$/, "");
  // +1: the frontmatter starts on the line after the opening `---`.
  return line === undefined ? head : `${head} at line ${line + 1}, column ${col ?? 1} of SKILL.md`;
}

/**
 * `---\nname: x\n---\nbody` => `{frontmatter: {name: "x"}, bodyOffset: 15}`. Tolerates a BOM and CRLF; the
 * offset counts bytes as on disk (BOM included), so the body is `bytes.subarray(bodyOffset)`.
 */
export function parseSkillMd(bytes: Uint8Array): SkillMdParse {
  const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const firstEnd = lineEnd(bytes, start);
  if (firstEnd >= bytes.length || !isFence(bytes, start, firstEnd)) return { ok: false, reason: REASONS.noFrontmatter };
  const yamlStart = firstEnd + 1;
  let closing = -1;
  let closingEnd = bytes.length;
  for (let s = yamlStart; s < bytes.length;) {
    const e = lineEnd(bytes, s);
    if (isFence(bytes, s, e)) {
      closing = s;
      closingEnd = e;
      break;
    }
    s = e + 1;
  }
  if (closing < 0) return { ok: false, reason: REASONS.noFrontmatter };
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes.subarray(yamlStart, closing));
  } catch {
    return { ok: false, reason: REASONS.notUtf8 };
  }
  // resolveKnownTags off: `!!binary`, `!!set`, `!!omap` stay plain data (a string, a mapping, a list), since the
  // frontmatter is published as JSON by skills/list and must survive that unchanged.
  const doc = parseDocument(text, { version: "1.2", prettyErrors: true, resolveKnownTags: false });
  const error = doc.errors[0];
  if (error !== undefined) {
    return { ok: false, reason: REASONS.unparseable(describeYamlError(error.message, error.linePos?.[0].line, error.linePos?.[0].col)) };
  }
  if (!isMap(doc.contents)) return { ok: false, reason: REASONS.notMapping };
  let frontmatter: unknown;
  try {
    frontmatter = doc.toJS({ maxAliasCount: 100 });
  } catch (e) {
    // An alias bomb or a circular alias: the document is valid YAML but not plain data.
    return {
      ok: false,
      reason: REASONS.unparseable(
        describeYamlError(e instanceof Error ? e.message : "it cannot be read as plain data", undefined, undefined),
      ),
    };
  }
  // A copy: the parsed values are views of the YAML text, which they would otherwise keep alive in the shelf.
  return {
    ok: true,
    frontmatter: structuredClone(frontmatter) as Record<string, unknown>,
    bodyOffset: Math.min(closingEnd + 1, bytes.length),
  };
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
  if (typeof name !== "string" || !isSkillName(name)) {
    return { ok: false, reason: REASONS.badName(typeof name === "string" ? name : (JSON.stringify(name) ?? String(name))) };
  }
  if (dirName !== null && name !== dirName) return { ok: false, reason: REASONS.nameMismatch(name, dirName) };
  const description = frontmatter["description"];
  if (description === undefined || description === null) return { ok: false, reason: REASONS.noDescription };
  if (typeof description !== "string" || description.trim() === "") return { ok: false, reason: REASONS.emptyDescription };
  // Characters are code points, as the Agent Skills reference counts them (an emoji is one character).
  const chars = [...description].length;
  if (chars > MAX_DESCRIPTION_CHARS) return { ok: false, reason: REASONS.longDescription(chars) };
  return { ok: true, name, description };
}
