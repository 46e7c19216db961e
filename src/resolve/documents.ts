// §4: the generated documents, rendered once per (shelf, scope) and memoised in the library view.
import { lookup } from "./lookup.js";
import { compareCodeUnits, FILES_FILE, formatSkillMdUri, formatSkillUri, INDEX_FILE, isAddressableSegment } from "../address/index.js";
import type { FolderNode, LibraryView, Manifest } from "./view.js";
import type { Skill } from "../shelf/index.js";

/** The closing advice of every index: how to take the next step. */
export const INDEX_ADVICE =
  "Read a folder's _index.md to see what it holds, a skill's SKILL.md for its instructions, and the skill's _manifest for the other files it ships.";

/** The sentence of `_files.md` between its title and its URIs. */
const FILES_ADVICE = "These files sit outside every skill; skills cite them, so read one when a skill points to it.";

/** `(1, "skill")` => `1 skill`; `(3, "library file")` => `3 library files`. */
export function formatCount(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/** Newlines and whitespace runs become one space: `a\n  b ` => `a b`. */
export function formatOneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** §4.1: child folders by name, then skills at this level by name, then (library index only) `_files.md`. */
export function renderIndex(lib: LibraryView, folder: FolderNode): string {
  const key = folder.segments.join("/");
  const cached = lib.indexTexts.get(key);
  if (cached !== undefined) return cached;
  const name = lib.library.name;
  const title = folder.segments.length === 0 ? name : `${name}/${key}`;
  const lines = [`# ${title} — ${formatCount(folder.count, "skill")}`, ""];
  for (const child of [...folder.folders].sort(compareCodeUnits)) {
    const node = lib.folders.get(key === "" ? child : `${key}/${child}`) as FolderNode;
    lines.push(`${formatSkillUri(name, [...folder.segments, child, INDEX_FILE])}: ${formatCount(node.count, "skill")}`);
  }
  const skills = [...folder.skills].sort((a, b) => compareCodeUnits(leafOf(a), leafOf(b)));
  for (const skill of skills) {
    lines.push(`${formatSkillMdUri(name, skill.address)}: ${formatOneLine(skill.description)}`);
  }
  if (folder.segments.length === 0 && lib.files.length > 0) {
    lines.push(`${formatSkillUri(name, [FILES_FILE])}: ${formatCount(lib.files.length, "library file")}`);
  }
  lines.push("", INDEX_ADVICE, "");
  const text = lines.join("\n");
  lib.indexTexts.set(key, text);
  return text;
}

function leafOf(skill: Skill): string {
  return skill.address[skill.address.length - 1] as string;
}

/** §4.2: title, the advice sentence, then one URI per line in plugin order then path order. */
export function renderFiles(lib: LibraryView): string {
  if (lib.filesText !== undefined) return lib.filesText;
  const name = lib.library.name;
  const lines = [`# ${name} — ${formatCount(lib.files.length, "library file")}`, "", FILES_ADVICE, ""];
  for (const file of lib.files) lines.push(formatSkillUri(name, file.path.split("/")));
  lines.push("");
  lib.filesText = lines.join("\n");
  return lib.filesText;
}

/** §4.3: every path a read of `<skill>/<path>` answers with a file, with that answer's size and digest, so the
 *  manifest describes the exact bytes a read returns even where a generated document or a nested skill sits. */
export function manifestOf(lib: LibraryView, skill: Skill): Manifest {
  const key = skill.address.join("/");
  const cached = lib.manifests.get(key);
  if (cached !== undefined) return cached;
  const entries: string[] = [];
  const dirs = new Set<string>();
  for (const path of [...skill.paths].sort(compareCodeUnits)) {
    const segments = path.split("/");
    if (!segments.every(isAddressableSegment)) continue;
    const target = lookup(lib, [...skill.address, ...segments]);
    if (target === null || target.kind !== "file") continue;
    const { size, digest } = target.file;
    entries.push(`    {"path": ${JSON.stringify(path)}, "size": ${size}, "hash": ${JSON.stringify(digest)}}`);
    for (let end = path.indexOf("/"); end !== -1; end = path.indexOf("/", end + 1)) dirs.add(path.slice(0, end));
  }
  const id = JSON.stringify(`${lib.library.name}/${key}`);
  const files = entries.length === 0 ? "[]" : `[\n${entries.join(",\n")}\n  ]`;
  const manifest = { text: `{\n  "skill": ${id},\n  "files": ${files}\n}\n`, dirs };
  lib.manifests.set(key, manifest);
  return manifest;
}
