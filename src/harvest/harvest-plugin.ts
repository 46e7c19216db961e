// Harvest one plugin: walk its root once, then pick skills, library files and prompts from that one walk.
import { createHash } from "node:crypto";
import type { HarvestContext } from "./context.js";
import { createFileReader, type FileBytesSeen, IO_ERROR, priorReads } from "./digest.js";
import { compileHiddenOptIns, SKILL_CONVENTION } from "./globs.js";
import { compileFileGlobs, harvestLibraryFiles } from "./library.js";
import { sharedPacer } from "./pacer.js";
import { compareCodeUnits, errorCode, joinPath, parentOf, VERSION } from "../address/index.js";
import { checkPlacement, type GuardFinding, sortFindings } from "../guard/index.js";
import { harvestPrompts, selectPromptGlobs } from "./prompts.js";
import { compileSkillGlobs, harvestSkills } from "./skills.js";
import { isUnreadableReason, REASONS } from "./reasons.js";
import { SkipRows } from "./skip-rows.js";
import { openRoot, walkRoot, type WalkEntry } from "./walk.js";
import type { DiskFile, HarvestedFile, HarvestedPlugin, HarvestedSkill, PluginMeta } from "./types.js";
import type { Naming, PluginGlobs } from "../config/index.js";

export interface HarvestInput extends PluginGlobs {
  readonly id: string;
  readonly meta: PluginMeta;
  /** The fetch key (§10), used in messages instead of any absolute path. */
  readonly fetch: string;
  /** The subdirectory inside the fetch, `""` for its root. */
  readonly root: string;
  /** Absolute path of the plugin root on disk. Internal: never appears in a message. */
  readonly rootAbs: string;
  readonly limits: { readonly fileBytes: number };
  /** How skill names are checked (absent: strict). */
  readonly naming?: Naming;
  /** The `skills`, `prompts` and `files` globs the config file wrote: each that matches nothing is a warning row. */
  readonly reportUnmatched?: PluginGlobs;
  /** Warning rows found before the walk (a manifest's skills paths that are not in the plugin). */
  readonly notes?: readonly { readonly path: string; readonly reason: string }[];
  /** The last harvest of this plugin: unchanged files (same real path, size and mtime) are not read again. */
  readonly previous?: HarvestedPlugin;
  /** Told the bytes of each file this harvest reads again because it changed since `previous` (not on a first
   *  harvest): the version the new shelf publishes, while the file may already be changing again. */
  readonly onChangedRead?: FileBytesSeen;
}

/** A plugin that serves nothing, and why. */
export function failedHarvest(input: Pick<HarvestedPlugin, "id" | "meta" | "fetch" | "root">, error: string): HarvestedPlugin {
  return {
    id: input.id,
    meta: input.meta,
    fetch: input.fetch,
    root: input.root,
    status: "failed",
    error,
    skills: [],
    libraryFiles: [],
    tree: new Map(),
    skillDirs: [],
    prompts: [],
    skipped: [],
  };
}

/** `fetch ./kit, subdir docs` — how a message names the root without its absolute path. */
function rootName(input: HarvestInput): string {
  return input.root === "" ? `the root of fetch ${input.fetch}` : `the subdirectory ${input.root} of fetch ${input.fetch}`;
}

export async function harvestPlugin(input: HarvestInput): Promise<HarvestedPlugin> {
  const opened = openRoot(input.rootAbs);
  if (!opened.ok) {
    const what = opened.problem === "missing" ? "does not exist" : "is not a directory";
    return failedHarvest(input, `The plugin root, ${rootName(input)}, ${what}.`);
  }
  try {
    return await harvestRoot(input, opened.real);
  } catch (error) {
    // Never the error's message: it may carry an absolute path.
    return failedHarvest(input, `Harvesting ${rootName(input)} failed (${errorCode(error, IO_ERROR)}).`);
  }
}

