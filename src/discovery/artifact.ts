// What an installer downloads for one skill: its SKILL.md alone, or a gzipped tar of its folder. The artifact is
// made to work where it lands, offline: every `skill://` address its SKILL.md cites on the shelf becomes a path
// relative to the installed folder, and files of the same library outside the skill that it cites are copied in,
// under `_shelf/<path below the library>`. Archives are deterministic: the same served bytes give the same archive,
// byte for byte, on every replica, restart and rebuild (sorted entries, owner 0, mode 0755 or 0644 from the executable bit, time 0, gzip without
// a name or time). Pure: the bytes come through `read`.
import { gzipSync } from "node:zlib";
import { compareCodeUnits, digestBytes, formatSkillMdUri, formatSkillUri, parseSkillUri, SKILL_FILE } from "../address/index.js";
import type { Skill } from "../shelf/index.js";

/** The folder of an artifact that holds the library files its SKILL.md cites. */
export const SHELF_FOLDER = "_shelf";

/** A `skill://` address in text runs until whitespace or a character that closes Markdown or a quoted string. */
const CITED_URI = /skill:\/\/[^\s)\]"'`<>,;]+/g;

export type ArtifactType = "skill-md" | "archive";

export interface Artifact {
  readonly type: ArtifactType;
  readonly bytes: Uint8Array;
  /** `sha256:` + 64 lower-case hex of `bytes`. */
  readonly digest: string;
  /** Paths inside the artifact, sorted. */
  readonly paths: readonly string[];
}

/** The served bytes of one address under the caller's scope, or null when it is no file there. */
export type ReadBytes = (uri: string) => Promise<Uint8Array | null>;

const UTF8 = new TextDecoder("utf-8", { fatal: false });
const ENCODE = new TextEncoder();

/** A path stored as a plain ustar entry: a name of at most 100 bytes, with a prefix of at most 155 split off at a
 *  `/`. Longer paths would need a pax header, which some installers ignore (they would write the wrong name). */
export function fitsUstar(path: string): boolean {
  const bytes = Buffer.byteLength(path);
  if (bytes <= 100) return true;
  for (let at = path.indexOf("/"); at !== -1; at = path.indexOf("/", at + 1)) {
    if (Buffer.byteLength(path.slice(0, at)) <= 155 && Buffer.byteLength(path.slice(at + 1)) <= 100) return true;
  }
  return false;
}

/** Why an artifact cannot be made, for the operator: the index leaves the skill out and names it. */
export class ArtifactError extends Error {}

/** The artifact of `skill`: every file read through `read` (served bytes), its SKILL.md's addresses rewritten. */
export async function buildArtifact(skill: Skill, read: ReadBytes): Promise<Artifact> {
  const files = new Map<string, Uint8Array>();
  const executable = new Set(skill.paths.filter((path) => skill.files.get(path)?.disk.executable === true));
  const own = skillMdUri(skill);
  const skillMd = await read(own);
  if (skillMd === null) throw new ArtifactError(`${own} could not be read`);
  const { text, outside } = await rewriteCitations(skill, UTF8.decode(skillMd), read);
  files.set(SKILL_FILE, ENCODE.encode(text));
  for (const path of skill.paths) {
    if (path === SKILL_FILE) continue;
    const bytes = await read(formatSkillUri(skill.library, [...skill.address, ...path.split("/")]));
    if (bytes === null) throw new ArtifactError(`${skill.uri}/${path} could not be read`);
    files.set(path, bytes);
  }
  for (const [path, bytes] of outside) files.set(path, bytes);
  const paths = [...files.keys()].sort(compareCodeUnits);
  const tooLong = paths.find((path) => !fitsUstar(path));
  if (tooLong !== undefined)
    throw new ArtifactError(`the path ${tooLong} is too long for a portable tar archive (100 bytes of name, 155 of folders)`);
  if (paths.length === 1 && outside.size === 0) {
    const bytes = files.get(SKILL_FILE) as Uint8Array;
    return { type: "skill-md", bytes, digest: digestBytes(bytes), paths };
  }
  const bytes = await tarGz(paths.map((path) => ({ path, bytes: files.get(path) as Uint8Array, executable: executable.has(path) })));
  return { type: "archive", bytes, digest: digestBytes(bytes), paths };
}

function skillMdUri(skill: Skill): string {
  return formatSkillMdUri(skill.library, skill.address);
}

/** `skill://lib/x/pdf/scripts/a.py` in pdf's SKILL.md => `scripts/a.py`; `skill://lib/tools/run.sh` (a library file)
 *  => `_shelf/tools/run.sh`, copied in. Addresses in another library, or that are no file, stay as they are. */
async function rewriteCitations(skill: Skill, text: string, read: ReadBytes): Promise<{ text: string; outside: Map<string, Uint8Array> }> {
  const outside = new Map<string, Uint8Array>();
  const replacements = new Map<string, string>();
  const ownPaths = new Set(skill.paths);
  const shelfFolderTaken = skill.paths.some((path) => path.startsWith(`${SHELF_FOLDER}/`));
  for (const match of text.matchAll(CITED_URI)) {
    // Sentence punctuation after an address is prose: `see skill://lib/a.md.` cites `a.md`.
    const uri = match[0].replace(/[.:!?]+$/, "");
    if (replacements.has(uri)) continue;
    const parsed = parseSkillUri(uri);
    if (parsed === null || parsed.library !== skill.library || parsed.segments.length === 0) continue;
    const inside = skill.address.every((segment, at) => parsed.segments[at] === segment);
    if (inside) {
      const path = parsed.segments.slice(skill.address.length).join("/");
      if (ownPaths.has(path)) replacements.set(uri, path);
      continue;
    }
    if (shelfFolderTaken) continue;
    const bytes = await read(uri);
    if (bytes === null) continue;
    const path = `${SHELF_FOLDER}/${parsed.segments.join("/")}`;
    outside.set(path, bytes);
    replacements.set(uri, path);
  }
  if (replacements.size === 0) return { text, outside };
  const rewritten = text.replace(CITED_URI, (found) => {
    const uri = found.replace(/[.:!?]+$/, "");
    const path = replacements.get(uri);
    return path === undefined ? found : path + found.slice(uri.length);
  });
  return { text: rewritten, outside };
}

/** A gzipped ustar archive of `entries` in the order given: owner 0, mode 0755 for an executable file and 0644 for
 *  any other, time 0; gzip stores no name and time 0, so equal entries give equal bytes. */
async function tarGz(entries: readonly { path: string; bytes: Uint8Array; executable: boolean }[]): Promise<Uint8Array> {
  // Loaded with the first archive: a server that makes none (stdio) never loads it.
  const { pack } = await import("tar-stream");
  const archive = pack();
  const chunks: Buffer[] = [];
  archive.on("data", (chunk: unknown) => chunks.push(chunk as Buffer));
  const done = new Promise<void>((resolve, reject) => {
    archive.on("end", resolve);
    archive.on("error", reject);
  });
  for (const entry of entries) {
    archive.entry(
      {
        name: entry.path,
        size: entry.bytes.byteLength,
        mode: entry.executable ? 0o755 : 0o644,
        mtime: new Date(0),
        uid: 0,
        gid: 0,
        uname: "",
        gname: "",
        type: "file",
      },
      Buffer.from(entry.bytes.buffer, entry.bytes.byteOffset, entry.bytes.byteLength),
    );
  }
  archive.finalize();
  await done;
  return new Uint8Array(gzipSync(Buffer.concat(chunks), { level: 9 }));
}
