#!/usr/bin/env node
// What the guard's checks cost a cold start: harvest + build (ShelfService.start) of the synthetic shelf and of the
// two real collections, each in a fresh process, with the checks on (the build in dist/) and off (a copy of that
// build whose file checks return no findings), alternated so a load on the machine hits both alike. Prints a
// table and one JSON line. Runnable alone (`npm run build` first):
//   node bench/guard.mjs [--n=10000] [--seed=7] [--runs=5] [--dir=DIR] [--no-corpora] [--no-shelf] [--profile=DIR]
// As a section of bench/run.mjs: --sections=guard.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ensureShelf } from "./gen-shelf.mjs";
import { median } from "./lib/stats.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const PROJECT = path.resolve(HERE, "..");
const CORPORA = path.resolve(PROJECT, "../shared/corpora");

/** The checks off: the same build, its `guard/check.js` answering no findings for any file or prompt. */
const NO_CHECKS = `export * from "./check.real.js";
export async function checkFile() { return []; }
export async function checkFileText() { return []; }
`;

/** A copy of the build beside a link to node_modules (a rebuild of the checkout meanwhile changes neither);
 *  with `off`, its file checks answer no findings. */
function snapshot(dist, workDir, name, off) {
  const app = path.join(workDir, name);
  fs.rmSync(app, { recursive: true, force: true });
  fs.cpSync(dist, path.join(app, "dist"), { recursive: true });
  fs.copyFileSync(path.join(PROJECT, "package.json"), path.join(app, "package.json")); // "type": "module"
  fs.symlinkSync(path.join(PROJECT, "node_modules"), path.join(app, "node_modules"));
  if (off) {
    fs.renameSync(path.join(app, "dist/guard/check.js"), path.join(app, "dist/guard/check.real.js"));
    fs.writeFileSync(path.join(app, "dist/guard/check.js"), NO_CHECKS);
  }
  return path.join(app, "dist");
}

/** A config over both collections as two libraries: every wshobson plugin folder, and k-dense's skills. */
function corporaConfig(workDir) {
  const agents = path.join(CORPORA, "wshobson-agents/plugins");
  const names = fs.readdirSync(agents).sort();
  const plugins = names.map((name) => `  - name: ${name}\n    source: ${pathToFileURL(path.join(agents, name)).href}\n`);
  const file = path.join(workDir, "guard-corpora.yaml");
  fs.writeFileSync(
    file,
    `plugins:\n${plugins.join("")}  - name: scientific\n    source: ${pathToFileURL(path.join(CORPORA, "k-dense-scientific")).href}\n` +
      `    skills: ["scientific-skills/*"]\nlibraries:\n  - name: agents\n    plugins: [${names.join(", ")}]\n  - name: science\n    plugins: [scientific]\n`,
  );
  return file;
}

/** One cold harvest + build in a fresh process: wall and CPU time of ShelfService.start, and of a rescan. */
async function child(dist, config) {
  const load = (file) => import(pathToFileURL(path.join(dist, file)).href);
  const { loadConfig } = await load("config/index.js");
  const { ShelfService } = await load("live/shelf-service.js");
  const loaded = await loadConfig(config);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const service = await ShelfService.start(loaded, () => new Date());
  const startMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const skills = [...service.current.libraries.values()].reduce((sum, lib) => sum + lib.skills.size, 0);
  const t1 = performance.now();
  await service.rescan?.();
  const rescanMs = performance.now() - t1;
  await service.close?.();
  return { startMs, cpuMs: (cpu.user + cpu.system) / 1000, rescanMs, skills };
}

