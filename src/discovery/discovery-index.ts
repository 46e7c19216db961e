// The Agent Skills discovery index (v0.2.0) of one base: every skill the caller sees below it, one flat namespace,
// each entry pointing at its artifact by a URL relative to the index. Cached per (shelf, scope, base); artifacts'
// digests are cached by content, the artifacts' bytes within a byte budget (evicted ones are made again, equal).
import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
import { formatSkillMdUri, parseSkillUri, SKILL_FILE } from "../address/index.js";
import type { Shelf, Skill } from "../shelf/index.js";
import { ArtifactError, buildArtifact, type Artifact, type ArtifactType, type ReadBytes } from "./artifact.js";
import { flatNames, type Shadowed } from "./names.js";

export const DISCOVERY_SCHEMA = "https://schemas.agentskills.io/discovery/0.2.0/schema.json";
/** The path below a base where installers look for the index. */
export const WELL_KNOWN_PATH = ".well-known/agent-skills";
export const ARCHIVE_FILE = "skill.tar.gz";

/** A narrower base: a library, and folders below it. The root base has no library. */
export interface Base {
  readonly library?: string;
  readonly folder: readonly string[];
}

export interface IndexEntry {
  readonly name: string;
  readonly type: ArtifactType;
  readonly description: string;
  readonly url: string;
  readonly digest: string;
}

export interface DiscoveryIndex {
  readonly body: Uint8Array;
  readonly gzipped: Uint8Array;
  /** `sha256:` of `body`: the ETag. */
  readonly digest: string;
  readonly entries: readonly IndexEntry[];
  readonly shadowed: readonly Shadowed[];
  /** Skills left out: a name an installer refuses, or an artifact that cannot be made. */
  readonly left: readonly { readonly skill: string; readonly reason: string }[];
}

/** The segments of the path from a base (below the server's prefix) to its index's folder. */
export function basePath(base: Base): string[] {
  return base.library === undefined ? [] : ["libraries", base.library, ...base.folder];
}

/** The artifact's path below the server's prefix: `artifacts/<library>/<address…>/SKILL.md` or `…/skill.tar.gz`. */
export function artifactPath(skill: Skill, type: ArtifactType): string[] {
  return ["artifacts", skill.library, ...skill.address, type === "skill-md" ? SKILL_FILE : ARCHIVE_FILE];
}

export function isUnder(skill: Skill, base: Base): boolean {
  if (base.library === undefined) return true;
  // A base may name a skill's own folder: that is where a skill whose name another holds is always listed.
  if (skill.library !== base.library || skill.address.length < base.folder.length) return false;
  return base.folder.every((segment, at) => skill.address[at] === segment);
}

const hashOf = (text: string): string => createHash("sha256").update(text).digest("base64url");

/** Each skill's content, as far as its artifact depends on it: its address and every served file's digest. The
 *  library files its SKILL.md cites are checked separately (`Made.cited`). */
function contentKey(skill: Skill): string {
  // Skills are immutable: a skill's key is made once, whatever scope, base or later shelf lists it again.
  const known = CONTENT_KEYS.get(skill);
  if (known !== undefined) return known;
  const parts = [formatSkillMdUri(skill.library, skill.address)];
  for (const path of skill.paths) {
    const file = skill.files.get(path);
    parts.push(`${path}\0${file?.digest ?? ""}${file?.disk.executable === true ? "\0x" : ""}`);
  }
  const key = hashOf(parts.join("\n"));
  CONTENT_KEYS.set(skill, key);
  return key;
}

const CONTENT_KEYS = new WeakMap<Skill, string>();

interface Made {
  readonly type: ArtifactType;
  readonly digest: string;
  /** Library files copied in, by URI, with the digest they had: a change to one makes the artifact again. */
  readonly cited: ReadonlyMap<string, string>;
}

export interface DiscoveryOptions {
  /** Bytes of artifacts kept in memory (most recently used first); the rest are made again on demand. */
  readonly artifactBytes: number;
  /** Indexes kept (per shelf, scope and base), most recently used first. */
  readonly indexes: number;
}

export const DEFAULT_DISCOVERY_OPTIONS: DiscoveryOptions = { artifactBytes: 64 * 1024 * 1024, indexes: 256 };

/** The index and artifacts of every base and scope in use, cached. One per server. */
export class Discovery {
  private readonly made = new Map<string, Made>();
  private readonly artifacts = new Map<string, Artifact>();
  private artifactBytes = 0;
  private readonly indexes = new Map<string, Promise<DiscoveryIndex>>();
  private readonly building = new Map<string, Promise<Artifact>>();

  constructor(
    private readonly options: DiscoveryOptions = DEFAULT_DISCOVERY_OPTIONS,
    private readonly onLeftOut: (skill: string, reason: string) => void = () => undefined,
  ) {}

  /** The index of `base` for the skills `visible` (what the caller's scope sees on `shelf`). */
  index(shelf: Shelf, scopeKey: string, base: Base, visible: readonly Skill[], read: ReadBytes): Promise<DiscoveryIndex> {
    const key = `${shelf.generation}\0${shelf.built}\0${scopeKey}\0${basePath(base).join("/")}`;
    const cached = this.indexes.get(key);
    if (cached !== undefined) {
      this.indexes.delete(key);
      this.indexes.set(key, cached);
      return cached;
    }
    const built = this.buildIndex(shelf, base, visible, read);
    this.indexes.set(key, built);
    built.catch(() => this.indexes.delete(key));
    while (this.indexes.size > this.options.indexes) this.indexes.delete(this.indexes.keys().next().value as string);
    return built;
  }

