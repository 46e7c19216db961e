// What an external scanner said about one skill folder, read from the SARIF 2.1.0 log it printed: each result a
// finding of rule `scanner:<ruleId>` whose severity is the result's (or its rule's) `security-severity` when given,
// else its SARIF level. Output that is not such a log, or a log whose run says it failed, is a failed scan: one
// `scanner-failed` finding, which the policy's `onFailure` judges. Pure: it is handed the text the scanner printed.
import * as z from "zod";
import { formatOneLine } from "../address/index.js";
import type { FileFinding, Severity } from "./types.js";

export const SCANNER_PREFIX = "scanner:";
export const SCANNER_FAILED = "scanner-failed";
/** The longest reason or fix a scanner's text makes (one line, cut at a word). */
const MAX_TEXT = 300;

const text = z.object({ text: z.string().optional() }).optional();
const properties = z.record(z.string(), z.unknown()).optional();
const level = z.enum(["none", "note", "warning", "error"]);
const rule = z.object({
  id: z.string().min(1),
  shortDescription: text,
  fullDescription: text,
  help: text,
  defaultConfiguration: z.object({ level: level.optional() }).optional(),
  properties,
});
const result = z.object({
  ruleId: z.string().min(1).optional(),
  ruleIndex: z.number().int().min(-1).optional(),
  rule: z.object({ id: z.string().min(1).optional(), index: z.number().int().min(-1).optional() }).optional(),
  level: level.optional(),
  message: z.object({ text: z.string().optional(), id: z.string().optional() }),
  locations: z
    .array(
      z.object({
        physicalLocation: z
          .object({
            artifactLocation: z.object({ uri: z.string().optional() }).optional(),
            region: z.object({ startLine: z.number().int().min(1).optional() }).optional(),
          })
          .optional(),
      }),
    )
    .optional(),
  properties,
});
const sarifLog = z.object({
  version: z.literal("2.1.0"),
  runs: z.array(
    z.object({
      tool: z.object({ driver: z.object({ name: z.string().min(1), rules: z.array(rule).optional() }) }),
      results: z.array(result).optional(),
      invocations: z.array(z.object({ executionSuccessful: z.boolean() })).optional(),
    }),
  ),
});
type Rule = z.infer<typeof rule>;
type Result = z.infer<typeof result>;

/** One result: a finding, and the location the scanner gave (a URI or path as printed, absent when none). */
export interface ScannerResult extends FileFinding {
  readonly uri?: string;
}

export type ScannerOutput =
  { readonly ok: true; readonly results: readonly ScannerResult[] } | { readonly ok: false; readonly reason: string };

/** The results of a scanner's stdout, or why it is not a SARIF 2.1.0 log of a successful run. */
export function readScannerSarif(stdout: string): ScannerOutput {
  let data: unknown;
  try {
    data = JSON.parse(stdout);
  } catch {
    return { ok: false, reason: "its output is not JSON (SARIF 2.1.0 expected on stdout)" };
  }
  const parsed = sarifLog.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const at = issue === undefined || issue.path.length === 0 ? "" : ` at ${issue.path.join(".")}`;
    return { ok: false, reason: `its output is not a SARIF 2.1.0 log${at}: ${formatOneLine(issue?.message ?? "", 120)}` };
  }
  const results: ScannerResult[] = [];
  for (const run of parsed.data.runs) {
    if (run.invocations?.some((invocation) => !invocation.executionSuccessful) === true)
      return { ok: false, reason: `${formatOneLine(run.tool.driver.name, 60)} reported that its run did not succeed` };
    const rules = run.tool.driver.rules ?? [];
    for (const found of run.results ?? []) results.push(toResult(found, rules, run.tool.driver.name));
  }
  return { ok: true, results };
}

function toResult(found: Result, rules: readonly Rule[], tool: string): ScannerResult {
  const index = found.ruleIndex ?? found.rule?.index ?? -1;
  const id = found.ruleId ?? found.rule?.id ?? rules[index]?.id;
  const described = rules.find((r) => r.id === id) ?? rules[index];
  const name = id ?? tool;
  const location = found.locations?.[0]?.physicalLocation;
  const uri = location?.artifactLocation?.uri;
  const reason = found.message.text ?? described?.shortDescription?.text ?? found.message.id ?? `reported by ${tool}`;
  const fix =
    described?.help?.text ??
    described?.fullDescription?.text ??
    `See the scanner's rule ${name}; fix the file, or release the finding under guard.allow.`;
  return {
    rule: `${SCANNER_PREFIX}${name}`,
    severity: severityOf(found, described),
    // A reason is a phrase, as the built-in rules' are: the reports add the full stop.
    reason: formatOneLine(reason, MAX_TEXT).replace(/\.$/, ""),
    line: location?.region?.startLine ?? 1,
    fix: formatOneLine(fix, MAX_TEXT),
    ...(uri === undefined ? {} : { uri }),
  };
}

/** GitHub code scanning's reading of `security-severity` (a score from 0 to 10): over 9 critical, 7 high, 4
 *  medium, else low; without one, the level: `error` high, `warning` (SARIF's default) medium, `note` and `none`
 *  low. */
export function severityOf(found: Pick<Result, "level" | "properties">, described: Rule | undefined): Severity {
  const score = Number(found.properties?.["security-severity"] ?? described?.properties?.["security-severity"] ?? Number.NaN);
  if (Number.isFinite(score)) return score >= 9 ? "critical" : score >= 7 ? "high" : score >= 4 ? "medium" : "low";
  const said = found.level ?? described?.defaultConfiguration?.level ?? "warning";
  return said === "error" ? "high" : said === "warning" ? "medium" : "low";
}

/** The finding a failed scan is: on the skill's SKILL.md, `high`, judged by the policy's `onFailure`. */
export function scannerFailedFinding(reason: string): FileFinding {
  return {
    rule: SCANNER_FAILED,
    severity: "high",
    reason: `the external scanner failed on this skill: ${reason}`,
    line: 1,
    fix: "Make the scanner work on this folder (run it by hand on it), or set guard.scanner.onFailure to warn.",
  };
}
