// The log line, pinned by exact values: the text and JSON formats and the level threshold.
import { describe, expect, test } from "vitest";
import { createLogger } from "../../src/log/index.js";

describe("createLogger", () => {
  const NOW = (): Date => new Date("2026-01-02T03:04:05.678Z");

  test("text: time, level, message, then key=value with strings bare and anything else as JSON", () => {
    const lines: string[] = [];
    const log = createLogger((line) => lines.push(line), "text", "debug", NOW);
    log.log("warn", "skipped", { plugin: "kit", count: 2, rows: ["a"], empty: "" });
    log.log("debug", "plain");
    expect(lines).toEqual([
      '2026-01-02T03:04:05.678Z warn skipped plugin=kit count=2 rows=["a"] empty=',
      "2026-01-02T03:04:05.678Z debug plain",
    ]);
  });

  test("json: one object per line with time, level, msg and the fields", () => {
    const lines: string[] = [];
    createLogger((line) => lines.push(line), "json", "info", NOW).log("error", "failed", { fetch: "./kit" });
    expect(lines).toEqual(['{"time":"2026-01-02T03:04:05.678Z","level":"error","msg":"failed","fetch":"./kit"}']);
  });

  test("the threshold drops lower levels and keeps its own and higher ones", () => {
    const levels: string[] = [];
    const log = createLogger((line) => levels.push(line.split(" ")[1] as string), "text", "warn", NOW);
    for (const level of ["debug", "info", "warn", "error"] as const) log.log(level, "m");
    expect(levels).toEqual(["warn", "error"]);
  });
});
