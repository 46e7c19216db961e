// A `skill://` URI becomes (library, segments) in exactly this one place, and every URI the server publishes is
// formatted here. Total: odd input is null, never a throw.

const SCHEME = "skill://";

/** The reserved names of the address space (§1, §4). */
export const INDEX_FILE = "_index.md";
export const FILES_FILE = "_files.md";
export const MANIFEST_FILE = "_manifest";
export const SKILL_FILE = "SKILL.md";

/** A generated document and which of its pages a name asks for: `_index.md` => index page 0 (the document
 *  itself), `_files-3.md` => files page 3; any other name => null. Page numbers have no leading zero. */
export function generatedDocumentOf(name: string): { readonly document: "index" | "files"; readonly page: number } | null {
  const match = /^_(index|files)(?:-([1-9][0-9]{0,5}))?\.md$/.exec(name);
  if (match === null) return null;
  return { document: match[1] === "index" ? "index" : "files", page: match[2] === undefined ? 0 : Number(match[2]) };
}

/** The name of page `page` of a generated document (`0` is the document itself). */
export function formatPageName(document: "index" | "files", page: number): string {
  return page === 0 ? `_${document}.md` : `_${document}-${page}.md`;
}

export interface SkillAddress {
  readonly library: string;
  /** Decoded, dot segments removed (clamped at the library root), empty segments dropped. */
  readonly segments: string[];
}

/** Percent-decode one segment once (RFC 3986, UTF-8): `gr%61fana` => `grafana`, `%252e` => `%2e`.
 *  A malformed escape or invalid UTF-8 is null, and so is a decoded `/`, `\` or NUL: they would let one
 *  segment smuggle a separator or a string terminator past the per-segment checks (as pillarjs/send refuses). */
function decodeSegment(raw: string): string | null {
  let decoded = raw;
  // Stryker disable next-line ConditionalExpression,StringLiteral: equivalent; a fast path, decoding no escape is the identity.
  if (raw.includes("%")) {
    try {
      decoded = decodeURIComponent(raw);
    } catch {
      return null; // a `%` not followed by two hex digits, or escapes that are not UTF-8 (URIError)
    }
  }
  if (decoded.includes("/") || decoded.includes("\\") || decoded.includes("\0")) return null;
  return decoded;
}

/** `skill://other/../grafana/x/SKILL.md` => `{library: "other", segments: ["grafana", "x", "SKILL.md"]}`;
 *  `skill://g/a/%2e%2e/b/` => `{library: "g", segments: ["b"]}`; `skill://g/a%2Fb` => null; `http://g/x` => null.
 *  `?` and `#` are ordinary characters here: a skill URI has no query or fragment. */
export function parseSkillUri(uri: string): SkillAddress | null {
  if (typeof uri !== "string" || !uri.startsWith(SCHEME)) return null;
  const raw = uri.slice(SCHEME.length).split("/");
  const library = decodeSegment(raw[0] ?? "");
  if (library === null || library === "") return null;
  const segments: string[] = [];
  for (let i = 1; i < raw.length; i++) {
    // Every segment is decoded (and may refuse the URI) even when a later `..` removes it.
    const segment = decodeSegment(raw[i] as string);
    if (segment === null) return null;
    if (segment === "" || segment === ".") continue;
    // `..` removes the segment before it; with nothing before it, it is dropped: the library never changes.
    if (segment === "..") segments.pop();
    else segments.push(segment);
  }
  return { library, segments };
}

// What must be escaped so a segment parses back to itself (`%`), plus what RFC 3986 forbids in a path
// (controls, space, `"`, `<`, `>`, `[`, `]`, `^`, `` ` ``, `{`, `|`, `}`) and `?`/`#`, which generic URI parsers would
// cut off. Non-ASCII stays (IRI). A backslash never gets here: no addressable segment holds one.
const UNSAFE = /[\u0000-\u0020\u007f%?#"<>[\]^`{|}]/g;

/** `my notes` => `my%20notes`; `100%` => `100%25`; `loki` => `loki`. */
export function encodeSegment(segment: string): string {
  UNSAFE.lastIndex = 0;
  // Stryker disable next-line ConditionalExpression: equivalent; a fast path, replacing no match returns the segment.
  if (!UNSAFE.test(segment)) return segment;
  return segment.replace(UNSAFE, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`);
}

/** The inverse of `parseSkillUri` for addressable segments: `("grafana", ["loki", "SKILL.md"])` =>
 *  `skill://grafana/loki/SKILL.md`. Every URI the server publishes is built here. */
export function formatSkillUri(library: string, segments: readonly string[]): string {
  let uri = SCHEME + encodeSegment(library);
  for (const segment of segments) uri += `/${encodeSegment(segment)}`;
  return uri;
}

/** The SKILL.md of the skill at `address` below `library`: `("grafana", ["lgtm", "loki"])` =>
 *  `skill://grafana/lgtm/loki/SKILL.md`. */
export function formatSkillMdUri(library: string, address: readonly string[]): string {
  return `${formatSkillUri(library, address)}/${SKILL_FILE}`;
}

/** Whether a segment survives `parseSkillUri` unchanged once encoded: not empty, not a dot segment, no separator. */
export function isAddressableSegment(segment: string): boolean {
  return (
    segment !== "" && segment !== "." && segment !== ".." && !segment.includes("/") && !segment.includes("\\") && !segment.includes("\0")
  );
}
