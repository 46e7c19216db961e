// The config file is read again when it changes, also when it is a mounted Kubernetes ConfigMap: the kubelet
// never writes the file, it points the `..data` link at a new timestamped folder and renames it into place.
import { mkdirSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { watchConfigFile } from "../../src/live/reloadable.js";
import { tempDir } from "../support/temp.js";

/** Resolves on the watcher's first call. */
function changed(file: string): { readonly seen: Promise<void>; stop(): void } {
  let stop = (): void => undefined;
  const seen = new Promise<void>((resolve) => {
    stop = watchConfigFile(file, resolve, 10);
  });
  return { seen, stop: () => stop() };
}

describe("the config watcher", () => {
  test("sees a ConfigMap update: a new ..data folder renamed into place", async () => {
    const dir = tempDir("skillshelf-configmap-");
    mkdirSync(path.join(dir, "..2026_12_01"));
    writeFileSync(path.join(dir, "..2026_12_01", "skillshelf.yaml"), "libraries: []\n");
    symlinkSync("..2026_12_01", path.join(dir, "..data"));
    symlinkSync(path.join("..data", "skillshelf.yaml"), path.join(dir, "skillshelf.yaml"));
    const watch = changed(path.join(dir, "skillshelf.yaml"));
    // What the kubelet does on an update.
    mkdirSync(path.join(dir, "..2026_12_02"));
    writeFileSync(path.join(dir, "..2026_12_02", "skillshelf.yaml"), "libraries: [{name: a}]\n");
    symlinkSync("..2026_12_02", path.join(dir, "..data_tmp"));
    renameSync(path.join(dir, "..data_tmp"), path.join(dir, "..data"));
    await expect(watch.seen).resolves.toBeUndefined();
    watch.stop();
  });

  test("sees a plain file written again", async () => {
    const dir = tempDir("skillshelf-configfile-");
    writeFileSync(path.join(dir, "skillshelf.yaml"), "libraries: []\n");
    const watch = changed(path.join(dir, "skillshelf.yaml"));
    writeFileSync(path.join(dir, "skillshelf.yaml"), "libraries: [{name: a}]\n");
    await expect(watch.seen).resolves.toBeUndefined();
    watch.stop();
  });
});
