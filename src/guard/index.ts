// The guard: deterministic checks of what a shelf serves (hidden text, instructions against the agent's safety,
// dangerous scripts, secrets, executables), and the policy that decides what a finding does. Pure: it is handed
// bytes and text, and reads nothing.
export { checkFile, checkFileText, sortFindings } from "./check.js";
export { FindingCache } from "./cache.js";
export { checkBinary, checkPlacement, executableFormat } from "./binary.js";
export { TEXT_RULES } from "./rules.js";
export { SEVERITIES, severityRank, type FileFinding, type GuardFinding, type Severity } from "./types.js";
export { actionOf, DEFAULT_GUARD_POLICY, type GuardAction, type GuardPolicy } from "./policy.js";
export { findLookAlikes, type LookAlike, type NamedSkill, skeletonOf, withinOneEdit } from "./names.js";
export { GUARD_RULE_IDS, ruleLabel } from "./rule-ids.js";
export {
  readScannerSarif,
  SCANNER_FAILED,
  SCANNER_PREFIX,
  scannerFailedFinding,
  type ScannerOutput,
  type ScannerResult,
} from "./scanner.js";
