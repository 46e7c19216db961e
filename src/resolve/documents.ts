// §4: the generated documents, rendered once per (shelf, scope) and memoised in the library view.
import { lookup } from "./lookup.js";
import {
  compareCodeUnits,
  FILES_FILE,
  formatOneLine,
  formatPageName,
  formatSkillMdUri,
  formatSkillUri,
  INDEX_FILE,
  isAddressableSegment,
} from "../address/index.js";
import type { FolderNode, LibraryView, Manifest, ManifestEntry } from "./view.js";
import type { Skill } from "../shelf/index.js";

/** The closing advice of every index: how to take the next step. */
export const INDEX_ADVICE =
  "Read a folder's _index.md to see what it holds, a skill's SKILL.md for its instructions, and the skill's _manifest for the other files it ships.";

/** The sentence of `_files.md` between its title and its URIs. */
const FILES_ADVICE = "These files sit outside every skill; skills cite them, so read one when a skill points to it.";

/** No generated document is larger: one read never floods a model's context, whatever the library's shape. */
export const MAX_DOCUMENT_BYTES = 32 * 1024;

/** An index row's description is cut to this many characters, after a whole word. */
export const ROW_DESCRIPTION_CHARS = 256;

/** `(1, "skill")` => `1 skill`; `(3, "library file")` => `3 library files`. */
export function formatCount(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/** One line of a document and the name a page's range shows for it. */
interface Entry {
  readonly line: string;
  readonly label: string;
}

/** What a document says around its entries: title, lines before and after them, and where its pages live. */
interface Layout {
  /** `<library>` or `<library>/<folder>`: a page's title is this and its number alone, so a page changes only
   *  when its own entries do. */
  readonly name: string;
  readonly title: string;
  readonly before: readonly string[];
  /** Lines after the entries that stay on the first document (the `_files.md` line of a library index). */
  readonly extra: readonly string[];
  readonly after: readonly string[];
  readonly noun: string;
  readonly pageUri: (page: number) => string;
}

/** §4.1: child folders by name, then skills at this level by name, then (library index only) `_files.md`.
 *  `[0]` is `_index.md`; when that would pass MAX_DOCUMENT_BYTES it lists pages `[1…]` instead. */
export function indexPages(lib: LibraryView, folder: FolderNode): readonly string[] {
  const key = folder.segments.join("/");
  const cached = lib.indexPages.get(key);
  // Stryker disable next-line ConditionalExpression: equivalent; the cache only saves work, a second rendering is the same text.
  if (cached !== undefined) return cached;
  const name = lib.library.name;
  const entries: Entry[] = [];
  for (const child of [...folder.folders].sort(compareCodeUnits)) {
    const node = lib.folders.get(key === "" ? child : `${key}/${child}`) as FolderNode;
    const line = `${formatSkillUri(name, [...folder.segments, child, INDEX_FILE])}: ${formatCount(node.count, "skill")}`;
    entries.push({ line, label: `${child}/` });
  }
  const skills = [...folder.skills].sort((a, b) => compareCodeUnits(leafOf(a), leafOf(b)));
  for (const skill of skills) {
    const line = `${formatSkillMdUri(name, skill.address)}: ${formatOneLine(skill.description, ROW_DESCRIPTION_CHARS)}`;
    entries.push({ line, label: leafOf(skill) });
  }
  const extra =
    folder.segments.length === 0 && lib.files.length > 0
      ? [`${formatSkillUri(name, [FILES_FILE])}: ${formatCount(lib.files.length, "library file")}`]
      : [];
  const pages = renderPages(entries, {
    name: folder.segments.length === 0 ? name : `${name}/${key}`,
    title: `# ${folder.segments.length === 0 ? name : `${name}/${key}`} — ${formatCount(folder.count, "skill")}`,
    before: [""],
    extra,
    after: ["", INDEX_ADVICE, ""],
    noun: "entry",
    pageUri: (page) => formatSkillUri(name, [...folder.segments, formatPageName("index", page)]),
  });
  lib.indexPages.set(key, pages);
  return pages;
}

function leafOf(skill: Skill): string {
  return skill.address[skill.address.length - 1] as string;
}

/** §4.2: title, the advice sentence, then one URI per line in plugin order then path order; paged like an index. */
export function filesPages(lib: LibraryView): readonly string[] {
  // Stryker disable next-line ConditionalExpression: equivalent; the cache only saves work, a second rendering is the same text.
  if (lib.filesPages !== undefined) return lib.filesPages;
  const name = lib.library.name;
  const entries = lib.files.map((file) => ({ line: formatSkillUri(name, file.path.split("/")), label: file.path }));
  lib.filesPages = renderPages(entries, {
    name,
    title: `# ${name} — ${formatCount(lib.files.length, "library file")}`,
    before: ["", FILES_ADVICE, ""],
    extra: [],
    after: [""],
    noun: "file",
    pageUri: (page) => formatSkillUri(name, [formatPageName("files", page)]),
  });
  return lib.filesPages;
}

/** The whole document when it fits in MAX_DOCUMENT_BYTES; otherwise a contents document naming each page with
 *  its first and last entry, then the pages, each filled with whole entries up to the same bound. */
function renderPages(entries: readonly Entry[], layout: Layout): readonly string[] {
  const whole = [layout.title, ...layout.before, ...entries.map((entry) => entry.line), ...layout.extra, ...layout.after].join("\n");
  if (byteLength(whole) <= MAX_DOCUMENT_BYTES) return Object.freeze([whole]);
  // The frame of a page with the widest page numbers it could carry: what is left is for entries.
  const widest = `# ${layout.name} — page ${entries.length}`;
  const room = MAX_DOCUMENT_BYTES - byteLength([widest, ...layout.before, ...layout.after].join("\n")) - 1;
  const groups: Entry[][] = [];
  let group: Entry[] = [];
  let used = 0;
  for (const entry of entries) {
    const size = byteLength(entry.line) + 1;
    if (group.length > 0 && used + size > room) {
      groups.push(group);
      group = [];
      used = 0;
    }
    group.push(entry);
    used += size;
  }
  groups.push(group);
  const total = groups.length;
  const pages = groups.map((lines, i) =>
    [`# ${layout.name} — page ${i + 1}`, ...layout.before, ...lines.map((entry) => entry.line), ...layout.after].join("\n"),
  );
  let first = 0;
  const ranges = groups.map((lines, i) => {
    const from = first + 1;
    first += lines.length;
    const range = `${layout.noun === "entry" ? "entries" : `${layout.noun}s`} ${from}–${first}`;
    return `${layout.pageUri(i + 1)}: ${range}, ${(lines[0] as Entry).label} to ${(lines[lines.length - 1] as Entry).label}`;
  });
  const lead = `It is split into ${total} pages of at most ${MAX_DOCUMENT_BYTES / 1024} KB; read the page whose range holds the name you look for.`;
  const contents = (rows: readonly string[]): string => [layout.title, "", lead, "", ...rows, ...layout.extra, ...layout.after].join("\n");
  let opening = contents(ranges);
  // Thousands of pages: the ranges no longer fit, so the contents names the pages alone.
  if (byteLength(opening) > MAX_DOCUMENT_BYTES) opening = contents(groups.map((_lines, i) => layout.pageUri(i + 1)));
  return Object.freeze([opening, ...pages]);
}

const encoder = new TextEncoder();

function byteLength(text: string): number {
  return encoder.encode(text).length;
}

/** §4.3: every path a read of `<skill>/<path>` answers with a file, with that answer's size and digest, so the
 *  manifest describes the exact bytes a read returns even where a generated document or a nested skill sits. */
export function manifestOf(lib: LibraryView, skill: Skill): Manifest {
  const key = skill.address.join("/");
  const cached = lib.manifests.get(key);
  // Stryker disable next-line ConditionalExpression: equivalent; the cache only saves work, a second rendering is the same text.
  if (cached !== undefined) return cached;
  const files: ManifestEntry[] = [];
  const dirs = new Set<string>();
  for (const path of [...skill.paths].sort(compareCodeUnits)) {
    const segments = path.split("/");
    if (!segments.every(isAddressableSegment)) continue;
    const target = lookup(lib, [...skill.address, ...segments]);
    if (target === null || target.kind !== "file") continue;
    const { size, digest } = target.file;
    files.push({ path, size, hash: digest });
    // Stryker disable next-line StringLiteral: equivalent; starting at 0 only adds "", the skill's root, which no hint asks.
    for (let end = path.indexOf("/"); end !== -1; end = path.indexOf("/", end + 1)) dirs.add(path.slice(0, end));
  }
  const id = JSON.stringify(`${lib.library.name}/${key}`);
  const entries = files.map(
    (entry) => `    {"path": ${JSON.stringify(entry.path)}, "size": ${entry.size}, "hash": ${JSON.stringify(entry.hash)}}`,
  );
  // Stryker disable next-line ConditionalExpression,StringLiteral: equivalent; a skill's SKILL.md always reads back, so the list is never empty.
  const list = entries.length === 0 ? "[]" : `[\n${entries.join(",\n")}\n  ]`;
  const manifest = { text: `{\n  "skill": ${id},\n  "files": ${list}\n}\n`, files, dirs };
  lib.manifests.set(key, manifest);
  return manifest;
}
