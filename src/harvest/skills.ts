// Skills (§3.1, §3.3–3.5): discover SKILL.md files, check their frontmatter, gather and read their files.
import { type HarvestContext, under } from "./context.js";
import { checkSkillFrontmatter, checkSkillFrontmatterLenient, frontmatterText, replaceFrontmatter, rewriteSkillMd } from "./frontmatter.js";
import { hostRefusal, normaliseFrontmatter } from "./host-check.js";
import { compileGlobs, type GlobSet } from "./globs.js";
import { baseName, compareCodeUnits, generatedDocumentOf, isHiddenPath, joinPath, parentOf, skillAddress } from "../address/index.js";
import { MAX_SKILL_BYTES, MAX_SKILL_FILES, REASONS } from "./reasons.js";
import type { WalkEntry } from "./walk.js";
import { readSkillMd, type SkillMdBody, type SkillMdRead } from "./skill-md.js";
import type { HarvestedFile, HarvestedSkill } from "./types.js";

const SKILL_MD = "SKILL.md";
const MANIFEST = "_manifest";

/** Skill globs: a glob names SKILL.md files, or directories meaning every SKILL.md beneath them (§3.1).
 *  `scientific-skills/*` => also `scientific-skills/*\/**\/SKILL.md`. */
export function compileSkillGlobs(globs: readonly string[]): GlobSet {
  return compileGlobs(globs, (glob) => (baseName(glob) === SKILL_MD ? [] : [`${glob}/**/${SKILL_MD}`]));
}

export interface SkillsHarvest {
  /** Served skills, sorted by directory. */
  readonly skills: HarvestedSkill[];
  /** Every skill directory found, served or skipped, sorted. */
  readonly skillDirs: string[];
  /** Address (`a/b`) => directory, for every skill found (a skipped one at the address its directory gives). */
  readonly addresses: ReadonlyMap<string, string>;
}

interface Candidate {
  readonly dir: string;
  skillMd?: WalkEntry;
  /** A `skill.md` (any case but upper) where the glob expected `SKILL.md`. */
  wrongCase?: WalkEntry;
}

interface Checked {
  readonly dir: string;
  readonly address: readonly string[];
  readonly key: string;
  readonly name: string;
  readonly description: string;
  readonly frontmatter: Record<string, unknown>;
  readonly skillMd: HarvestedFile;
  readonly body: SkillMdBody;
  readonly servedName?: string;
  readonly servedDescription?: string;
  readonly servedFrontmatter?: HarvestedSkill["servedFrontmatter"];
  /** What lenient naming bent, reported only when the skill is served. */
  readonly warnings: readonly string[];
  /** Candidate files (path relative to the skill dir => entry), before nested shadowing. */
  readonly files: readonly (readonly [string, WalkEntry])[];
  /** Rows about the skill's own files, reported only when the skill is served. */
  readonly rows: readonly (readonly [string, string])[];
}

function findCandidates(ctx: HarvestContext, globs: GlobSet): Map<string, Candidate> {
  const found = new Map<string, Candidate>();
  const at = (dir: string): Candidate => {
    let c = found.get(dir);
    if (c === undefined) found.set(dir, (c = { dir }));
    return c;
  };
  for (const entry of ctx.entries) {
    const base = baseName(entry.path);
    if (base.length !== SKILL_MD.length) continue;
    const dir = parentOf(entry.path);
    if (base === SKILL_MD) {
      if (globs.match(entry.path)) at(dir).skillMd = entry;
    } else if (base.toLowerCase() === "skill.md" && globs.match(joinPath(dir, SKILL_MD))) {
      at(dir).wrongCase ??= entry;
    }
  }
  return found;
}

/** A skill's own files: hidden paths are never served, a root `_manifest` is shadowed, big files are skipped. */
function gatherFiles(ctx: HarvestContext, dir: string, skillMdPath: string): Pick<Checked, "files" | "rows"> {
  const files: [string, WalkEntry][] = [];
  const rows: [string, string][] = [];
  const offset = dir === "" ? 0 : dir.length + 1;
  for (const entry of under(ctx.entries, dir, (e) => e.path)) {
    if (entry.path === skillMdPath) continue;
    const rel = entry.path.slice(offset);
    if (isHiddenPath(rel)) continue; // Inside a skill the hidden rule always holds (§3.2).
    if (rel === MANIFEST) rows.push([entry.path, REASONS.manifestShadowed]);
    else if (entry.size > ctx.fileBytes) rows.push([entry.path, REASONS.overFileBytes(entry.size, ctx.fileBytes)]);
    else files.push([rel, entry]);
  }
  for (const escape of under(ctx.escapes, dir, (p) => p)) {
    if (!isHiddenPath(escape.slice(offset))) rows.push([escape, REASONS.symlinkLeavesRoot]);
  }
  return { files, rows };
}