function runChild(dist, config, profileDir, name) {
  const prof = profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=${name}.cpuprofile`] : [];
  const out = execFileSync(process.execPath, [...prof, fileURLToPath(import.meta.url), "--child", `--dist=${dist}`, `--config=${config}`], {
    encoding: "utf8",
    maxBuffer: 16 << 20,
    stdio: ["ignore", "pipe", "inherit"],
  });
  return JSON.parse(out.trim().split("\n").pop());
}

/** Alternate on and off `runs` times; medians of each, and the checks' share of the cold start. */
function measure(label, config, { dist, off, runs, log, profileDir }) {
  const on = [];
  const none = [];
  for (let i = 0; i < runs; i++) {
    log(`guard ${label}: run ${i + 1}/${runs}`);
    on.push(runChild(dist, config, profileDir, `${label}-on-${i}`));
    none.push(runChild(off, config, profileDir, `${label}-off-${i}`));
  }
  const m = (rows, key) => median(rows.map((row) => row[key]));
  const row = {
    label,
    runs,
    onMs: m(on, "startMs"),
    offMs: m(none, "startMs"),
    onCpuMs: m(on, "cpuMs"),
    offCpuMs: m(none, "cpuMs"),
    rescanOnMs: m(on, "rescanMs"),
    rescanOffMs: m(none, "rescanMs"),
  };
  row.percent = ((row.onMs - row.offMs) / row.offMs) * 100;
  row.cpuPercent = ((row.onCpuMs - row.offCpuMs) / row.offCpuMs) * 100;
  return row;
}

export function formatGuard(rows) {
  const f = (ms) => `${(ms / 1000).toFixed(2)} s`;
  const p = (x) => `${x >= 0 ? "+" : ""}${x.toFixed(1)} %`;
  const lines = [
    "| shelf | cold start, checks off | checks on | cost | CPU off | CPU on | CPU cost | unchanged rescan (on / off) |",
    "|---|---|---|---|---|---|---|---|",
  ];
  for (const r of rows)
    lines.push(
      `| ${r.label} | ${f(r.offMs)} | ${f(r.onMs)} | ${p(r.percent)} | ${f(r.offCpuMs)} | ${f(r.onCpuMs)} | ${p(r.cpuPercent)} | ${f(r.rescanOnMs)} / ${f(r.rescanOffMs)} |`,
    );
  return lines.join("\n");
}

/** The suite: the synthetic shelf at `n` and both collections (medians of `runs` alternated pairs). */
export async function runGuardSuite({ dist, workDir, baseDir, n, seed, runs, log, corpora = true, shelf = true, profileDir }) {
  const on = snapshot(dist, workDir, "guard-on", false);
  const off = snapshot(dist, workDir, "guard-off", true);
  const rows = [];
  try {
    if (corpora && fs.existsSync(CORPORA))
      rows.push(measure("real collections", corporaConfig(workDir), { dist: on, off, runs, log, profileDir }));
    if (shelf) {
      const generated = ensureShelf({ baseDir, n, seed, log });
      const config = path.join(generated.dir, generated.manifest.config);
      rows.push(measure(`synthetic ${n}`, config, { dist: on, off, runs, log, profileDir }));
    }
  } finally {
    for (const app of [on, off]) fs.rmSync(path.dirname(app), { recursive: true, force: true });
  }
  return rows;
}

const flags = Object.fromEntries(
  process.argv
    .slice(2)
    .map((a) => a.replace(/^--/, "").split("="))
    .map(([k, ...v]) => [k, v.length ? v.join("=") : "true"]),
);
if (flags.child === "true") {
  process.stdout.write(`${JSON.stringify(await child(flags.dist, flags.config))}\n`);
  process.exit(0);
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const baseDir = path.resolve(flags.dir ?? path.join(os.tmpdir(), "skillshelf-bench"));
  fs.mkdirSync(baseDir, { recursive: true });
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "skillshelf-guard-bench-"));
  const log = (line) => process.stderr.write(`[guard] ${line}\n`);
  try {
    const rows = await runGuardSuite({
      dist: path.resolve(flags.dist ?? path.join(PROJECT, "dist")),
      workDir,
      baseDir,
      n: Number(flags.n ?? 10000),
      seed: Number(flags.seed ?? 7),
      runs: Number(flags.runs ?? 5),
      log,
      corpora: flags["no-corpora"] !== "true",
      shelf: flags["no-shelf"] !== "true",
      profileDir: flags.profile ? path.resolve(flags.profile) : undefined,
    });
    process.stdout.write(`${formatGuard(rows)}\n${JSON.stringify(rows)}\n`);
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}
