// Hidden folders a glob spells out (`skills/.curated/*`, which directory discovery serves) are watched like any
// other served folder, so an edit there is picked up; other hidden folders (`.git`, `.cache`) stay unwatched.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, expect, test } from "vitest";
import { configFromDirectories } from "../../src/config/index.js";
import { RootWatcher } from "../../src/live/watch.js";
import { planWatch } from "../../src/live/watch-targets.js";
import { tempDir } from "../support/temp.js";
import { waitFor } from "./helpers.js";

const watchers: RootWatcher[] = [];
afterEach(() => {
  for (const watcher of watchers.splice(0)) watcher.close();
});

function write(base: string, rel: string, text: string): void {
  mkdirSync(path.dirname(path.join(base, rel)), { recursive: true });
  writeFileSync(path.join(base, rel), text);
}

function plannedTarget(dir: string) {
  const result = configFromDirectories([dir], path.dirname(dir));
  if (!result.ok) throw new Error("config");
  const [target] = planWatch(result.config).targets;
  if (target === undefined) throw new Error("no target");
  return target;
}

test("directory discovery opts in the hidden folders directly inside a skills folder, and only those", () => {
  const dir = tempDir("skillshelf-watch-hidden-");
  const target = plannedTarget(dir);
  expect(target.hiddenOptIns?.("skills/.curated")).toBe(true);
  expect(target.hiddenOptIns?.("group/skills/.system")).toBe(true);
  expect(target.hiddenOptIns?.(".git")).toBe(false);
  expect(target.hiddenOptIns?.(".cache")).toBe(false);
  expect(target.hiddenOptIns?.("docs/.drafts")).toBe(false);
});

test("an edit in skills/.curated, and a new skills/.experimental folder, each wake the watcher; .git churn does not", async () => {
  const dir = tempDir("skillshelf-watch-hidden-");
  write(dir, "skills/.curated/gh-fix-ci/SKILL.md", "---\nname: gh-fix-ci\ndescription: Fix CI.\n---\n");
  write(dir, ".git/HEAD", "ref: refs/heads/main\n");
  let changes = 0;
  let events = 0;
  const watcher = new RootWatcher({ quietMs: 50, onChange: () => changes++, onEvent: () => events++, onState: () => undefined });
  watchers.push(watcher);
  await watcher.watch([plannedTarget(dir)]);
  // The root, skills, skills/.curated and skills/.curated/gh-fix-ci: never .git.
  expect(watcher.size).toBe(4);
  // A second watcher over another folder: every watch of the process reads one inotify queue in order, so once a
  // later write there is seen, whatever the .git write caused has been delivered already.
  const elsewhere = tempDir("skillshelf-watch-sentinel-");
  let sentinel = false;
  const sentinelWatcher = new RootWatcher({
    quietMs: 50,
    onChange: () => undefined,
    onEvent: () => (sentinel = true),
    onState: () => undefined,
  });
  watchers.push(sentinelWatcher);
  await sentinelWatcher.watch([{ fetch: "sentinel", abs: elsewhere }]);

  write(dir, ".git/HEAD", "ref: refs/heads/other\n");
  write(elsewhere, "sentinel.md", "seen\n");
  await waitFor(() => sentinel);
  expect(events).toBe(0);
  expect(changes).toBe(0);

  write(dir, "skills/.curated/gh-fix-ci/SKILL.md", "---\nname: gh-fix-ci\ndescription: Fix CI, edited.\n---\n");
  await waitFor(() => changes === 1);

  write(dir, "skills/.experimental/new-one/SKILL.md", "---\nname: new-one\ndescription: New.\n---\n");
  await waitFor(() => changes === 2);
  await waitFor(() => watcher.size === 6);
});
