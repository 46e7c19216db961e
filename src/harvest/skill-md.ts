// Reading one skill's SKILL.md at harvest: skipped when the file is unchanged since the last harvest, its parse kept
// when its bytes are; parsed into frontmatter, where the body starts, the body's citations and placeholders; and its
// bytes kept only when what is served will differ from the file (placeholders, a lenient rewrite).
import { hasPlaceholders } from "../address/index.js";
import { findCitations } from "./citations.js";
import type { HarvestContext } from "./context.js";
import { sameStat } from "./digest.js";
import { isSkillName, parseSkillMd } from "./frontmatter.js";
import { MAX_DESCRIPTION_CHARS, REASONS } from "./reasons.js";
import type { HarvestedFile, HarvestedSkill } from "./types.js";
import type { WalkEntry } from "./walk.js";

const SKILL_MD = "SKILL.md";

/** What a SKILL.md's parse gives beyond its file: the frontmatter, where the body starts, and the body's facts. */
export type SkillMdBody = Pick<HarvestedSkill, "frontmatter" | "bodyOffset" | "cites" | "placeholders" | "servedFrontmatter">;

/** `bytes`: a copy of a SKILL.md just read, for the host check (absent when an unchanged one was not read). */
export type SkillMdRead =
  | { readonly ok: true; readonly file: HarvestedFile; readonly parse: SkillMdBody; readonly bytes?: Uint8Array }
  | { readonly ok: false; readonly reason: string };

const UTF8 = new TextDecoder("utf-8");

/** Read and parse a candidate's SKILL.md. An unchanged one (same real path, size and mtime) is neither read
 *  nor parsed again; one whose bytes are unchanged keeps its parse. The bytes are kept only when placeholders in
 *  the body are to be substituted at build; every other SKILL.md is served from disk like any file. */
export async function readSkillMd(ctx: HarvestContext, dir: string, entry: WalkEntry): Promise<SkillMdRead> {
  const before = ctx.priorSkills.get(dir);
  const keepsBytes = (s: HarvestedSkill): boolean =>
    s.placeholders || s.servedFrontmatter !== undefined || (ctx.naming === "lenient" && needsRewrite(s.frontmatter));
  if (before !== undefined && sameStat(before.skillMd, entry) && (!keepsBytes(before) || before.skillMd.bytes !== undefined)) {
    return { ok: true, file: { ...before.skillMd, path: SKILL_MD }, parse: before };
  }
  let parsed = { reason: REASONS.unreadable("no bytes") } as BodyParse;
  const read = await ctx.reader.readWith(entry, (bytes, digest) => {
    parsed = parseBody(bytes, digest, before);
  });
  if (!read.ok) return { ok: false, reason: REASONS.unreadable(read.code) };
  if ("reason" in parsed) return { ok: false, reason: parsed.reason };
  const keep = parsed.parse.placeholders || (ctx.naming === "lenient" && needsRewrite(parsed.parse.frontmatter));
  return {
    ok: true,
    file: { ...read.file, path: SKILL_MD, ...(keep ? { bytes: parsed.bytes } : {}) },
    parse: parsed.parse,
    bytes: parsed.bytes,
  };
}

type BodyParse = { readonly parse: SkillMdBody; readonly bytes: Uint8Array } | { readonly reason: string };

/** Whether lenient naming may serve this frontmatter with another name or a cut description, so the served bytes
 *  would differ from the file's. */
export function needsRewrite(frontmatter: Readonly<Record<string, unknown>>): boolean {
  const name = frontmatter["name"];
  const description = frontmatter["description"];
  return (
    (typeof name === "string" && !isSkillName(name)) || (typeof description === "string" && [...description].length > MAX_DESCRIPTION_CHARS)
  );
}

/** Parse SKILL.md's bytes (a view good only during the call): the previous parse when the bytes are the same, and
 *  a copy of the bytes (kept only when the body has placeholders to substitute or the served frontmatter differs). */
function parseBody(bytes: Uint8Array, digest: string, before: HarvestedSkill | undefined): BodyParse {
  let parse: SkillMdBody;
  if (before !== undefined && before.skillMd.digest === digest) {
    parse = before; // Same digest, same bytes: the YAML is not parsed again (the host check runs again).
  } else {
    const parsed = parseSkillMd(bytes);
    if (!parsed.ok) return { reason: parsed.reason };
    const body = UTF8.decode(bytes.subarray(parsed.bodyOffset));
    parse = {
      frontmatter: parsed.frontmatter,
      bodyOffset: parsed.bodyOffset,
      cites: findCitations(body),
      placeholders: hasPlaceholders(body),
    };
  }
  // A copy (a Buffer's `slice` would be another view of the shared read buffer).
  return { parse, bytes: new Uint8Array(bytes) };
}
