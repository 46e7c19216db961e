// Client mistakes are warnings at a bounded rate: a flood writes the window's lines, then one count when the
// window ends; the server's own failures are not client mistakes.
import { afterEach, beforeEach, expect, test, vi } from "vitest";
import type { LogLevel } from "../../src/log/index.js";
import { isClientMistake, RefusalLog } from "../../src/http/index.js";

let lines: string[];
const log = {
  log: (level: LogLevel, message: string, fields?: Readonly<Record<string, unknown>>) =>
    void lines.push(`${level} ${message} ${JSON.stringify(fields ?? {})}`),
};

beforeEach(() => {
  lines = [];
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

test("writes three lines a window, counts the rest and writes the count when the window ends", () => {
  const refusals = new RefusalLog(log, 3, 10_000);
  for (let i = 0; i < 1000; i++) refusals.warn(`request refused: bad ${i}`, { status: 400 });
  expect(lines).toEqual([
    'warn request refused: bad 0 {"status":400}',
    'warn request refused: bad 1 {"status":400}',
    'warn request refused: bad 2 {"status":400}',
  ]);
  vi.advanceTimersByTime(9_999);
  expect(lines).toHaveLength(3);
  vi.advanceTimersByTime(1);
  expect(lines.slice(3)).toEqual(['warn 997 more client requests refused, not logged one by one {"seconds":10,"logged":3}']);
  // A new window writes lines again, and a quiet one writes no count.
  refusals.warn("request refused: later", {});
  expect(lines.slice(4)).toEqual(["warn request refused: later {}"]);
  vi.advanceTimersByTime(60_000);
  expect(lines).toHaveLength(5);
});

test("a window's count comes before the next window's first line", () => {
  const refusals = new RefusalLog(log, 1, 1_000);
  refusals.warn("a");
  refusals.warn("b");
  vi.setSystemTime(5_000);
  refusals.warn("c");
  expect(lines).toEqual(["warn a {}", 'warn 1 more client requests refused, not logged one by one {"seconds":1,"logged":1}', "warn c {}"]);
});

test("the protocol SDK's refusals of what a client sent are client mistakes; anything else is not", () => {
  expect(isClientMistake(new Error("Rejected inbound request (empty-batch): Bad Request: empty JSON-RPC batch"))).toBe(true);
  expect(isClientMistake(new Error("Not Acceptable: Client must accept both application/json and text/event-stream"))).toBe(true);
  expect(isClientMistake(new Error("Unsupported Media Type: Content-Type must be application/json"))).toBe(true);
  expect(isClientMistake(new Error("ENOSPC: no space left on device, write"))).toBe(false);
  expect(isClientMistake(new Error("Cannot read properties of undefined"))).toBe(false);
  expect(isClientMistake("Bad Request")).toBe(false);
});
