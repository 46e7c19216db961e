// Durations and sizes as the config writes them, parsed into numbers. Total: odd input is `undefined`.

const DURATION = /^([0-9]+(?:\.[0-9]+)?)(ms|s|m|h|d)$/;
const SIZE = /^([0-9]+(?:\.[0-9]+)?) ?(B|kB|KB|KiB|MB|MiB|GB|GiB)?$/;

const MS_PER: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const BYTES_PER: Readonly<Record<string, number>> = {
  B: 1,
  kB: 1000,
  KB: 1000,
  KiB: 1024,
  MB: 1000 ** 2,
  MiB: 1024 ** 2,
  GB: 1000 ** 3,
  GiB: 1024 ** 3,
};

/** The longest delay a Node timer holds; a longer `refresh` would fire at once. */
export const MAX_DURATION_MS = 2 ** 31 - 1;

/** `60s` => 60000, `1.5h` => 5400000, `500ms` => 500, `250` => 250 (a number is milliseconds, rounded). */
export function parseDuration(value: string | number): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) && value >= 0 ? Math.round(value) : undefined;
  const m = DURATION.exec(value);
  if (m === null) return undefined;
  // Stryker disable next-line StringLiteral: equivalent; the unit group is required by DURATION, so `?? ""` never applies.
  return Math.round(Number(m[1]) * (MS_PER[m[2] ?? ""] ?? Number.NaN));
}

/** `8MiB` => 8388608, `512KiB` => 524288, `1MB` => 1000000, `1024` => 1024 (a number is bytes, floored). */
export function parseSize(value: string | number): number | undefined {
  const bytes = typeof value === "number" ? (value >= 0 ? Math.floor(value) : Number.NaN) : sizeOf(value);
  // A size written as a number is held to the same bound as one written with a unit.
  return Number.isSafeInteger(bytes) ? bytes : undefined;
}

function sizeOf(value: string): number {
  const m = SIZE.exec(value);
  return m === null ? Number.NaN : Math.floor(Number(m[1]) * (BYTES_PER[m[2] ?? "B"] ?? Number.NaN));
}