async function harvestRoot(input: HarvestInput, rootReal: string): Promise<HarvestedPlugin> {
  const skillPatterns = input.skills ?? SKILL_CONVENTION;
  const filePatterns = input.files ?? [];
  const promptGlobs = selectPromptGlobs(input.prompts, input.commands);
  const optIns = compileHiddenOptIns([...skillPatterns, ...filePatterns, ...promptGlobs.patterns]);

  const pacer = sharedPacer();
  const walk = await walkRoot(rootReal, optIns, pacer);
  const entries = walk.files.sort((a, b) => compareCodeUnits(a.path, b.path));
  const escapes = walk.escapes.sort(compareCodeUnits);
  const hiddenSkills = walk.hiddenSkills.sort(compareCodeUnits);
  // The same spec over the same files, each at the same real path, size and mtime: the last harvest stands (§9).
  const walkKey = keyOf(input, rootReal, entries, [...escapes, ...hiddenSkills]);
  // Not when a file could not be read last time (EACCES, EMFILE, EIO may pass): it is tried again.
  if (input.previous?.status === "ok" && input.previous.walkKey === walkKey && !hadUnreadable(input.previous)) return input.previous;
  const ctx: HarvestContext = {
    entries,
    escapes,
    fileBytes: input.limits.fileBytes,
    reader: createFileReader(pacer, priorReads(input.previous), input.previous === undefined ? undefined : input.onChangedRead),
    pacer,
    skipped: new SkipRows(),
    warnings: new SkipRows(),
    naming: input.naming ?? "strict",
    priorSkills: new Map(input.previous?.status === "ok" ? input.previous.skills.map((s) => [s.dir, s]) : []),
    promptFindings: [],
  };
  for (const row of walk.unreadable) ctx.skipped.add(row.path, REASONS.unreadableDirectory(row.code));
  for (const row of input.notes ?? []) ctx.warnings.add(row.path, row.reason);

  const { skills, skillDirs, addresses } = await harvestSkills(ctx, compileSkillGlobs(skillPatterns));
  for (const skillMd of hiddenSkills) {
    const dir = parentOf(skillMd);
    ctx.skipped.add(dir === "" ? skillMd : dir, REASONS.hiddenSkill(dir));
  }
  const libraryFiles = await harvestLibraryFiles(ctx, compileFileGlobs(filePatterns), { skillDirs, addresses });
  const prompts = await harvestPrompts(ctx, promptGlobs);
  if (input.reportUnmatched !== undefined) reportUnmatched(ctx, input.id, input.reportUnmatched);
  const warnings = ctx.warnings.sorted();
  const findings = collectFindings(skills, libraryFiles, ctx.promptFindings, entries);

  // The fallback tree: everything visible and within the size limit, by the name it was reached by.
  const tree = new Map<string, DiskFile>();
  for (const e of entries) {
    if (!e.hidden && e.size <= ctx.fileBytes)
      tree.set(e.path, { path: e.path, abs: e.abs, size: e.size, mtimeMs: e.mtimeMs, ...(e.executable ? { executable: true } : {}) });
  }

  return {
    id: input.id,
    meta: input.meta,
    fetch: input.fetch,
    root: input.root,
    status: "ok",
    skills,
    libraryFiles,
    tree,
    skillDirs,
    prompts,
    skipped: ctx.skipped.sorted(),
    ...(warnings.length === 0 ? {} : { warnings }),
    ...(findings.length === 0 ? {} : { findings }),
    walkKey,
  };
}

/** A warning row per written glob that matches no walked file: `skills: ["skills/xlsx"]` on a missing folder
 *  would otherwise serve nothing in silence. Negated globs (`!x`) only narrow, so they are not checked. */
function reportUnmatched(ctx: HarvestContext, plugin: string, written: PluginGlobs): void {
  const kinds = [
    ["skills", written.skills, (glob: string) => compileSkillGlobs([glob])],
    ["files", written.files, (glob: string) => compileFileGlobs([glob])],
    ["prompts", written.prompts, (glob: string) => selectPromptGlobs([glob], undefined).globs],
  ] as const;
  for (const [key, globs, compile] of kinds) {
    for (const glob of globs ?? []) {
      if (glob.trim().startsWith("!")) continue;
      const set = compile(glob);
      if (!ctx.entries.some((entry) => set.match(entry.path))) ctx.warnings.add(glob, REASONS.unmatchedGlob(plugin, key, glob));
    }
  }
}

/** Every finding of the plugin by path from its root, each file once (a nested skill's files are also its outer
 *  skill's): what the reads found, the execute bit outside `scripts/` (of the file's own skill, or of the plugin
 *  root for a library file), and the prompts' findings. */
function collectFindings(
  skills: readonly HarvestedSkill[],
  libraryFiles: readonly HarvestedFile[],
  prompts: readonly GuardFinding[],
  entries: readonly { readonly path: string; readonly executable?: boolean }[],
): GuardFinding[] {
  const executable = new Set(entries.filter((entry) => entry.executable === true).map((entry) => entry.path));
  const seen = new Set<string>();
  const out: GuardFinding[] = [];
  const add = (path: string, inSkill: string, file: HarvestedFile): void => {
    if (seen.has(path)) return;
    seen.add(path);
    const found = [...(file.findings ?? []), ...checkPlacement(inSkill, executable.has(path))];
    for (const finding of sortFindings(found)) out.push({ ...finding, path, digest: file.digest });
  };
  // Innermost skills first, so a nested skill's file is placed by its own skill's `scripts/`.
  for (const skill of [...skills].sort((a, b) => b.dir.length - a.dir.length)) {
    add(joinPath(skill.dir, "SKILL.md"), "SKILL.md", skill.skillMd);
    for (const file of skill.files) add(joinPath(skill.dir, file.path), file.path, file);
  }
  for (const file of libraryFiles) add(file.path, file.path, file);
  out.push(...prompts);
  return out.sort((a, b) => compareCodeUnits(a.path, b.path) || a.line - b.line || compareCodeUnits(a.rule, b.rule));
}

function hadUnreadable(plugin: HarvestedPlugin): boolean {
  return plugin.skipped.some((row) => isUnreadableReason(row.reason));
}

/** A digest of what a harvest depends on: the harvesting code, the input (but the previous harvest) and every
 *  walked file's stat. */
function keyOf(input: HarvestInput, rootReal: string, entries: readonly WalkEntry[], escapes: readonly string[]): string {
  const { previous: _previous, ...spec } = input;
  const hash = createHash("sha256").update(`${VERSION}\0${JSON.stringify(spec)}\0${rootReal}\0`);
  for (const e of entries) hash.update(`${e.path}\0${e.abs}\0${e.size}\0${e.mtimeMs}\0${e.hidden ? 1 : 0}\0${e.executable ? 1 : 0}\n`);
  for (const escape of escapes) hash.update(`${escape}\n`);
  return hash.digest("hex");
}
