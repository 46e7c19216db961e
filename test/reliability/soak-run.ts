// The soak: concurrent clients read an index and then a skill it names, while an editor edits, adds and removes
// skills every second and an operator POSTs /reindex every two seconds. Skill names are never reused, so a skill
// is on disk over one unbroken interval: a read that answers "not found" for a skill an index named and that is
// still on disk when the answer arrives (so was throughout) is an answer mixing two generations; "not found" for
// one the editor has removed is right. Every SKILL.md says its revision twice (frontmatter and body); a read whose
// two revisions differ is a torn file.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseRpcAnswer } from "./fuzz-run.js";

export interface SoakFigures {
  requests: number;
  failed: number;
  mixed: number;
  torn: number;
  /** Reads of a skill removed from disk after the index that named it (correct answers: not found). */
  removedInBetween: number;
  edits: number;
  reindexes: number;
  rssSamplesMb: number[];
  failures: string[];
}

export interface SoakOptions {
  readonly endpoint: string;
  readonly origin: string;
  readonly library: string;
  /** The plugin's `skills/` folder, and a folder on the same filesystem outside the plugin for atomic writes. */
  readonly skillsDir: string;
  readonly scratchDir: string;
  readonly serverPid: number;
  readonly clients: number;
  readonly seconds: number;
}

const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

export function skillText(name: string, rev: number): string {
  return `---\nname: ${name}\ndescription: Soak skill ${name} rev ${rev}.\n---\n# ${name}\n\nREV ${rev}\n`;
}

/** Write a skill the way editors do: the whole file elsewhere, then renamed into place. */
export function writeSkill(skillsDir: string, scratchDir: string, name: string, rev: number): void {
  mkdirSync(path.join(skillsDir, name), { recursive: true });
  const scratch = path.join(scratchDir, `${name}-${rev}.md`);
  writeFileSync(scratch, skillText(name, rev));
  renameSync(scratch, path.join(skillsDir, name, "SKILL.md"));
}

function rssMb(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return Math.round(Number(match?.[1]) / 1024);
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export async function runSoak(options: SoakOptions, initial: readonly string[]): Promise<SoakFigures> {
  const figures: SoakFigures = {
    requests: 0,
    failed: 0,
    mixed: 0,
    torn: 0,
    removedInBetween: 0,
    edits: 0,
    reindexes: 0,
    rssSamplesMb: [],
    failures: [],
  };
  const fail = (what: string): void => {
    figures.failed++;
    if (figures.failures.length < 20) figures.failures.push(what);
  };
  let running = true;
  let id = 0;
  /** The skills on disk now, kept by the editor. */
  const onDisk = new Set(initial);

  const read = async (uri: string): Promise<{ text?: string; notFound: boolean } | null> => {
    figures.requests++;
    let status = 0;
    let body = "";
    try {
      const response = await fetch(options.endpoint, {
        method: "POST",
        headers: HEADERS,
        body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method: "resources/read", params: { uri } }),
      });
      status = response.status;
      body = await response.text();
    } catch (error) {
      fail(`${uri}: transport failure ${(error as Error).message}`);
      return null;
    }
    const answer = parseRpcAnswer(body);
    if (status !== 200 || answer === null) {
      fail(`${uri}: HTTP ${status} ${body.slice(0, 120)}`);
      return null;
    }
    if (answer.error?.code === -32602) return { notFound: true };
    const text = answer.result?.contents?.[0]?.text;
    if (typeof text !== "string") {
      fail(`${uri}: ${body.slice(0, 160)}`);
      return null;
    }
    return { text, notFound: false };
  };
  const indexUri = `skill://${options.library}/_index.md`;
  const skillsIn = (index: string): string[] => [...index.matchAll(/^(skill:\/\/\S+\/SKILL\.md):/gm)].map((m) => m[1] as string);

  const client = async (seed: number): Promise<void> => {
    let turn = seed;
    while (running) {
      const index = await read(indexUri);
      if (index === null || index.text === undefined) {
        if (index?.notFound) fail(`${indexUri}: not found`);
        continue;
      }
      const skills = skillsIn(index.text);
      if (skills.length === 0) continue;
      const uri = skills[turn++ % skills.length] as string;
      const skill = await read(uri);
      if (skill === null) continue;
      if (skill.notFound) {
        const name = uri.slice(`skill://${options.library}/`.length, -"/SKILL.md".length);
        if (onDisk.has(name)) {
          figures.mixed++;
          if (figures.failures.length < 20) figures.failures.push(`${uri}: named by an index and on disk, but not found`);
        } else figures.removedInBetween++;
        continue;
      }
      const revs = [...(skill.text as string).matchAll(/\brev (\d+)\.|^REV (\d+)$/gm)].map((m) => m[1] ?? m[2]);
      if (revs.length !== 2 || revs[0] !== revs[1]) {
        figures.torn++;
        if (figures.failures.length < 20) figures.failures.push(`${uri}: revisions ${revs.join(" vs ")}`);
      }
    }
  };

  const editor = async (): Promise<void> => {
    const live = [...initial];
    const revs = new Map(live.map((name) => [name, 1]));
    let fresh = 0;
    for (let second = 0; second < options.seconds; second++) {
      await sleep(1000);
      // Edit one, add one with a name never used before, remove the oldest.
      const edited = live[second % live.length] as string;
      revs.set(edited, (revs.get(edited) ?? 1) + 1);
      writeSkill(options.skillsDir, options.scratchDir, edited, revs.get(edited) as number);
      const added = `added-${++fresh}`;
      writeSkill(options.skillsDir, options.scratchDir, added, 1);
      onDisk.add(added);
      live.push(added);
      revs.set(added, 1);
      const removed = live.shift() as string;
      // Forgotten before it goes: from here on a "not found" for it is right.
      onDisk.delete(removed);
      rmSync(path.join(options.skillsDir, removed), { recursive: true, force: true });
      figures.edits++;
      figures.rssSamplesMb.push(rssMb(options.serverPid));
    }
  };

  const operator = async (): Promise<void> => {
    while (running) {
      await sleep(2000);
      if (!running) break;
      figures.requests++;
      try {
        const response = await fetch(`${options.origin}/reindex`, { method: "POST" });
        await response.text();
        if (response.status !== 200) fail(`/reindex: HTTP ${response.status}`);
        else figures.reindexes++;
      } catch (error) {
        fail(`/reindex: ${(error as Error).message}`);
      }
    }
  };

  figures.rssSamplesMb.push(rssMb(options.serverPid));
  const clients = Array.from({ length: options.clients }, (_, i) => client(i));
  const background = operator();
  await editor();
  running = false;
  await Promise.all([...clients, background]);
  return figures;
}
