// No read returns bytes from outside the plugin root when a directory above a served file is swapped for a link
// to a copy outside it, whose files have the same names, sizes and mtimes: a small file (hashed on read), a large
// one (over the content cache's entry size, trusted on size and mtime), a plugin-root fallback file (no digest),
// and a SKILL.md body the search index reads, with the link one, two, three and four levels up. Unwatched, no
// rescan ever comes; watched, the read meets the swap before the rescan that drops the link.
import { describe, expect, test } from "vitest";
import { ContentCache, ShelfReader, startLiveShelf } from "../../src/live/index.js";
import { ShelfHolder } from "../../src/live/holder.js";
import { FULL_SCOPE_ON, type ReadOutcome } from "../../src/resolve/index.js";
import { tempDir } from "../support/temp.js";
import {
  ALL_TARGETS,
  DECOY_WORD,
  parentLinkConfig,
  SECRET,
  swapForLink,
  type Target,
  writeParentLinkPlugin,
} from "../support/parent-links.js";
import { buildShelfOf, configOf, waitFor } from "./helpers.js";

/** Each directory above a served file, with the targets below it. */
const SWAPS = ["skills/alpha/one/two", "skills/alpha/one", "skills/alpha", "skills", "notes/one/two", "notes/one", "notes"];

/** Refused as changed since the harvest (`stale`: the read waited for a pending rescan, if any, first). */
const notFound = (uri: string): ReadOutcome => ({
  ok: false,
  uri,
  message: expect.stringMatching(/^Not found: /) as unknown as string,
  stale: true,
});

/** Every target below the swapped directory answers not found, and a search never matches the decoy's words; every
 *  other target still serves its own bytes. */
async function expectNoOutsideBytes(reader: ShelfReader, below: readonly Target[]): Promise<void> {
  const answers = await Promise.all(ALL_TARGETS.map((target) => reader.read(target.uri, FULL_SCOPE_ON)));
  expect(JSON.stringify(answers)).not.toContain(SECRET);
  expect(answers).toEqual(
    ALL_TARGETS.map((target) =>
      below.includes(target)
        ? notFound(target.uri)
        : { ok: true, uri: target.uri, mimeType: expect.any(String) as unknown, text: target.text },
    ),
  );
  const search = await reader.search({ query: DECOY_WORD, library: null, limit: 10 }, FULL_SCOPE_ON);
  expect(search).toEqual({ ok: true, rows: [] });
}

describe("a directory above a served file swapped for a link out of the root", () => {
  test.each(SWAPS)("unwatched (watch: false), %s swapped: nothing from outside is served, ever", async (dir) => {
    const base = tempDir("skillshelf-parent-link-");
    writeParentLinkPlugin(base);
    const holder = new ShelfHolder(await buildShelfOf(parentLinkConfig(false), base, 1));
    const reader = new ShelfReader(holder, new ContentCache());
    const below = swapForLink(base, dir);
    expect(below.length).toBeGreaterThan(0);
    // Twice: the first read's outcome must not have put anything where the second finds it.
    await expectNoOutsideBytes(reader, below);
    await expectNoOutsideBytes(reader, below);
  });

  test.each(SWAPS)("watched, %s swapped: a read before the rescan serves nothing from outside", async (dir) => {
    const base = tempDir("skillshelf-parent-link-");
    writeParentLinkPlugin(base);
    let rebuilds = 0;
    // A quiet window longer than the test: the watcher has seen the swap, and no rescan has taken it in yet.
    const live = await startLiveShelf(
      configOf(parentLinkConfig(true), base),
      () => new Date(0),
      { onRebuilt: () => void rebuilds++ },
      600_000,
    );
    try {
      // The rescan that follows setting up the watches is done: the watcher is on every directory.
      await waitFor(() => rebuilds === 1);
      const holder = live.service.holder;
      // No rescan comes (the quiet window outlasts the test): a read that meets the swap waits for none, and answers
      // what it would have answered once the wait gave up.
      const reader = new ShelfReader(holder, new ContentCache(), undefined, 0);
      const below = swapForLink(base, dir);
      // The watcher has seen the swap: a change is pending that no rescan has taken in.
      for (let tries = 0; !(await holder.catchUp(0)); tries++) {
        if (tries > 500) throw new Error("the watcher never saw the swap");
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await expectNoOutsideBytes(reader, below);
      expect(rebuilds).toBe(1);
    } finally {
      await live.close();
    }
  });
});
