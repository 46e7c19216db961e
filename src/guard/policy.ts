// What a finding does under a policy: quarantine what it is in, warn, or nothing (released by the operator).
import { SCANNER_FAILED } from "./scanner.js";
import type { Severity } from "./types.js";

export interface GuardPolicy {
  /** Severities that quarantine; any other finding warns. */
  readonly quarantine: readonly Severity[];
  /** Released findings: the rule and the file's skill:// URI, and when given, only for bytes of that digest. */
  readonly allow: readonly { readonly rule: string; readonly file: string; readonly digest?: string }[];
  /** What a failed external scan (`scanner-failed`) does, whatever its severity: the scanner's `onFailure`
   *  (absent: its severity decides, as for any finding). */
  readonly scannerFailure?: "quarantine" | "warn";
}

export const DEFAULT_GUARD_POLICY: GuardPolicy = { quarantine: ["critical"], allow: [] };

export type GuardAction = "quarantine" | "warn" | "released";

export function actionOf(
  policy: GuardPolicy,
  finding: { readonly rule: string; readonly severity: Severity; readonly digest: string },
  file: string,
): GuardAction {
  const released = policy.allow.some(
    (entry) => entry.rule === finding.rule && entry.file === file && (entry.digest === undefined || entry.digest === finding.digest),
  );
  if (released) return "released";
  if (finding.rule === SCANNER_FAILED && policy.scannerFailure !== undefined) return policy.scannerFailure;
  return policy.quarantine.includes(finding.severity) ? "quarantine" : "warn";
}
