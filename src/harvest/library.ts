// Library files (§3.1, §3.5): files outside every skill, published by a plugin's `files` globs.
import type { HarvestContext } from "./context.js";
import { compileGlobs, type GlobSet, isLiteralGlob } from "./globs.js";
import { ancestorsOf, baseName, generatedDocumentOf, isHiddenPath, skillAddress } from "../address/index.js";
import { REASONS } from "./reasons.js";
import type { HarvestedFile } from "./types.js";

/** `files` globs match files; a literal directory (`shared`) publishes everything beneath it. */
export function compileFileGlobs(globs: readonly string[]): GlobSet {
  return compileGlobs(globs, (glob) => (isLiteralGlob(glob) ? [`${glob}/**/*`] : []));
}

export interface SkillPlaces {
  /** Every skill directory, served or skipped. */
  readonly skillDirs: readonly string[];
  /** Every skill address (`a/b`) => its directory. */
  readonly addresses: ReadonlyMap<string, string>;
}

/** The skill a library file would lie inside, on disk or in address space: `[address, dir]`, or undefined. */
function skillAround(path: string, dirs: ReadonlyMap<string, string>, places: SkillPlaces): readonly [string, string] | undefined {
  const whole = dirs.get("");
  if (whole !== undefined) return [whole, ""];
  for (const dir of ancestorsOf(path)) {
    const address = dirs.get(dir);
    if (address !== undefined) return [address, dir];
  }
  // In address space too: `docs/x.md` lies inside the skill at address `docs` whatever its directory is.
  for (const at of [path, ...ancestorsOf(path)]) {
    const dir = places.addresses.get(at);
    if (dir !== undefined) return [at, dir];
  }
  return undefined;
}

export async function harvestLibraryFiles(ctx: HarvestContext, globs: GlobSet, places: SkillPlaces): Promise<HarvestedFile[]> {
  if (globs.empty) return [];
  // Directory => address, built once: the lookups per file are map hits on its ancestors, never a scan.
  const dirs = new Map(places.skillDirs.map((dir) => [dir, skillAddress(dir).join("/")]));
  for (const [address, dir] of places.addresses) dirs.set(dir, address);
  const files: HarvestedFile[] = [];
  for (const entry of ctx.entries) {
    // The hidden rule applies to library-file paths whatever a glob spells out (§3.2).
    if (entry.hidden || !globs.match(entry.path)) continue;
    const base = baseName(entry.path);
    if (generatedDocumentOf(base) !== null) {
      ctx.skipped.add(entry.path, REASONS.libraryReservedName(base));
      continue;
    }
    const around = skillAround(entry.path, dirs, places);
    if (around !== undefined) {
      ctx.skipped.add(entry.path, REASONS.libraryInsideSkill(around[0], around[1]));
      continue;
    }
    if (entry.size > ctx.fileBytes) {
      ctx.skipped.add(entry.path, REASONS.overFileBytes(entry.size, ctx.fileBytes));
      continue;
    }
    const read = await ctx.reader.read(entry);
    if (read.ok) files.push(read.file);
    else ctx.skipped.add(entry.path, REASONS.unreadable(read.code));
  }
  for (const escape of ctx.escapes) {
    if (!isHiddenPath(escape) && globs.match(escape)) {
      ctx.skipped.add(escape, REASONS.symlinkLeavesRoot);
    }
  }
  return files;
}
