// The holder's catch-up: a read that met a changed file waits for the rescan the watcher has pending, no longer.
import { describe, expect, test } from "vitest";
import { ShelfHolder } from "../../src/live/holder.js";
import type { Shelf } from "../../src/shelf/index.js";

const holder = (): ShelfHolder => new ShelfHolder({ generation: 1 } as Shelf);

describe("ShelfHolder.catchUp", () => {
  test("with no change pending it answers false at once", async () => {
    expect(await holder().catchUp(10_000)).toBe(false);
  });

  test("it waits until a rescan that took in every change seen so far has ended", async () => {
    const h = holder();
    h.sawChange(); // an event
    const upTo = h.sawChange(); // the quiet window ends: a rescan starts with everything seen until now
    h.sawChange(); // another event during that rescan
    let done = false;
    const waiting = h.catchUp(10_000).then((waited) => {
      done = true;
      return waited;
    });
    h.absorbedChanges(upTo);
    // A whole turn of the event loop: every promise the absorbed rescan could have settled has run.
    await new Promise((resolve) => setImmediate(resolve));
    expect(done).toBe(false); // the later event is not taken in yet
    h.absorbedChanges(h.sawChange());
    expect(await waiting).toBe(true);
    expect(await h.catchUp(10_000)).toBe(false);
  });

  test("a rescan that never ends releases the read after the limit", async () => {
    const h = holder();
    h.sawChange();
    expect(await h.catchUp(50)).toBe(true); // nothing absorbed the change: only the limit ends the wait
  });
});
