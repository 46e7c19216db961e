// Plugin repository figures, on generated plugins over loopback with the system git: the first clone of a plugin of
// 100 skills (its repository made), a clone again (made already), a fetch after one edited skill from a shallow and
// from a full clone (the pack bytes the server sent, against a full clone's), and the disk a repository takes per
// 1,000 skills. Prints one JSON object on stdout. `npm run bench -- --sections=plugins` runs it as a section.
//   npm run build && node bench/plugins.mjs [--skills=100] [--disk-skills=1000] [--dist=DIR]
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { scriptArgs } from "./lib/args.mjs";
import { GIT_ENV } from "./lib/proc.mjs";

const run = promisify(execFile);
const { args, load } = scriptArgs();
const { parseConfig } = await load("config/index.js");
const { ShelfService, ShelfReader, ContentCache } = await load("live/index.js");
const { createHttpApp } = await load("http/index.js");
const { PluginRepos } = await load("plugins/index.js");

// Every folder the run makes, removed when it ends (a failed run included).
const made = [];
const temp = (prefix) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
};
process.on("exit", () => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

/** A plugin folder of `count` skills, each a SKILL.md of about 2 KB and a 1 KB reference. */
function writePlugin(dir, count) {
  for (let i = 0; i < count; i++) {
    const skill = path.join(dir, "skills", `skill-${i}`);
    fs.mkdirSync(path.join(skill, "references"), { recursive: true });
    const body = Array.from({ length: 30 }, (_, line) => `Step ${line} of skill ${i}: do the thing with care and check it.`).join("\n");
    fs.writeFileSync(path.join(skill, "SKILL.md"), `---\nname: skill-${i}\ndescription: Skill number ${i}.\n---\n${body}\n`);
    fs.writeFileSync(path.join(skill, "references", "notes.md"), `# Notes ${i}\n${"x".repeat(1000)}\n`);
  }
}

async function serve(root, count) {
  writePlugin(path.join(root, "kit"), count);
  const parsed = parseConfig(
    `plugins:\n  - {name: kit, source: ./kit}\nlibraries:\n  - {name: kit, plugins: [kit]}\n`,
    "skillshelf.yaml",
    root,
  );
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  const service = await ShelfService.start(parsed.config, () => new Date(0), { cacheDir: temp("bench-cache-") });
  const reader = new ShelfReader(service.holder, new ContentCache());
  const repos = new PluginRepos({ dir: temp("bench-repos-") });
  const { app } = createHttpApp(
    service.holder,
    { shelf: reader, version: "bench", ttlMs: 60_000 },
    {
      host: "127.0.0.1",
      access: { clients: [], anonymous: true },
      pluginRepos: repos,
      reindex: () => service.rebuild(),
      onError: (error) => console.error(error),
    },
  );
  const server = await new Promise((resolve) => {
    const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
  });
  return { service, repos, server, url: `http://127.0.0.1:${server.address().port}/plugins/git/kit/kit.git` };
}

async function timed(work) {
  const started = performance.now();
  await work();
  return Math.round(performance.now() - started);
}

/** Runs git and answers the bytes of the pack the server sent (git writes it to GIT_TRACE_PACKFILE). */
async function packBytes(gitArgs, cwd) {
  const trace = path.join(temp("bench-pack-"), "pack");
  await run("git", gitArgs, { cwd, env: { ...GIT_ENV, GIT_TRACE_PACKFILE: trace } });
  return fs.existsSync(trace) ? fs.statSync(trace).size : 0;
}

const skills = Number(args.skills ?? 100);
const root = temp("bench-plugins-");
const one = await serve(root, skills);
let clonePackBytes = 0;
const firstMs = await timed(async () => {
  clonePackBytes = await packBytes(["clone", "--quiet", "--depth", "1", one.url, path.join(root, "a")]);
});
const againMs = await timed(() => run("git", ["clone", "--quiet", "--depth", "1", one.url, path.join(root, "b")], { env: GIT_ENV }));
await run("git", ["clone", "--quiet", one.url, path.join(root, "full")], { env: GIT_ENV });
fs.appendFileSync(path.join(root, "kit", "skills", "skill-0", "SKILL.md"), "One more line.\n");
await one.service.rebuild();
let fetchPackBytes = 0;
const fetchMs = await timed(async () => {
  fetchPackBytes = await packBytes(["fetch", "--quiet", "--depth", "1", "origin"], path.join(root, "a"));
});
const fullFetchPackBytes = await packBytes(["fetch", "--quiet", "origin"], path.join(root, "full"));
const heads = await Promise.all(
  ["a", "full"].map(async (clone) =>
    (await run("git", ["rev-parse", "origin/main"], { cwd: path.join(root, clone), env: GIT_ENV })).stdout.trim(),
  ),
);
if (heads[0] !== heads[1]) throw new Error(`the two clones fetched different commits: ${heads.join(", ")}`);
const repoBytesAfterEdit = await one.repos.bytes();
one.server.close();
await one.service.close();

const diskSkills = Number(args["disk-skills"] ?? 1000);
const big = await serve(temp("bench-plugins-big-"), diskSkills);
const bigMs = await timed(() =>
  run("git", ["clone", "--quiet", "--depth", "1", big.url, path.join(temp("bench-clone-"), "c")], { env: GIT_ENV }),
);
const repoBytes = await big.repos.bytes();
big.server.close();
await big.service.close();

console.log(
  JSON.stringify(
    {
      skills,
      firstCloneMs: firstMs,
      cloneAgainMs: againMs,
      clonePackBytes,
      fetchAfterOneEditMs: fetchMs,
      fetchAfterOneEditPackBytes: fetchPackBytes,
      fullCloneFetchAfterOneEditPackBytes: fullFetchPackBytes,
      repositoryBytesAfterOneEdit: repoBytesAfterEdit,
      diskSkills,
      firstCloneOfDiskSkillsMs: bigMs,
      repositoryBytesPer1000Skills: Math.round((repoBytes * 1000) / diskSkills),
    },
    null,
    2,
  ),
);
