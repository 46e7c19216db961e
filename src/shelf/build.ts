// Pure: harvested plugins + library plans → one immutable shelf. No disk, no clock (the caller passes `built`).
import { buildPromptDefs, formatPromptName, type ParsedPrompt, type PromptDef } from "../prompts/index.js";
import {
  ancestorsOf,
  compareCodeUnits,
  formatSkillMdUri,
  formatSkillUri,
  joinPath,
  skillAddress,
  type SkillFolders,
} from "../address/index.js";
import type { ConflictRule } from "../config/index.js";
import type { FetchReport, Library, LibraryConflict, LibraryFile, ServedFile, Shelf, ShelfFinding, Skill } from "./types.js";
import { actionOf, DEFAULT_GUARD_POLICY, type GuardPolicy } from "../guard/index.js";
import { Claims, type Clash } from "./claims.js";
import { serveFile, serveSkillMd } from "./served-files.js";
import { type HarvestedPlugin, type HarvestedSkill, rewrites } from "../harvest/index.js";

export interface LibraryPlan {
  readonly name: string;
  readonly description: string;
  /** Plugin ids in library order. */
  readonly plugins: readonly string[];
  /** What a plugin colliding with an earlier one loses: the contested addresses (absent: keep-first), or
   *  everything. */
  readonly conflicts?: ConflictRule;
  readonly error?: string;
  readonly skipped?: readonly { readonly plugin: string; readonly reason: string }[];
  /** What the guard's findings do in this library (absent: the default policy). */
  readonly guard?: GuardPolicy;
}

export interface BuildInput {
  readonly generation: number;
  readonly built: string;
  readonly libraries: readonly LibraryPlan[];
  readonly plugins: readonly HarvestedPlugin[];
  readonly fetches: ReadonlyMap<string, FetchReport>;
  /** The shelf this one replaces: a library whose plan and plugins are all unchanged is taken from it as is. */
  readonly previous?: Shelf;
}

export function buildShelf(input: BuildInput): Shelf {
  const plugins = new Map(input.plugins.map((plugin) => [plugin.id, plugin]));
  const libraries = new Map<string, Library>();
  for (const plan of input.libraries) libraries.set(plan.name, reusedLibrary(plan, plugins, input.previous) ?? buildLibrary(plan, plugins));
  return { generation: input.generation, built: input.built, libraries, plugins, fetches: input.fetches };
}

/** Each library's plan, as built: a library is a function of its plan and its plugins' harvests. */
const PLANS = new WeakMap<Library, string>();

/** The previous shelf's library when its plan is the same and each of its plugins is the very same harvest. */
function reusedLibrary(plan: LibraryPlan, plugins: ReadonlyMap<string, HarvestedPlugin>, previous: Shelf | undefined): Library | undefined {
  if (previous === undefined) return undefined;
  const before = previous.libraries.get(plan.name);
  if (before === undefined) return undefined;
  // Both must be the same: each plugin's harvest (the very same object) and the plan.
  const same = before.plugins.every((id) => plugins.get(id) === previous.plugins.get(id)) && PLANS.get(before) === JSON.stringify(plan);
  return same ? before : undefined;
}

function buildLibrary(plan: LibraryPlan, plugins: ReadonlyMap<string, HarvestedPlugin>): Library {
  const library = assembleLibrary(plan, plugins);
  PLANS.set(library, JSON.stringify(plan));
  return library;
}

