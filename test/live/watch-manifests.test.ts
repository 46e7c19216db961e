// A plugin manifest or a marketplace file decides what is served and to whom (the keywords a tag-scoped client is
// admitted by, a marketplace's entries), and both live in a hidden folder, `.claude-plugin/`. The watcher watches
// that folder wherever it is, so an edit to the manifest alone is rebuilt like an edit to a skill.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { startLiveShelf } from "../../src/live/index.js";
import { RootWatcher } from "../../src/live/watch.js";
import { FULL_SCOPE_ON, scopeOn, type ScopeOn, visibleSkills } from "../../src/resolve/index.js";
import type { Shelf } from "../../src/shelf/index.js";
import { tempDir } from "../support/temp.js";
import { configOf, KEYWORD_CEILING_CONFIG, waitFor, writeUnder } from "./helpers.js";

const closers: (() => unknown)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const skillMd = (name: string): string => `---\nname: ${name}\ndescription: Skill ${name}.\n---\n# ${name}\n`;
const names = (shelf: Shelf, on: ScopeOn): string[] => visibleSkills(shelf, on(shelf)).map((skill) => skill.name);

/** A live shelf over `yaml` in `base`, its first verifying rescan done (every directory watched by then). */
async function liveShelf(yaml: string, base: string): Promise<{ current: () => Shelf; rebuilds: () => number }> {
  let rebuilds = 0;
  const live = await startLiveShelf(configOf(yaml, base), () => new Date(0), { onRebuilt: () => void rebuilds++ }, 50);
  closers.push(() => live.close());
  await waitFor(() => rebuilds >= 1);
  return { current: () => live.service.holder.current, rebuilds: () => rebuilds };
}

describe("the watcher and manifest folders", () => {
  test("watches .claude-plugin at any depth, and a new one from when it appears; an edit there wakes it", async () => {
    const dir = tempDir("skillshelf-watch-manifests-");
    writeUnder(dir, ".claude-plugin/marketplace.json", "{}");
    writeUnder(dir, "plugins/one/.claude-plugin/plugin.json", "{}");
    writeUnder(dir, ".cache/x", "");
    let changes = 0;
    const watcher = new RootWatcher({ quietMs: 50, onChange: () => changes++, onState: () => undefined });
    closers.push(() => watcher.close());
    await watcher.watch([{ fetch: "./market", abs: dir }]);
    // The root, .claude-plugin, plugins, plugins/one, plugins/one/.claude-plugin: never .cache.
    expect(watcher.size).toBe(5);

    writeFileSync(path.join(dir, "plugins/one/.claude-plugin/plugin.json"), JSON.stringify({ keywords: ["k"] }));
    await waitFor(() => changes === 1);
    writeFileSync(path.join(dir, ".claude-plugin/marketplace.json"), JSON.stringify({ plugins: [] }));
    await waitFor(() => changes === 2);
    mkdirSync(path.join(dir, "plugins/two/.claude-plugin"), { recursive: true });
    await waitFor(() => changes === 3 && watcher.size === 7);
    writeFileSync(path.join(dir, "plugins/two/.claude-plugin/plugin.json"), "{}");
    await waitFor(() => changes === 4);
  });
});

describe("a watched server and a manifest-only edit", () => {
  test("a plugin.json that drops the keyword a client's tag admitted it by is rebuilt: the client no longer sees it", async () => {
    const base = tempDir("skillshelf-watch-manifests-");
    writeUnder(base, "pk/.claude-plugin/plugin.json", JSON.stringify({ keywords: ["kw-pub"] }));
    writeUnder(base, "pk/skills/k-one/SKILL.md", skillMd("k-one"));
    writeUnder(base, "pz/skills/z-one/SKILL.md", skillMd("z-one"));
    const live = await liveShelf(KEYWORD_CEILING_CONFIG, base);
    const tagged = scopeOn({ tags: ["kw-pub"] }, {});
    expect(names(live.current(), tagged)).toEqual(["k-one", "z-one"]);

    writeFileSync(path.join(base, "pk/.claude-plugin/plugin.json"), JSON.stringify({ keywords: [] }));
    await waitFor(() => names(live.current(), tagged).length === 1);
    expect(names(live.current(), tagged)).toEqual(["z-one"]);
    expect(names(live.current(), FULL_SCOPE_ON)).toEqual(["k-one", "z-one"]);
  });

  test("a marketplace.json that drops an entry is rebuilt: the entry's plugin is no longer served", async () => {
    const base = tempDir("skillshelf-watch-manifests-");
    const entries = (...names: string[]) =>
      JSON.stringify({ name: "team", plugins: names.map((name) => ({ name, source: `./plugins/${name}` })) });
    writeUnder(base, "market/.claude-plugin/marketplace.json", entries("one", "two"));
    writeUnder(base, "market/plugins/one/skills/s-one/SKILL.md", skillMd("s-one"));
    writeUnder(base, "market/plugins/two/skills/s-two/SKILL.md", skillMd("s-two"));
    const live = await liveShelf("libraries:\n  - {name: team, source: ./market}\n", base);
    expect(names(live.current(), FULL_SCOPE_ON)).toEqual(["s-one", "s-two"]);

    writeFileSync(path.join(base, "market/.claude-plugin/marketplace.json"), entries("one"));
    await waitFor(() => names(live.current(), FULL_SCOPE_ON).length === 1);
    expect(names(live.current(), FULL_SCOPE_ON)).toEqual(["s-one"]);
  });
});
