// Pure: the files of a skill as a library serves them — any file as harvested (read from disk when asked), and
// SKILL.md with its frontmatter as hosts accept it (lenient names rewritten, or normalised whole) and the
// placeholders of its body substituted for the library it is served in, with its own bytes and digest when changed.
import { digestBytes, mimeTypeFor, type PlaceholderBases, substitutePlaceholders } from "../address/index.js";
import { type HarvestedFile, type HarvestedSkill, replaceFrontmatter, rewrites, rewriteSkillMd } from "../harvest/index.js";
import type { ServedFile } from "./types.js";

/** A harvested file as served: its size, digest and type, read from disk when asked. */
export function serveFile(file: HarvestedFile): ServedFile {
  return {
    size: file.size,
    digest: file.digest,
    mimeType: mimeTypeFor(file.path, file.text),
    text: file.text,
    // The harvested file itself (reads use its real path, size and mtime): one object per file, not one per library.
    disk: file,
  };
}

const UTF8 = new TextDecoder("utf-8");
const ENCODER = new TextEncoder();

/** SKILL.md as served in `library`: frontmatter verbatim, placeholders in the body substituted. Only a
 *  substituted one carries its bytes; the rest are served from disk like any file. */
export function serveSkillMd(skill: HarvestedSkill, bases: PlaceholderBases): ServedFile {
  const base = { ...serveFile(skill.skillMd), mimeType: "text/markdown" };
  let raw = skill.skillMd.bytes;
  const values = rewrites(skill);
  const rewritten = Object.keys(values).length > 0 || skill.servedFrontmatter !== undefined;
  if ((!skill.placeholders && !rewritten) || raw === undefined) return base;
  let bodyOffset = skill.bodyOffset;
  if (skill.servedFrontmatter !== undefined) {
    // Hosts would refuse the file's frontmatter (naming: lenient): the normalised one replaces it whole.
    const served = replaceFrontmatter(raw, bodyOffset, skill.servedFrontmatter.yaml);
    if (served !== undefined) ({ bytes: raw, bodyOffset } = served);
  } else if (rewritten) {
    // Lenient naming: only those values differ from the file (harvest checked that they can be replaced).
    const served = rewriteSkillMd(raw, bodyOffset, values);
    if (served !== undefined) ({ bytes: raw, bodyOffset } = served);
  }
  if (!skill.placeholders) return { ...base, bytes: raw, size: raw.byteLength, digest: digestBytes(raw) };
  const body = substitutePlaceholders(UTF8.decode(raw.subarray(bodyOffset)), bases);
  const served = concat(raw.subarray(0, bodyOffset), ENCODER.encode(body));
  return { ...base, bytes: served, size: served.byteLength, digest: digestBytes(served) };
}

function concat(head: Uint8Array, tail: Uint8Array): Uint8Array {
  const out = new Uint8Array(head.byteLength + tail.byteLength);
  out.set(head, 0);
  out.set(tail, head.byteLength);
  return out;
}
