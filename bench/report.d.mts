// Types of bench/report.mjs for the tests in test/bench/.
export interface Target {
  figure: string;
  target: string;
  measured: string;
  pass: boolean | null;
}
export function evaluateTargets(results: Record<string, unknown>): Target[];
export function formatReport(results: Record<string, unknown>): string;
export function formatBaseline(baseline: Record<string, unknown>): string[];
export function scaleTargets(scale: Record<string, unknown> | undefined): (Target & { pass: boolean })[];