function assembleLibrary(plan: LibraryPlan, plugins: ReadonlyMap<string, HarvestedPlugin>): Library {
  const claims = new Claims(plan.name);
  const served: string[] = [];
  const conflicts: LibraryConflict[] = [];
  const skillAddresses = new Set<string>();
  /** Per plugin kept under keep-first, the keys it lost to earlier plugins (`prompt:`, `skill:`, `file:`). */
  const lost = new Map<string, ReadonlySet<string>>();
  /** Per plugin, its prompts as served: a different prompt whose name an earlier plugin holds is renamed. */
  const ownPrompts = new Map<string, readonly ParsedPrompt[]>();
  /** Every prompt served so far, by stem. */
  const held = new Map<string, ParsedPrompt>();
  for (const id of plan.plugins) {
    const plugin = plugins.get(id);
    if (plugin === undefined) continue;
    for (const dir of plugin.skillDirs) skillAddresses.add(skillAddress(dir).join("/"));
    for (const skill of plugin.skills) skillAddresses.add(skill.address.join("/"));
    const clashes = claims.findClashes(plugin, promptStems(plugin));
    if (clashes.length > 0 && plan.conflicts === "drop-plugin") {
      conflicts.push({ plugin: id, message: `dropped from library '${plan.name}': ${clashes.map((c) => c.text).join("; ")}` });
      continue;
    }
    const renamed = renameDifferentPrompts(plan.name, id, plugin.parsedPrompts ?? [], clashes, held);
    const keys = new Set(renamed.clashes.filter((clash) => clash.lost).map((clash) => clash.key));
    claims.claim(
      id,
      plugin,
      renamed.prompts.map((prompt) => prompt.stem),
      keys,
    );
    served.push(id);
    const kept = renamed.prompts.filter((prompt) => !keys.has(`prompt:${prompt.stem}`));
    ownPrompts.set(id, kept);
    for (const prompt of kept) held.set(prompt.stem, prompt);
    if (clashes.length === 0) continue;
    lost.set(id, keys);
    const message = `serves the rest in library '${plan.name}' without what collides: ${renamed.clashes.map((c) => c.text).join("; ")}`;
    conflicts.push({ plugin: id, message });
  }

  const skills = new Map<string, Skill>();
  const files = new Map<string, LibraryFile>();
  const prompts = new Map<string, PromptDef>();
  const findings: ShelfFinding[] = [];
  const quarantined: { skill?: string; prompt?: string; plugin: string }[] = [];
  for (const id of served) {
    const plugin = plugins.get(id) as HarvestedPlugin;
    const gone = lost.get(id) ?? new Set<string>();
    const judged = judgeFindings(plan, plugin);
    findings.push(...judged);
    const parsed = ownPrompts.get(id) ?? [];
    const badPrompts = new Set(judged.filter((f) => f.action === "quarantine" && f.skill === undefined).map((f) => f.path));
    for (const prompt of buildPromptDefs(plan.name, parsed, id, skillFolders(plan.name, plugin))) {
      const source = parsed.find((p) => formatPromptName(plan.name, p.stem) === prompt.name);
      if (source !== undefined && badPrompts.has(source.path)) quarantined.push({ prompt: prompt.name, plugin: id });
      else prompts.set(prompt.name, prompt);
    }
    const badPaths = judged.filter((f) => f.action === "quarantine").map((f) => f.path);
    for (const skill of buildPluginSkills(plan.name, plugin)) {
      const address = skill.address.join("/");
      if (gone.has(`skill:${address}`)) continue;
      // A skill holding a quarantining finding anywhere in its folder (nested skills' files included) is not served.
      if (badPaths.some((path) => skill.dir === "" || path.startsWith(`${skill.dir}/`))) {
        quarantined.push({ skill: `${skill.uri}/SKILL.md`, plugin: id });
        continue;
      }
      skills.set(address, skill);
    }
    for (const file of plugin.libraryFiles) {
      if (!files.has(file.path) && !gone.has(`file:${file.path}`))
        files.set(file.path, { plugin: id, path: file.path, file: serveFile(file) });
    }
  }
  return {
    name: plan.name,
    description: plan.description,
    plugins: plan.plugins,
    served,
    skills,
    files,
    prompts,
    skillAddresses,
    conflicts,
    ...(plan.error === undefined ? {} : { error: plan.error }),
    skipped: plan.skipped ?? [],
    findings: findings.sort((a, b) => compareCodeUnits(a.uri, b.uri) || a.line - b.line || compareCodeUnits(a.rule, b.rule)),
    quarantined,
  };
}

interface Renamed {
  /** The plugin's prompts, each under the stem it is served by. */
  readonly prompts: readonly ParsedPrompt[];
  /** The clashes, each saying whether the address is lost and, for a renamed prompt, where it is served. */
  readonly clashes: readonly (Clash & { readonly lost: boolean })[];
}

/**
 * Keep-first for prompts: a prompt whose name an earlier plugin holds is lost when it is the same command (the
 * same description, arguments and body), and otherwise served as `<library>_<plugin>.<stem>` (the plugin's name
 * without `@<library>`), a stable name that names where it comes from. A name that is taken too is lost.
 */
function renameDifferentPrompts(
  library: string,
  id: string,
  prompts: readonly ParsedPrompt[],
  clashes: readonly Clash[],
  held: ReadonlyMap<string, ParsedPrompt>,
): Renamed {
  const short = id.includes("@") ? id.slice(0, id.lastIndexOf("@")) : id;
  const own = new Set(prompts.map((prompt) => prompt.stem));
  const renames = new Map<string, string>();
  const out = clashes.map((clash) => {
    if (!clash.key.startsWith("prompt:")) return { ...clash, lost: true };
    const stem = clash.key.slice("prompt:".length);
    const mine = prompts.find((prompt) => prompt.stem === stem);
    const theirs = held.get(stem);
    if (mine === undefined || theirs === undefined || sameCommand(mine, theirs))
      return { ...clash, text: `${clash.text} (the same command)`, lost: true };
    const qualified = `${short}.${stem}`;
    if (held.has(qualified) || own.has(qualified))
      return { ...clash, text: `${clash.text}, and ${formatPromptName(library, qualified)} is taken too`, lost: true };
    renames.set(stem, qualified);
    return {
      ...clash,
      text: `${clash.text}, so this plugin's different prompt is served as ${formatPromptName(library, qualified)}`,
      lost: false,
    };
  });
  return {
    prompts: prompts.map((prompt) => {
      const stem = renames.get(prompt.stem);
      return stem === undefined ? prompt : { ...prompt, stem };
    }),
    clashes: out,
  };
}

