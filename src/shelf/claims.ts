// Pure: the addresses the plugins of one library have claimed, in plugin order, so that a later plugin overlapping an
// earlier one (the same skill, a file, a prompt, a skill inside another's skill or holding another's files) is found
// with every address it collides on and a sentence naming the plugin that holds each.
import { ancestorsOf, formatSkillUri } from "../address/index.js";
import { formatPromptName } from "../prompts/index.js";
import type { HarvestedPlugin } from "../harvest/index.js";

/** One address of a plugin that an earlier plugin of the library holds: `skill:<address>`, `file:<path>` or
 *  `prompt:<stem>`, and the sentence that names it. */
export interface Clash {
  readonly key: string;
  readonly text: string;
}

/** The addresses plugins of one library have claimed, to drop a later plugin that overlaps. */
export class Claims {
  private readonly skills = new Map<string, string>();
  private readonly files = new Map<string, string>();
  private readonly prompts = new Map<string, string>();
  /** Every proper ancestor directory of a claimed skill or file → the plugin that claimed it. */
  private readonly ancestors = new Map<string, string>();

  constructor(private readonly library: string) {}

  /** Every address of `plugin` that collides with what earlier plugins claimed (a plugin overlapping another on
   *  8 skills gets all 8), each with its key and a sentence naming the plugin that holds it. */
  findClashes(plugin: HarvestedPlugin, stems: readonly string[]): Clash[] {
    const clashes: Clash[] = [];
    for (const stem of stems) {
      const same = this.prompts.get(stem);
      if (same !== undefined)
        clashes.push({
          key: `prompt:${stem}`,
          text: `prompt ${formatPromptName(this.library, stem)} is already served by plugin '${same}'`,
        });
    }
    for (const skill of plugin.skills) {
      const address = skill.address.join("/");
      const same = this.skills.get(address) ?? this.files.get(address);
      const inside = this.ancestors.get(address);
      const outer = this.owningSkill(address);
      const key = `skill:${address}`;
      if (same !== undefined) clashes.push({ key, text: `${this.uri(address)}/SKILL.md is already served by plugin '${same}'` });
      else if (inside !== undefined) clashes.push({ key, text: `${this.uri(address)} would hold addresses plugin '${inside}' serves` });
      else if (outer !== null)
        clashes.push({ key, text: `${this.uri(address)} lies inside skill ${this.uri(outer[0])} of plugin '${outer[1]}'` });
    }
    for (const file of plugin.libraryFiles) {
      const same = this.files.get(file.path) ?? this.skills.get(file.path) ?? this.ancestors.get(file.path);
      const outer = this.owningSkill(file.path);
      const key = `file:${file.path}`;
      if (same !== undefined) clashes.push({ key, text: `${this.uri(file.path)} is already served by plugin '${same}'` });
      else if (outer !== null)
        clashes.push({ key, text: `${this.uri(file.path)} lies inside skill ${this.uri(outer[0])} of plugin '${outer[1]}'` });
    }
    return clashes;
  }

  /** Claims what `plugin` serves, leaving out the keys it lost. */
  claim(id: string, plugin: HarvestedPlugin, stems: readonly string[], lost: ReadonlySet<string>): void {
    for (const stem of stems) if (!lost.has(`prompt:${stem}`)) this.prompts.set(stem, id);
    for (const skill of plugin.skills) {
      const address = skill.address.join("/");
      if (lost.has(`skill:${address}`)) continue;
      this.skills.set(address, id);
      this.claimAncestors(address, id);
    }
    for (const file of plugin.libraryFiles) {
      if (lost.has(`file:${file.path}`)) continue;
      this.files.set(file.path, id);
      this.claimAncestors(file.path, id);
    }
  }

  /** Each proper ancestor of `path` not yet held is held by `id`: the first plugin to reach a folder keeps it. */
  private claimAncestors(path: string, id: string): void {
    for (const ancestor of ancestorsOf(path)) if (!this.ancestors.has(ancestor)) this.ancestors.set(ancestor, id);
  }

  /** The outermost claimed skill whose address is a proper ancestor of `path`, as [address, plugin]. */
  private owningSkill(path: string): [string, string] | null {
    const outer = [...ancestorsOf(path)].reverse().find((ancestor) => this.skills.has(ancestor));
    return outer === undefined ? null : [outer, this.skills.get(outer) as string];
  }

  private uri(path: string): string {
    return formatSkillUri(this.library, path.split("/"));
  }
}
