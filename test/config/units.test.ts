import { expect, test } from "vitest";
import { parseDuration, parseSize } from "../../src/config/units.js";

test.each([
  { value: "500ms", ms: 500 },
  { value: "60s", ms: 60_000 },
  { value: "5m", ms: 300_000 },
  { value: "1h", ms: 3_600_000 },
  { value: "1d", ms: 86_400_000 },
  { value: "1.5h", ms: 5_400_000 },
  { value: "0s", ms: 0 },
  { value: 250, ms: 250 },
  { value: 0, ms: 0 },
  { value: "60", ms: undefined },
  { value: "1 h", ms: undefined },
  { value: "1H", ms: undefined },
  { value: "-1s", ms: undefined },
  { value: -1, ms: undefined },
])("duration $value -> $ms", ({ value, ms }) => {
  expect(parseDuration(value)).toBe(ms);
});

test.each([
  { value: "8MiB", bytes: 8 * 1024 * 1024 },
  { value: "512KiB", bytes: 512 * 1024 },
  { value: "1GiB", bytes: 1024 ** 3 },
  { value: "1.5KiB", bytes: 1536 },
  { value: "2 MiB", bytes: 2 * 1024 * 1024 },
  { value: "1kB", bytes: 1000 },
  { value: "1KB", bytes: 1000 },
  { value: "1MB", bytes: 1_000_000 },
  { value: "1GB", bytes: 1_000_000_000 },
  { value: "100B", bytes: 100 },
  { value: "1024", bytes: 1024 },
  { value: 1024, bytes: 1024 },
  { value: "8mib", bytes: undefined },
  { value: "8 M", bytes: undefined },
  { value: "99999999999GiB", bytes: undefined },
  { value: 1e21, bytes: undefined },
  { value: 2 ** 53, bytes: undefined },
  { value: 2 ** 53 - 1, bytes: 2 ** 53 - 1 },
  { value: 1.9, bytes: 1 },
  { value: -1, bytes: undefined },
  { value: Number.POSITIVE_INFINITY, bytes: undefined },
  { value: Number.NaN, bytes: undefined },
])("size $value -> $bytes", ({ value, bytes }) => {
  expect(parseSize(value)).toBe(bytes);
});
