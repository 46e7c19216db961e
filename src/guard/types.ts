// What the guard says about one file: deterministic findings, each with a rule, a severity, a one-line reason,
// the 1-based line it points at and what to do about it. Plain data: harvest keeps it with the file's read.

export const SEVERITIES = ["critical", "high", "medium", "low"] as const;
export type Severity = (typeof SEVERITIES)[number];

/** One finding in one file; the file is whatever holds the list (a harvested file, a prompt). */
export interface FileFinding {
  /** The rule's id, e.g. `exec-fetch-execute` or `secret-aws`. */
  readonly rule: string;
  readonly severity: Severity;
  /** One line: what was found. */
  readonly reason: string;
  /** 1-based; 1 for a finding about the whole file (a binary, a mode bit). */
  readonly line: number;
  /** One line: what the author or the operator does about it. */
  readonly fix: string;
}

/** A finding placed in a plugin: its file by path from the plugin root, with the digest of the bytes checked. */
export interface GuardFinding extends FileFinding {
  readonly path: string;
  readonly digest: string;
}

/** Lower is graver: `critical` is 0. */
export function severityRank(severity: Severity): number {
  return SEVERITIES.indexOf(severity);
}

/** One step less grave (low stays low). */
export function milder(severity: Severity, steps = 1): Severity {
  return SEVERITIES[Math.min(SEVERITIES.length - 1, severityRank(severity) + steps)] as Severity;
}
