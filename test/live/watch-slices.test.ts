// Watching a big shelf's roots never holds the event loop for long: directories are watched a slice at a time, and
// the roots one after another, so a turn of the event loop sets up at most one slice of one root.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { afterEach, expect, test } from "vitest";
import { RootWatcher, WATCH_SLICE } from "../../src/live/watch.js";
import { tempDir } from "../support/temp.js";

const watchers: RootWatcher[] = [];
afterEach(() => {
  for (const watcher of watchers.splice(0)) watcher.close();
});

/** A root holding `count` directories below it (the root itself watched too). */
function rootWith(count: number): string {
  const dir = tempDir("skillshelf-watch-slices-");
  for (let i = 0; i < count; i++) mkdirSync(path.join(dir, `d${String(i).padStart(4, "0")}`));
  return dir;
}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

test("two roots of more than a slice each: one slice per turn, the second root after the first", async () => {
  const per = WATCH_SLICE + 44;
  const [one, two] = [rootWith(per - 1), rootWith(per - 1)];
  const watcher = new RootWatcher({ quietMs: 50, onChange: () => undefined, onState: () => undefined });
  watchers.push(watcher);
  const states: string[] = [];
  const done = watcher.watch([
    { fetch: "one", abs: one as string },
    { fetch: "two", abs: two as string },
  ]);
  void done.then(() => states.push("ready"));
  // Before the first turn: one slice of the first root, none of the second.
  expect(watcher.size).toBe(WATCH_SLICE);
  const sizes: number[] = [];
  while (states.length === 0) {
    await turn();
    sizes.push(watcher.size);
  }
  expect(watcher.size).toBe(2 * per);
  // No turn added more than one slice of the first root's rest and one slice of the second.
  const steps = sizes.map((size, i) => size - (i === 0 ? WATCH_SLICE : (sizes[i - 1] as number)));
  for (const step of steps) expect(step).toBeLessThanOrEqual(WATCH_SLICE + 44);
  expect(sizes[0]).toBeLessThanOrEqual(per + WATCH_SLICE);
});