async function checkCandidate(ctx: HarvestContext, c: Candidate): Promise<Checked | undefined> {
  const skip = (reason: string): undefined => void ctx.skipped.add(c.dir, reason);
  if (c.skillMd === undefined) return c.wrongCase ? skip(REASONS.wrongCase(baseName(c.wrongCase.path))) : undefined;
  if (c.skillMd.size > ctx.fileBytes) return skip(REASONS.skillMdOverLimit(c.skillMd.size, ctx.fileBytes));
  const read = await readSkillMd(ctx, c.dir, c.skillMd);
  if (!read.ok) return skip(read.reason);
  const whole = c.dir === "";
  const frontmatter = read.parse.frontmatter as Record<string, unknown>;
  const dirName = whole ? null : baseName(c.dir);
  const check =
    ctx.naming === "lenient"
      ? checkSkillFrontmatterLenient(frontmatter, dirName)
      : { ...checkSkillFrontmatter(frontmatter, dirName), byName: false, renamed: false, cut: false, warnings: [] as string[] };
  if (!check.ok) return skip(check.reason);
  const served = {
    ...(check.renamed ? { servedName: check.name } : {}),
    ...(check.cut ? { servedDescription: check.description } : {}),
  };
  if (check.renamed || check.cut) {
    // The served bytes replace only those values: a value that cannot be replaced in place is skipped as strict.
    const raw = read.file.bytes;
    if (raw === undefined || rewriteSkillMd(raw, read.parse.bodyOffset, rewrites(served)) === undefined) {
      const strict = checkSkillFrontmatter(frontmatter, dirName);
      return skip(strict.ok ? REASONS.notMapping : strict.reason);
    }
  }
  const host = await checkHost(ctx, read, check, served);
  if ("reason" in host) return skip(host.reason);
  const address = whole ? [check.name] : check.byName ? [...skillAddress(c.dir).slice(0, -1), check.name] : skillAddress(c.dir);
  const { files, rows } = gatherFiles(ctx, c.dir, c.skillMd.path);
  const count = 1 + files.length;
  if (count > MAX_SKILL_FILES) return skip(REASONS.tooManyFiles(count));
  const total = files.reduce((sum, [, e]) => sum + e.size, read.file.size);
  if (total > MAX_SKILL_BYTES) return skip(REASONS.tooManyBytes(total));
  return {
    dir: c.dir,
    address,
    key: address.join("/"),
    name: check.name,
    description: check.description,
    frontmatter,
    skillMd: host.servedFrontmatter === undefined || read.bytes === undefined ? read.file : { ...read.file, bytes: read.bytes },
    body: read.parse,
    ...served,
    ...(host.servedFrontmatter === undefined ? {} : { servedFrontmatter: host.servedFrontmatter }),
    warnings: [...check.warnings, ...host.warnings],
    files,
    rows,
  };
}

type HostCheck =
  { readonly servedFrontmatter?: HarvestedSkill["servedFrontmatter"]; readonly warnings: readonly string[] } | { readonly reason: string };

/** Whether MCP hosts accept the SKILL.md as it will be served (with lenient naming's name and description): as
 *  it is; normalised (naming: lenient), with a warning per field changed; or not at all (a skip, naming its fix). An
 *  unchanged SKILL.md that was not read again keeps its earlier verdict. */
async function checkHost(
  ctx: HarvestContext,
  read: Extract<SkillMdRead, { ok: true }>,
  check: { readonly name: string; readonly description: string },
  served: Pick<HarvestedSkill, "servedName" | "servedDescription">,
): Promise<HostCheck> {
  const bytes = read.bytes;
  if (bytes === undefined) {
    return { ...(read.parse.servedFrontmatter === undefined ? {} : { servedFrontmatter: read.parse.servedFrontmatter }), warnings: [] };
  }
  const values = rewrites(served);
  const asServed = Object.keys(values).length === 0 ? bytes : (rewriteSkillMd(bytes, read.parse.bodyOffset, values)?.bytes ?? bytes);
  const refusal = await hostRefusal(check.name, asServed);
  if (refusal === undefined) return { warnings: [] };
  if (ctx.naming !== "lenient") return { reason: REASONS.hostRefuses(refusal) };
  const yaml = frontmatterText(bytes);
  if (yaml === undefined) return { reason: REASONS.hostRefuses(refusal) };
  const normal = normaliseFrontmatter(yaml, { name: check.name, description: check.description });
  const replaced = replaceFrontmatter(bytes, read.parse.bodyOffset, normal.yaml);
  const again = replaced === undefined ? refusal : await hostRefusal(check.name, replaced.bytes);
  if (again !== undefined) return { reason: REASONS.hostRefuses(again) };
  return { servedFrontmatter: { yaml: normal.yaml, value: normal.value }, warnings: normal.warnings };
}

