// Types of bench/lib/compare.mjs for the tests in test/bench/.
export const WORSE_PCT: number;
export const WORSE_POINTS: number;
export type Better = "lower" | "higher";
export type Unit = "ms" | "bytes" | "MB" | "rate" | "%";
export interface RatioComparison {
  ratio: number;
  changePct: number;
  worsePct: number;
  flagged: boolean;
}
export interface ShareComparison {
  points: number;
  worsePoints: number;
  flagged: boolean;
}
export type Comparison = RatioComparison | ShareComparison;
export interface Figure {
  id: string;
  section: string;
  label: string;
  value: number;
  unit: Unit;
  better: Better;
}
export interface ComparedRow {
  id: string;
  section: string;
  label: string;
  unit: Unit;
  better: Better;
  ours: number;
  base: number | null;
  comparison: Comparison | null;
}
export function middle(values: readonly number[]): number;
export function alternation<T>(builds: readonly T[], rounds: number): { build: T; round: number }[];
export function compareFigure(ours: number | null | undefined, base: number | null | undefined, better: Better): RatioComparison | null;
export function compareShare(ours: number | null | undefined, base: number | null | undefined, better: Better): ShareComparison | null;
export function formatAgainst(comparison: Comparison | null | undefined): string;
export function formatValue(value: number | null | undefined, unit: Unit): string;
export function loadId(prefix: string, load: { transport: string; era: string; workload: string; concurrency: number }): string;
export function figuresOf(results: Record<string, unknown>): Figure[];
export function compareRuns(
  oursRounds: readonly Record<string, unknown>[],
  baseRounds: readonly Record<string, unknown>[],
): { rows: ComparedRow[]; flags: ComparedRow[] };