  /** The artifact of `skill` as it is on `shelf`. */
  async artifact(shelf: Shelf, skill: Skill, read: ReadBytes): Promise<Artifact> {
    const key = contentKey(skill);
    const kept = this.artifacts.get(key);
    const made = this.made.get(key);
    if (kept !== undefined && made !== undefined && citedUnchanged(shelf, made)) {
      this.artifacts.delete(key);
      this.artifacts.set(key, kept);
      return kept;
    }
    const pending = this.building.get(key);
    if (pending !== undefined) return pending;
    const building = this.make(shelf, skill, key, read).finally(() => this.building.delete(key));
    this.building.set(key, building);
    return building;
  }

  private async make(shelf: Shelf, skill: Skill, key: string, read: ReadBytes): Promise<Artifact> {
    const cited = new Map<string, string>();
    const artifact = await buildArtifact(skill, async (uri) => {
      const bytes = await read(uri);
      const digest = servedDigest(shelf, uri);
      if (bytes !== null && digest !== undefined && !uri.startsWith(skill.uri + "/")) cited.set(uri, digest);
      return bytes;
    });
    this.made.set(key, { type: artifact.type, digest: artifact.digest, cited });
    this.keep(key, artifact);
    return artifact;
  }

  private keep(key: string, artifact: Artifact): void {
    const previous = this.artifacts.get(key);
    if (previous !== undefined) this.artifactBytes -= previous.bytes.byteLength;
    this.artifacts.delete(key);
    if (artifact.bytes.byteLength > this.options.artifactBytes) return;
    this.artifacts.set(key, artifact);
    this.artifactBytes += artifact.bytes.byteLength;
    for (const [oldest, held] of this.artifacts) {
      if (this.artifactBytes <= this.options.artifactBytes) break;
      this.artifacts.delete(oldest);
      this.artifactBytes -= held.bytes.byteLength;
    }
  }

  /** What the artifacts hold in memory now, in bytes (bounded by `artifactBytes`). */
  get heldBytes(): number {
    return this.artifactBytes;
  }

  private async buildIndex(shelf: Shelf, base: Base, visible: readonly Skill[], read: ReadBytes): Promise<DiscoveryIndex> {
    const names = flatNames(visible.filter((skill) => isUnder(skill, base)));
    const left: { skill: string; reason: string }[] = names.unnamable.map((skill) => ({
      skill: formatSkillMdUri(skill.library, skill.address),
      reason: `its name "${skill.name}" is not one an installer accepts (1-64 of a-z, 0-9 and single hyphens inside)`,
    }));
    const up = "../".repeat(basePath(base).length + WELL_KNOWN_PATH.split("/").length);
    const entries: IndexEntry[] = [];
    for (const skill of names.listed) {
      const made = await this.digestOf(shelf, skill, read);
      if (typeof made === "string") {
        left.push({ skill: formatSkillMdUri(skill.library, skill.address), reason: made });
        continue;
      }
      entries.push({
        name: skill.name,
        type: made.type,
        description: skill.description,
        url: up + artifactPath(skill, made.type).map(encodeURIComponent).join("/"),
        digest: made.digest,
      });
    }
    for (const row of left) this.onLeftOut(row.skill, row.reason);
    const body = new TextEncoder().encode(JSON.stringify({ $schema: DISCOVERY_SCHEMA, skills: entries }));
    const digest = `sha256:${createHash("sha256").update(body).digest("hex")}`;
    // Level 1: a 10,000-skill index compresses in a third of the default level's time, about a fifth larger.
    return { body, gzipped: new Uint8Array(gzipSync(body, { level: 1 })), digest, entries, shadowed: names.shadowed, left };
  }

  /** The type and digest of a skill's artifact: from the content cache, else made (and then kept). A reason when it
   *  cannot be made. */
  private async digestOf(shelf: Shelf, skill: Skill, read: ReadBytes): Promise<Made | string> {
    const made = this.made.get(contentKey(skill));
    if (made !== undefined && citedUnchanged(shelf, made)) return made;
    try {
      const artifact = await this.artifact(shelf, skill, read);
      return { type: artifact.type, digest: artifact.digest, cited: new Map() };
    } catch (error) {
      if (error instanceof ArtifactError) return error.message;
      throw error;
    }
  }
}

/** The digest of the served file at `uri` on `shelf` (a library file, or a file of a skill), if it is one. */
function servedDigest(shelf: Shelf, uri: string): string | undefined {
  const parsed = parseSkillUri(uri);
  const library = parsed === null ? undefined : shelf.libraries.get(parsed.library);
  if (parsed === null || library === undefined) return undefined;
  const file = library.files.get(parsed.segments.join("/"));
  if (file !== undefined) return file.file.digest;
  for (let at = parsed.segments.length - 1; at > 0; at--) {
    const skill = library.skills.get(parsed.segments.slice(0, at).join("/"));
    if (skill !== undefined) return skill.files.get(parsed.segments.slice(at).join("/"))?.digest;
  }
  return undefined;
}

function citedUnchanged(shelf: Shelf, made: Made): boolean {
  for (const [uri, digest] of made.cited) if (servedDigest(shelf, uri) !== digest) return false;
  return true;
}