/** The frontmatter values lenient naming serves in place of the file's. */
export function rewrites(skill: Pick<HarvestedSkill, "servedName" | "servedDescription">): Record<string, string> {
  return {
    ...(skill.servedName === undefined ? {} : { name: skill.servedName }),
    ...(skill.servedDescription === undefined ? {} : { description: skill.servedDescription }),
  };
}

/** Proper prefixes of served addresses: the folders whose `_index.md` is a generated document (§2.2 step 0). */
function foldersOf(keys: Iterable<string>): Set<string> {
  const folders = new Set<string>();
  for (const key of keys) {
    for (let slash = key.indexOf("/"); slash > 0; slash = key.indexOf("/", slash + 1)) folders.add(key.slice(0, slash));
  }
  return folders;
}

export async function harvestSkills(ctx: HarvestContext, globs: GlobSet): Promise<SkillsHarvest> {
  const candidates = findCandidates(ctx, globs);
  // A skill (or its SKILL.md) reached through a link leaving the root would have been harvested: say why not.
  for (const escape of ctx.escapes) {
    if ((baseName(escape) === SKILL_MD && globs.match(escape)) || globs.match(joinPath(escape, SKILL_MD))) {
      ctx.skipped.add(escape, REASONS.symlinkLeavesRoot);
    }
  }
  const skillDirs = [...candidates.keys()].sort(compareCodeUnits);
  const checked: (Checked | undefined)[] = [];
  for (const dir of skillDirs) checked.push(await checkCandidate(ctx, candidates.get(dir) as Candidate));

  // Two skills at one address: the first in path order wins (skillDirs is sorted, so `checked` is too).
  const served: Checked[] = [];
  const winners = new Map<string, Checked>();
  for (const skill of checked) {
    if (skill === undefined) continue;
    const winner = winners.get(skill.key);
    if (winner !== undefined) {
      ctx.skipped.add(skill.dir, REASONS.duplicateAddress(skill.key, winner.dir));
      continue;
    }
    winners.set(skill.key, skill);
    served.push(skill);
  }

  // A nested skill's `_manifest` and a served folder's `_index.md` are generated documents, so an outer skill's
  // file at that address could never be read: drop it from the outer skill and say so.
  const folders = foldersOf(winners.keys());
  const skills: HarvestedSkill[] = [];
  for (const skill of served) {
    for (const [path, reason] of skill.rows) ctx.skipped.add(path, reason);
    for (const reason of skill.warnings) ctx.warnings.add(joinPath(skill.dir, SKILL_MD), reason);
    skills.push(harvestedSkill(skill, await readSkillFiles(ctx, skill, winners, folders)));
  }

  const addresses = new Map<string, string>();
  for (const dir of skillDirs) if (dir !== "") addresses.set(skillAddress(dir).join("/"), dir);
  for (const skill of served) addresses.set(skill.key, skill.dir);
  return { skills, skillDirs, addresses };
}

/** A skill's files as read, but those a generated document of the shelf would shadow (skipped rows) and those
 *  that cannot be read now (skipped rows). */
async function readSkillFiles(
  ctx: HarvestContext,
  skill: Checked,
  winners: ReadonlyMap<string, Checked>,
  folders: ReadonlySet<string>,
): Promise<HarvestedFile[]> {
  const files: HarvestedFile[] = [];
  for (const [rel, entry] of skill.files) {
    const base = baseName(rel);
    const at = rel.includes("/") ? `${skill.key}/${parentOf(rel)}` : skill.key;
    if ((base === MANIFEST && winners.has(at)) || (generatedDocumentOf(base)?.document === "index" && folders.has(at))) {
      ctx.skipped.add(entry.path, base === MANIFEST ? REASONS.manifestShadowed : REASONS.indexShadowed(base));
      continue;
    }
    const read = await ctx.reader.read(entry);
    if (read.ok) files.push(withPath(read.file, rel));
    else ctx.skipped.add(entry.path, REASONS.unreadable(read.code));
  }
  return files;
}

function harvestedSkill(skill: Checked, files: HarvestedFile[]): HarvestedSkill {
  return {
    dir: skill.dir,
    address: skill.address,
    name: skill.name,
    description: skill.description,
    frontmatter: skill.frontmatter,
    skillMd: skill.skillMd,
    bodyOffset: skill.body.bodyOffset,
    cites: skill.body.cites,
    placeholders: skill.body.placeholders,
    ...(skill.servedName === undefined ? {} : { servedName: skill.servedName }),
    ...(skill.servedDescription === undefined ? {} : { servedDescription: skill.servedDescription }),
    ...(skill.servedFrontmatter === undefined ? {} : { servedFrontmatter: skill.servedFrontmatter }),
    files,
  };
}

/** The shared read, re-addressed relative to its skill; bytes a nested SKILL.md was read with stay out of it. */
function withPath(file: HarvestedFile, path: string): HarvestedFile {
  const { bytes: _bytes, ...rest } = file;
  return { ...rest, path };
}
