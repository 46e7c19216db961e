// The baseline build of `npm run bench -- --baseline=REF`: REF checked out in a temporary git worktree, its
// dependencies (this checkout's node_modules when REF's package-lock.json is the same, else `npm ci`), built with
// `npm run build`; removed again by `dispose()`, which bench/run.mjs also calls on a failure and on SIGINT/SIGTERM.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const git = (projectRoot, args, options = {}) =>
  execFileSync("git", args, { cwd: projectRoot, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], ...options }).trim();

/** The files of `dist/` that a section loads and are absent from the build in `distDir` (relative paths). */
export function missingEntries(distDir, entries) {
  return entries.filter((entry) => !fs.existsSync(path.join(distDir, entry)));
}

export function prepareBaseline({ projectRoot, ref, log }) {
  let commit;
  try {
    commit = git(projectRoot, ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`]);
  } catch {
    throw new Error(`--baseline=${ref}: not a commit of this repository (git rev-parse found none)`);
  }
  const short = git(projectRoot, ["rev-parse", "--short", commit]);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "skillshelf-baseline-"));
  const tree = path.join(tmp, "tree");
  let added = false;
  const dispose = () => {
    if (added) {
      try {
        git(projectRoot, ["worktree", "remove", "--force", tree]);
      } catch (error) {
        process.stderr.write(`could not remove the baseline worktree ${tree}: ${error.message}\n`);
      }
      added = false;
    }
    fs.rmSync(tmp, { recursive: true, force: true });
    try {
      git(projectRoot, ["worktree", "prune"]);
    } catch {
      // nothing registered to prune
    }
  };
  try {
    log(`baseline ${ref} (${short}): git worktree add in ${tree}`);
    git(projectRoot, ["worktree", "add", "--detach", tree, commit]);
    added = true;
    const ourLock = fs.readFileSync(path.join(projectRoot, "package-lock.json"), "utf8");
    const theirLock = fs.existsSync(path.join(tree, "package-lock.json"))
      ? fs.readFileSync(path.join(tree, "package-lock.json"), "utf8")
      : null;
    const sameDeps = theirLock === ourLock;
    if (sameDeps) {
      fs.symlinkSync(fs.realpathSync(path.join(projectRoot, "node_modules")), path.join(tree, "node_modules"));
      log(`baseline ${short}: same package-lock.json, this checkout's node_modules reused`);
    } else {
      log(`baseline ${short}: its package-lock.json differs: npm ci`);
      execFileSync("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: tree, stdio: ["ignore", "ignore", "pipe"] });
    }
    log(`baseline ${short}: npm run build`);
    execFileSync("npm", ["run", "build"], { cwd: tree, stdio: ["ignore", "ignore", "pipe"] });
    if (!fs.existsSync(path.join(tree, "dist/cli.js"))) throw new Error("its build wrote no dist/cli.js");
    const subject = git(projectRoot, ["log", "-1", "--format=%s", commit]);
    return { ref, commit, short, subject, appRoot: tree, sameDeps, dispose };
  } catch (error) {
    dispose();
    const stderr = String(error.stderr ?? "").trim();
    const detail = error.signal
      ? `${error.spawnargs?.join(" ") ?? "a step"} was stopped by ${error.signal}`
      : stderr !== ""
        ? stderr.split("\n").slice(-5).join("\n")
        : error.message;
    throw new Error(`--baseline=${ref}: could not build it: ${detail}`);
  }
}
