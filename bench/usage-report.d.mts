// Types of bench/usage-report.mjs for the tests in test/bench/.
export const HTTP_OVERHEAD_TARGET_PCT: number;
export function usageTarget(usage: Record<string, unknown>): { figure: string; target: string; measured: string; pass: boolean };
export function formatUsage(usage: Record<string, unknown>, against: { header: string[]; cells: (id: string) => string[] }): string[];
