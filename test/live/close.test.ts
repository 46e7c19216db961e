// Closing the shelf service twice at once (a client that hangs up and signals): the second close waits for the
// first one's work, so the pending harvest record is on disk when either resolves.
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, expect, test } from "vitest";
import { configFromDirectories } from "../../src/config/index.js";
import { ShelfService } from "../../src/live/index.js";
import { makeTemp, removeTemps, skillMd, writeFiles } from "../sources/git-fixture.js";

afterAll(removeTemps);

test("a second close answers the first one's promise: the record is written when it resolves", async () => {
  const base = makeTemp();
  const root = path.join(base, "shelf");
  writeFiles(root, { "skills/alpha/SKILL.md": skillMd("alpha", "Use alpha.") });
  const cacheDir = path.join(base, "cache");
  const result = configFromDirectories([root], base);
  if (!result.ok) throw new Error("zero-config refused");
  const service = await ShelfService.start(result.config, () => new Date(0), { cacheDir });
  // The record waits a second after the build; closing cuts the wait short and writes it.
  expect(existsSync(path.join(cacheDir, "harvest.json"))).toBe(false);
  const first = service.close();
  const second = service.close();
  expect(second).toBe(first);
  await second;
  expect(readdirSync(cacheDir)).toEqual(["harvest.json"]);
  // Closed is closed: a later call answers at once with the same settled promise.
  await expect(service.close()).resolves.toBeUndefined();
});
