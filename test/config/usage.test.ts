// The `usage` key: absent counts nothing; `{}` is the embedded database with the defaults; each value is checked.
import { describe, expect, test } from "vitest";
import { parseConfig } from "../../src/config/load.js";
import { tempDir } from "../support/temp.js";

const BASE = tempDir("skillshelf-usage-config-");
const LIBRARY = "plugins:\n  - name: team\n    source: ./skills\nlibraries:\n  - name: team\n    plugins: [team]\n";

function parse(usage: string) {
  return parseConfig(`${LIBRARY}${usage}`, "plugins.yaml", BASE);
}

describe("usage", () => {
  test("absent: nothing is counted", () => {
    const result = parse("");
    expect(result.ok && result.config.usage).toBe(undefined);
  });

  test("{} is the embedded database with the defaults", () => {
    const result = parse("usage: {}\n");
    expect(result.ok && result.config.usage).toStrictEqual({
      claim: "groups",
      retentionMs: 400 * 86_400_000,
      flushMs: 10_000,
      buffer: 10_000,
    });
  });

  test("every key", () => {
    const result = parse("usage:\n  database: {env: USAGE_DB}\n  claim: sub\n  retention: 30d\n  flush: 2s\n  buffer: 50\n");
    expect(result.ok && result.config.usage).toStrictEqual({
      database: { env: "USAGE_DB" },
      claim: "sub",
      retentionMs: 30 * 86_400_000,
      flushMs: 2000,
      buffer: 50,
    });
  });

  test.each([
    ["usage:\n  retention: 12h\n", "/usage/retention", 8, "must be at least 1d: counts are kept as daily rows"],
    ["usage:\n  flush: 10ms\n", "/usage/flush", 8, "must be at least 100ms"],
  ])("%j is refused", (usage, path, line, rule) => {
    expect(parse(usage)).toStrictEqual({ ok: false, errors: [{ file: "plugins.yaml", path, line, rule }] });
  });

  test("an unknown key and a buffer of 0 are refused by the schema", () => {
    const result = parse("usage:\n  buffer: 0\n  databse: x\n");
    expect(result.ok).toBe(false);
    expect(!result.ok && result.errors.map((error) => error.path).sort()).toEqual(["/usage/buffer", "/usage/databse"]);
  });
});
