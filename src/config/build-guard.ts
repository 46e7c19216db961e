// The guard's policy: the top-level `guard` (every library's default) and a library's own, which replaces the
// severities that quarantine and adds releases of its own files. A release names its file by a canonical skill://
// URI, the one /health shows, so an alias of it (`skill://lib//a/./b`) is stored as that URI.
import { formatSkillUri, parseSkillUri } from "../address/index.js";
import type { LibraryNames } from "./build-access.js";
import path from "node:path";
import {
  DEFAULT_GUARD_QUARANTINE,
  DEFAULT_SCANNER_CONCURRENCY,
  DEFAULT_SCANNER_ON_FAILURE,
  DEFAULT_SCANNER_TIMEOUT_MS,
} from "./defaults.js";
import type { RawConfig, RawLibrary } from "./raw.js";
import type { Report, Where } from "./report.js";
import { RULE } from "./rules.js";
import type { GuardConfig, GuardRelease, LibraryGuardConfig, ScannerConfig } from "./types.js";
import { parseDuration } from "./units.js";

type RawGuard = NonNullable<RawConfig["guard"]>;
type RawAllow = NonNullable<RawGuard["allow"]>;

const HOUR_MS = 3_600_000;

/** The default policy; absent when the file has no `guard`. Each release names a file of a declared library. */
export function buildGuard(raw: RawGuard | undefined, libraries: LibraryNames, baseDir: string, report: Report): GuardConfig | undefined {
  if (raw === undefined) return undefined;
  const allow = buildAllow(raw.allow ?? [], ["guard", "allow"], report, (library, at) => {
    if (!libraries.has(library)) report(at, RULE.noLibrary(library, libraries));
  });
  const scanner = raw.scanner === undefined ? undefined : buildScanner(raw.scanner, baseDir, report);
  return { quarantine: raw.quarantine ?? DEFAULT_GUARD_QUARANTINE, allow, ...(scanner === undefined ? {} : { scanner }) };
}

/** The scanner's program resolved like a plugin's folder (against the config file's directory) when it is a path,
 *  and its timeout within what a build can wait. */
function buildScanner(raw: NonNullable<RawGuard["scanner"]>, baseDir: string, report: Report): ScannerConfig {
  const timeoutMs = parseDuration(raw.timeout ?? DEFAULT_SCANNER_TIMEOUT_MS) ?? DEFAULT_SCANNER_TIMEOUT_MS;
  if (timeoutMs < 100) report(["guard", "scanner", "timeout"], RULE.scannerTimeoutMin);
  else if (timeoutMs > HOUR_MS) report(["guard", "scanner", "timeout"], RULE.scannerTimeoutMax);
  const [program = "", ...args] = raw.command;
  return {
    command: [program.includes("/") ? path.resolve(baseDir, program) : program, ...args],
    timeoutMs,
    concurrency: raw.concurrency ?? DEFAULT_SCANNER_CONCURRENCY,
    onFailure: raw.onFailure ?? DEFAULT_SCANNER_ON_FAILURE,
  };
}

/** A library's own policy; absent when the library has no `guard`. Each release names a file of that library. */
export function buildLibraryGuard(raw: RawLibrary, where: Where, report: Report): LibraryGuardConfig | undefined {
  if (raw.guard === undefined) return undefined;
  const allow = buildAllow(raw.guard.allow ?? [], [...where, "guard", "allow"], report, (library, at) => {
    if (library !== raw.name) report(at, RULE.allowOtherLibrary(library, raw.name));
  });
  return { ...(raw.guard.quarantine === undefined ? {} : { quarantine: raw.guard.quarantine }), allow };
}

function buildAllow(raw: RawAllow, where: Where, report: Report, checkLibrary: (library: string, at: Where) => void): GuardRelease[] {
  const out: GuardRelease[] = [];
  for (const [i, entry] of raw.entries()) {
    const at = [...where, i, "file"];
    const parsed = parseSkillUri(entry.file);
    if (parsed === null || parsed.segments.length === 0) {
      report(at, RULE.allowFile);
      continue;
    }
    checkLibrary(parsed.library, at);
    const file = formatSkillUri(parsed.library, parsed.segments);
    out.push({ rule: entry.rule, file, ...(entry.digest === undefined ? {} : { digest: entry.digest }) });
  }
  return out;
}