/** Whether two prompts are the same command wherever they come from: all but their file and stem. */
function sameCommand(a: ParsedPrompt, b: ParsedPrompt): boolean {
  const text = (p: ParsedPrompt): string =>
    JSON.stringify([p.dialect, p.title ?? null, p.description, p.arguments, [...p.defaults], p.segments]);
  return text(a) === text(b);
}

/** The plugin's findings as this library serves them: each file's URI, its innermost skill, and the action the
 *  library's policy takes. A finding in a file no skill holds is a library file's or a prompt's. */
function judgeFindings(plan: LibraryPlan, plugin: HarvestedPlugin): ShelfFinding[] {
  const policy = plan.guard ?? DEFAULT_GUARD_POLICY;
  const skillDirs = new Map(plugin.skills.map((skill) => [skill.dir, skill]));
  const prompts = new Map((plugin.parsedPrompts ?? []).map((prompt) => [prompt.path, prompt]));
  return (plugin.findings ?? []).map((finding) => {
    const owner = [...ancestorsOf(finding.path)].find((dir) => skillDirs.has(dir)) ?? (skillDirs.has("") ? "" : undefined);
    const skill = owner === undefined ? undefined : (skillDirs.get(owner) as HarvestedSkill);
    // A skill's file is addressed below the skill; anything else by its path from the plugin root.
    const inSkill = owner === undefined ? finding.path : finding.path.slice(owner === "" ? 0 : owner.length + 1);
    const uri = formatSkillUri(plan.name, [...(skill?.address ?? []), ...inSkill.split("/")]);
    const prompt = prompts.get(finding.path);
    return {
      ...finding,
      plugin: plugin.id,
      uri,
      ...(skill === undefined ? {} : { skill: formatSkillMdUri(plan.name, skill.address) }),
      ...(prompt === undefined || skill !== undefined ? {} : { prompt: formatPromptName(plan.name, prompt.stem) }),
      action: actionOf(policy, finding, uri),
    };
  });
}

function promptStems(plugin: HarvestedPlugin): string[] {
  return (plugin.parsedPrompts ?? []).map((prompt) => prompt.stem);
}

/** The plugin's skill folders and their URIs in `library`: `${CLAUDE_PLUGIN_ROOT}/skills/pdf/x.md` is read at the
 *  address `skills/pdf` is served at, never at `skills/pdf` below the library. */
export function skillFolders(library: string, plugin: Pick<HarvestedPlugin, "skills">): SkillFolders {
  return new Map(plugin.skills.map((skill) => [skill.dir, formatSkillUri(library, skill.address)]));
}

function buildPluginSkills(library: string, plugin: HarvestedPlugin): Skill[] {
  const libraryUri = formatSkillUri(library, []);
  const skills = skillFolders(library, plugin);
  const skillMds = new Map<string, ServedFile>();
  for (const skill of plugin.skills) {
    skillMds.set(skill.dir, serveSkillMd(skill, { libraryUri, skillUri: formatSkillUri(library, skill.address), skills }));
  }
  return plugin.skills.map((skill) => {
    const uri = formatSkillUri(library, skill.address);
    const files = new Map<string, ServedFile>([["SKILL.md", skillMds.get(skill.dir) as ServedFile]]);
    for (const file of skill.files) {
      // A nested skill's SKILL.md is read through the nested skill (longest prefix), so the outer manifest
      // must publish the nested skill's served bytes, not the raw file.
      const nested = file.path.endsWith("/SKILL.md")
        ? skillMds.get(joinPath(skill.dir, file.path.slice(0, -"/SKILL.md".length)))
        : undefined;
      files.set(file.path, nested ?? serveFile(file));
    }
    const paths = [...files.keys()].sort(compareCodeUnits);
    return {
      uri,
      library,
      plugin: plugin.id,
      address: skill.address,
      name: skill.name,
      description: skill.description,
      frontmatter:
        skill.servedFrontmatter !== undefined
          ? skill.servedFrontmatter.value
          : skill.servedName === undefined && skill.servedDescription === undefined
            ? skill.frontmatter
            : { ...skill.frontmatter, ...rewrites(skill) },
      dir: skill.dir,
      files,
      paths,
    };
  });
}
