// Each plugin's repository holds exactly the served bytes, made with git's plumbing: the commit is checked against
// one made independently here with `git hash-object`, `git mktree` and `git commit-tree` from the bytes a read
// serves; two caches make the same commit; an edit makes the new content's root commit and keeps the earlier one
// under a hidden ref, the history cut at its bound; a content back is its commit again; concurrent builds make one;
// the byte bound removes the least recently used repository and a later request makes it again.
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ContentCache, ShelfReader } from "../../src/live/index.js";
import { ShelfService } from "../../src/live/shelf-service.js";
import {
  MANIFEST_PATH,
  PluginRepos,
  commitMessage,
  formatManifest,
  listPlugins,
  pluginContent,
  pluginName,
  type PluginContent,
} from "../../src/plugins/index.js";
import { FULL_SCOPE, FULL_SCOPE_ON } from "../../src/resolve/index.js";
import { makeTemp, removeTemps } from "../sources/git-fixture.js";
import { configOf } from "../live/helpers.js";

const run = promisify(execFile);
const ENV = { PATH: process.env["PATH"] ?? "", GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", HOME: "/nonexistent" };

let service: ShelfService;
let reader: ShelfReader;
let shelfDir: string;

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

const skillMd = (name: string, description: string, body: string): string =>
  `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;

beforeAll(async () => {
  shelfDir = makeTemp("skillshelf-plugins-");
  const kit = path.join(shelfDir, "kit");
  write(path.join(kit, "skills", "pdf", "SKILL.md"), skillMd("pdf", "Fill PDF forms.", "See ${CLAUDE_PLUGIN_ROOT}/shared/style.md."));
  write(path.join(kit, "skills", "pdf", "scripts", "fill.py"), "print('fill')\n");
  write(path.join(kit, "skills", "pdf", "forms", "SKILL.md"), skillMd("forms", "Nested forms.", "Nested."));
  write(path.join(kit, "shared", "style.md"), "# Style\n");
  write(path.join(kit, "commands", "review.md"), "---\ndescription: Review a change\n---\nReview $ARGUMENTS.\n");
  const yaml = `plugins:
  - {name: kit, source: ./kit, files: ["shared/**"], tags: [tools]}
libraries:
  - {name: kit, plugins: [kit]}
`;
  service = await ShelfService.start(configOf(yaml, shelfDir), () => new Date(0), { cacheDir: makeTemp() });
  reader = new ShelfReader(service.holder, new ContentCache());
});

afterAll(async () => {
  await service.close();
  removeTemps();
});

async function git(dir: string, args: string[], input?: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile("git", [`--git-dir=${dir}`, ...args], { env: ENV, encoding: "buffer" }, (error, stdout) =>
      error === null ? resolve(stdout.toString("utf8").trim()) : reject(error),
    );
    child.stdin?.end(input);
  });
}

async function served(uri: string): Promise<Uint8Array | null> {
  const outcome = await reader.read(uri, FULL_SCOPE_ON);
  if (!outcome.ok) return null;
  return "text" in outcome ? Buffer.from(outcome.text, "utf8") : Buffer.from(outcome.blob, "base64");
}

function kitContent(): PluginContent {
  const [kit] = listPlugins(service.holder.current, FULL_SCOPE);
  return pluginContent(service.holder.current, kit!);
}

/** The commit of `content` made from the served bytes with hash-object, mktree (one per folder) and commit-tree: a
 *  root commit dated 2024-01-01T00:00:00Z. */
async function independentCommit(content: PluginContent): Promise<string> {
  const scratch = makeTemp("skillshelf-plumbing-");
  await run("git", ["init", "--quiet", "--bare", scratch], { env: ENV });
  const files = new Map<string, Buffer>();
  for (const entry of content.entries)
    files.set(entry.path, Buffer.from("text" in entry ? entry.text : ((await served(entry.uri)) as Uint8Array)));
  files.set(MANIFEST_PATH, Buffer.from(formatManifest(content)));
  const treeOf = async (prefix: string): Promise<string> => {
    const lines: string[] = [];
    const folders = new Set<string>();
    for (const [file, bytes] of files) {
      if (!file.startsWith(prefix)) continue;
      const rest = file.slice(prefix.length);
      if (rest.includes("/")) folders.add(rest.slice(0, rest.indexOf("/")));
      else lines.push(`100644 blob ${await git(scratch, ["hash-object", "-w", "--stdin"], bytes)}\t${rest}`);
    }
    for (const folder of folders) lines.push(`040000 tree ${await treeOf(`${prefix}${folder}/`)}\t${folder}`);
    return git(scratch, ["mktree"], `${lines.join("\n")}\n`);
  };
  const tree = await treeOf("");
  const stamp = "1704067200 +0000";
  const env = { ...ENV, GIT_AUTHOR_NAME: "skillshelf", GIT_AUTHOR_EMAIL: "skillshelf@localhost", GIT_AUTHOR_DATE: stamp };
  const full = { ...env, GIT_COMMITTER_NAME: "skillshelf", GIT_COMMITTER_EMAIL: "skillshelf@localhost", GIT_COMMITTER_DATE: stamp };
  return new Promise((resolve, reject) => {
    const child = execFile("git", ["--git-dir", scratch, "commit-tree", tree], { env: full }, (error, stdout) =>
      error === null ? resolve(stdout.trim()) : reject(error),
    );
    child.stdin?.end(commitMessage(content));
  });
}

/** The hidden refs of earlier contents, oldest first: `<name> <commit>`. */
async function historyOf(dir: string): Promise<string[]> {
  const out = await git(dir, ["for-each-ref", "--format=%(refname) %(objectname)", "refs/history/"]);
  return out === "" ? [] : out.split("\n");
}

const historyRef = (sequence: number, content: PluginContent, commit: string): string =>
  `refs/history/${String(sequence).padStart(10, "0")}-${content.digest.slice("sha256:".length)} ${commit}`;

describe("a plugin's repository", () => {
  test("holds the served bytes, the prompt as a command and the manifest; its commit is the one plumbing makes", async () => {
    const content = kitContent();
    expect(content.listed).toMatchObject({ library: "kit", plugin: "kit", name: "kit" });
    expect(content.entries.map((entry) => entry.path)).toEqual([
      "commands/review.md",
      "shared/style.md",
      "skills/pdf/SKILL.md",
      "skills/pdf/forms/SKILL.md",
      "skills/pdf/scripts/fill.py",
    ]);
    expect(content.version).toBe(`0.0.0-sk.${content.digest.slice("sha256:".length, "sha256:".length + 12)}`);
    const repos = new PluginRepos({ dir: makeTemp("skillshelf-repos-") });
    const built = await repos.repo(content, served);
    expect(await git(built.dir, ["ls-tree", "-r", "--name-only", "main"])).toBe(
      [".claude-plugin/plugin.json", ...content.entries.map((entry) => entry.path)].join("\n"),
    );
    // The substituted SKILL.md, as a read serves it.
    expect(await git(built.dir, ["show", "main:skills/pdf/SKILL.md"])).toBe(
      "---\nname: pdf\ndescription: Fill PDF forms.\n---\nSee skill://kit/shared/style.md.",
    );
    expect(JSON.parse(await git(built.dir, ["show", `main:${MANIFEST_PATH}`]))).toEqual({
      name: "kit",
      version: content.version,
      description: "",
      keywords: ["tools"],
    });
    expect(built.commit).toBe(await independentCommit(content));
    // A second cache makes the same commit.
    const other = new PluginRepos({ dir: makeTemp("skillshelf-repos-") });
    expect((await other.repo(content, served)).commit).toBe(built.commit);
    // The same content again is the commit already made.
    expect(await repos.repo(content, served)).toEqual(built);
    expect(repos.stats).toEqual({ built: 1, reused: 1, removed: 0 });
  });

  test("concurrent requests for one content build it once", async () => {
    const repos = new PluginRepos({ dir: makeTemp("skillshelf-repos-") });
    const content = kitContent();
    let reads = 0;
    const counted = (uri: string): Promise<Uint8Array | null> => {
      reads++;
      return served(uri);
    };
    const all = await Promise.all([1, 2, 3, 4].map(() => repos.repo(content, counted)));
    expect(new Set(all.map((built) => built.commit)).size).toBe(1);
    expect(repos.stats.built).toBe(1);
    expect(reads).toBe(4); // the four files read through the shelf, once
  });

  test("an edit is a new root commit; earlier contents stay under hidden refs, cut at the bound; a content back is its commit again", async () => {
    const repos = new PluginRepos({ dir: makeTemp("skillshelf-repos-"), history: 2 });
    const fill = path.join(shelfDir, "kit", "skills", "pdf", "scripts", "fill.py");
    const contents = [kitContent()];
    const commits = [(await repos.repo(contents[0]!, served)).commit];
    const dir = (await repos.repo(contents[0]!, served)).dir;
    const histories: string[][] = [await historyOf(dir)];
    for (const round of [1, 2, 3, 4]) {
      write(fill, `print('fill ${round}')\n`);
      await service.rebuild();
      const content = kitContent();
      const built = await repos.repo(content, served);
      // The commit the content alone makes: no parent, whatever this repository held before.
      expect(built.commit).toBe(await independentCommit(content));
      expect(await git(dir, ["rev-list", "--parents", "main"])).toBe(built.commit);
      contents.push(content);
      commits.push(built.commit);
      histories.push(await historyOf(dir));
    }
    const ref = (sequence: number, index: number): string => historyRef(sequence, contents[index]!, commits[index]!);
    expect(histories).toEqual([
      [],
      [ref(1, 0)],
      [ref(1, 0), ref(2, 1)],
      [ref(1, 0), ref(2, 1), ref(3, 2)],
      // Four earlier contents reached twice the bound: the newest two are kept, the older ones' objects are gone.
      [ref(3, 2), ref(4, 3)],
    ]);
    await expect(git(dir, ["cat-file", "-e", commits[0] as string])).rejects.toThrow();
    await expect(git(dir, ["cat-file", "-e", commits[1] as string])).rejects.toThrow();
    expect(repos.stats).toEqual({ built: 5, reused: 1, removed: 0 });
    // Back to a kept content: its commit again, with no new commit made; it leaves the history, the one it replaces
    // joins it.
    write(fill, "print('fill 2')\n");
    await service.rebuild();
    expect((await repos.repo(kitContent(), served)).commit).toBe(commits[2]);
    expect(await historyOf(dir)).toEqual([ref(4, 3), ref(5, 4)]);
    expect(repos.stats).toEqual({ built: 5, reused: 2, removed: 0 });
    // A content dropped from the history is made again, the same commit.
    write(fill, "print('fill')\n");
    await service.rebuild();
    expect((await repos.repo(kitContent(), served)).commit).toBe(commits[0]);
    expect(repos.stats).toEqual({ built: 6, reused: 2, removed: 0 });
    expect(pluginName("review@acme tools")).toBe("review-acme-tools");
    expect(pluginName("_x")).toBe("p_x");
  });

  test("a repository made by an earlier release, whose commits descend from each other, is made afresh", async () => {
    const repos = new PluginRepos({ dir: makeTemp("skillshelf-repos-") });
    const content = kitContent();
    const built = await repos.repo(content, served);
    // What an earlier release made: the same content's commit on top of another one.
    const tree = await git(built.dir, ["rev-parse", "main^{tree}"]);
    const chained = await git(
      built.dir,
      ["-c", "user.name=old", "-c", "user.email=old@localhost", "commit-tree", tree, "-p", built.commit],
      commitMessage(content),
    );
    await git(built.dir, ["update-ref", "refs/heads/main", chained]);
    expect((await repos.repo(content, served)).commit).toBe(built.commit);
    expect(await git(built.dir, ["rev-list", "--all"])).toBe(built.commit);
    expect(repos.stats).toEqual({ built: 2, reused: 0, removed: 0 });
  });

  test("beyond the byte bound the least recently used repository is removed, and the next request makes it again", async () => {
    const content = kitContent();
    const other: PluginContent = { ...content, listed: { ...content.listed, plugin: "kit-two", name: "kit-two" } };
    // The bound: one and a half repositories of this size.
    const sizing = new PluginRepos({ dir: makeTemp("skillshelf-repos-") });
    await sizing.repo(content, served);
    const one = await sizing.bytes();
    const repos = new PluginRepos({ dir: makeTemp("skillshelf-repos-"), maxBytes: Math.floor(one * 1.5) });
    const kit = await repos.repo(content, served);
    await repos.settled();
    expect(fs.existsSync(kit.dir)).toBe(true);
    const two = await repos.repo(other, served);
    await repos.settled();
    // Two repositories outgrew the bound: the one used least recently went, the one just made stayed.
    expect([fs.existsSync(kit.dir), fs.existsSync(two.dir)]).toEqual([false, true]);
    expect(repos.stats).toEqual({ built: 2, reused: 0, removed: 1 });
    const again = await repos.repo(content, served);
    await repos.settled();
    expect(again).toEqual(kit);
    expect([fs.existsSync(kit.dir), fs.existsSync(two.dir)]).toEqual([true, false]);
    expect(repos.stats).toEqual({ built: 3, reused: 0, removed: 2 });
    expect(await repos.bytes()).toBeLessThanOrEqual(Math.floor(one * 1.5));
  });
});
