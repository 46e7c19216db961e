// The shelf's log lines: a swapped-in shelf's problems are logged after the swap's other listeners ran (the clients'
// change notifications are not held up by the health report) and before the rebuild's own line, which counts them;
// the report gives way to rebuilds.
import fs from "node:fs";
import path from "node:path";
import { afterAll, expect, test } from "vitest";
import { configFromDirectories } from "../../src/config/index.js";
import { ShelfLog, ShelfService } from "../../src/live/index.js";
import type { LogLevel } from "../../src/log/index.js";
import { makeTemp, removeTemps, skillMd, writeFiles } from "../sources/git-fixture.js";

afterAll(removeTemps);

/** One skill citing a file it lacks, served zero-config; the log's lines as `level message cites`. */
function citingShelf() {
  const base = makeTemp();
  const root = path.join(base, "shelf");
  writeFiles(root, { "skills/alpha/SKILL.md": skillMd("alpha", "Use alpha.", "# alpha\n\nSee [the guide](references/one.md).\n") });
  const result = configFromDirectories([root], base);
  if (!result.ok) throw new Error("zero-config refused");
  const lines: string[] = [];
  const log = {
    log: (level: LogLevel, message: string, fields: Readonly<Record<string, unknown>> = {}) =>
      lines.push(`${level} ${message} ${fields["cites"] ?? ""}`.trim()),
  };
  return { root, config: result.config, lines, log };
}

test("a swap's listeners run before its health report; the rebuilt line comes after the report", async () => {
  const { root, config, lines, log } = citingShelf();
  let shelfLog: ShelfLog | undefined;
  const service = await ShelfService.start(config, () => new Date(0), {
    onRebuilt: (seconds, swapped) => shelfLog?.rebuilt(seconds, swapped),
  });
  try {
    shelfLog = new ShelfLog(log, () => service.holder.current);
    shelfLog.follow(service.holder);
    expect(lines).toEqual(["info shelf built"]);
    // The report is computed a part at a time after the first shelf is served: nothing of it is logged yet.
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toEqual(["info shelf built"]);
    await shelfLog.settled();
    expect(lines).toEqual(["info shelf built", "warn dangling citation references/one.md"]);

    const atSwap: string[][] = [];
    service.holder.onSwap(() => atSwap.push([...lines]));
    fs.writeFileSync(
      path.join(root, "skills/alpha/SKILL.md"),
      skillMd("alpha", "Use alpha.", "# alpha\n\nSee [the other](references/two.md).\n"),
    );
    await service.rebuild();
    await shelfLog.settled();
    // The listener saw the log as it was before the swap: the new shelf's report had not run yet.
    expect(atSwap).toEqual([["info shelf built", "warn dangling citation references/one.md"]]);
    expect(lines.slice(2)).toEqual([
      "warn dangling citation references/two.md",
      "info citation no longer dangling references/one.md",
      "info shelf rebuilt",
    ]);
  } finally {
    await service.close();
  }
});

test("the report waits for rebuilds: nothing of it is worked out while `idle` has not resolved", async () => {
  const { config, lines, log } = citingShelf();
  const service = await ShelfService.start(config, () => new Date(0));
  try {
    let release: () => void = () => undefined;
    const busy = new Promise<void>((resolve) => (release = resolve));
    const shelfLog = new ShelfLog(
      log,
      () => service.holder.current,
      () => busy,
    );
    shelfLog.follow(service.holder);
    for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toEqual(["info shelf built"]);
    release();
    await shelfLog.settled();
    expect(lines).toEqual(["info shelf built", "warn dangling citation references/one.md"]);
  } finally {
    await service.close();
  }
});

test("ShelfService.idle resolves once the rebuilds queued when it was asked, and those queued meanwhile, are done", async () => {
  const { config } = citingShelf();
  const service = await ShelfService.start(config, () => new Date(0));
  try {
    const order: string[] = [];
    await service.idle();
    const first = service.rescan().then(() => order.push("first rescan"));
    const idle = service.idle().then(() => order.push("idle"));
    const second = service.rescan().then(() => order.push("second rescan"));
    await Promise.all([first, idle, second]);
    expect(order).toEqual(["first rescan", "second rescan", "idle"]);
  } finally {
    await service.close();
  }
});
