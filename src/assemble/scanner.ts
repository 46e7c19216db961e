// The external scanner in a build: each skill folder of each harvested plugin is scanned once per content (the
// digests of its served files) and scanner command, so an unchanged skill is never scanned again; the results join
// the plugin's built-in findings, placed at the files they name. A plugin harvest that did not change keeps the very
// same scanned plugin, so the shelf can keep the libraries built from it.
import { createHash } from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { joinPath } from "../address/index.js";
import type { ScannerConfig } from "../config/index.js";
import { type GuardFinding, type ScannerOutput, type ScannerResult, scannerFailedFinding, sortFindings } from "../guard/index.js";
import type { HarvestedFile, HarvestedPlugin, HarvestedSkill } from "../harvest/index.js";
import { BoundedMap, memoizeBy } from "../memo/index.js";
import { Limiter, runScanner } from "./scan-process.js";

/** Successful scans by scanner and folder content, the oldest dropped past `capacity`. A failed scan is not kept:
 *  the next harvest of its plugin (a change in it, a new commit, /reindex) tries again. */
class ScanResults {
  private readonly entries: BoundedMap<string, Promise<ScannerOutput>>;
  /** Scans started (not answered from here). */
  runs = 0;

  constructor(capacity = 20_000) {
    this.entries = new BoundedMap(capacity);
  }

  get(key: string, scan: () => Promise<ScannerOutput>): Promise<ScannerOutput> {
    const known = this.entries.get(key);
    if (known !== undefined) return known;
    this.runs++;
    const pending = scan().then((output) => {
      if (!output.ok) this.entries.delete(key);
      return output;
    });
    this.entries.set(key, pending);
    return pending;
  }
}

/** The process's scan results: by content, so they hold across builds, plugins and libraries. */
export const scanResults = new ScanResults();

interface ScanRun {
  readonly scanner: ScannerConfig;
  readonly limiter: Limiter;
}

/** Each plugin with its skills' scanner findings added (the same object when there are none). */
export async function scanPlugins(plugins: readonly HarvestedPlugin[], scanner: ScannerConfig): Promise<HarvestedPlugin[]> {
  const run = { scanner, limiter: new Limiter(scanner.concurrency) };
  return Promise.all(plugins.map((plugin) => scannedPlugin(plugin, run)));
}

const scannedPlugin = memoizeBy(
  4,
  (run: ScanRun) => JSON.stringify([run.scanner.command, run.scanner.timeoutMs]),
  async (plugin: HarvestedPlugin, run: ScanRun): Promise<HarvestedPlugin> => {
    const found = await Promise.all(plugin.skills.map((skill) => scanSkill(skill, run)));
    // A nested skill's files are in its parent's folder too: a result both scans report is one finding.
    const unique = new Map(found.flat().map((f) => [JSON.stringify([f.rule, f.path, f.line, f.reason]), f]));
    if (unique.size === 0) return plugin;
    return { ...plugin, findings: sortFindings([...(plugin.findings ?? []), ...unique.values()]) };
  },
);

async function scanSkill(skill: HarvestedSkill, run: ScanRun): Promise<GuardFinding[]> {
  const folderAbs = path.dirname(skill.skillMd.abs);
  const digest = folderDigest(skill);
  const key = JSON.stringify([run.scanner.command, run.scanner.timeoutMs, digest]);
  // Kept with each location made relative to the folder: the same content elsewhere (another plugin, another
  // checkout) gets the same results at its own files.
  const output = await scanResults.get(key, async () =>
    relative(await run.limiter.run(() => runScanner(run.scanner, folderAbs)), folderAbs),
  );
  // A failed scan is a finding on SKILL.md for the folder as it is: a release by digest holds until anything in it changes.
  if (!output.ok) return [{ ...scannerFailedFinding(output.reason), path: joinPath(skill.dir, "SKILL.md"), digest }];
  return output.results.map((result) => place(result, skill, digest));
}

/** A location outside the folder (or one that does not parse) is marked so. */
const OUTSIDE = "\0outside";

/** The results with each location as a POSIX path below the folder, or OUTSIDE. */
function relative(output: ScannerOutput, folderAbs: string): ScannerOutput {
  if (!output.ok) return output;
  return {
    ok: true,
    results: output.results.map(({ uri, ...result }) =>
      uri === undefined ? result : { ...result, uri: relativeTo(folderAbs, uri) ?? OUTSIDE },
    ),
  };
}

/** A result at the served file it names (by its path from the plugin root, with that file's digest); a location
 *  outside the folder, or none, is the skill's SKILL.md, and a file that is not served carries the folder's digest. */
function place(result: ScannerResult, skill: HarvestedSkill, digest: string): GuardFinding {
  const { uri: rel, ...finding } = result;
  const skillMd = joinPath(skill.dir, "SKILL.md");
  if (rel === undefined) return { ...finding, path: skillMd, digest: skill.skillMd.digest };
  if (rel === OUTSIDE)
    return {
      ...finding,
      reason: `${finding.reason} (reported outside the skill's folder)`,
      line: 1,
      path: skillMd,
      digest: skill.skillMd.digest,
    };
  const file: HarvestedFile | undefined = rel === "SKILL.md" ? skill.skillMd : skill.files.find((f) => f.path === rel);
  return { ...finding, path: joinPath(skill.dir, rel), digest: file?.digest ?? digest };
}

/** The POSIX path below `folderAbs` that a result's URI names (a `file:` URL, an absolute path, or a path relative
 *  to the folder), or undefined when it lies outside or does not parse. */
function relativeTo(folderAbs: string, uri: string): string | undefined {
  let abs: string;
  try {
    abs = uri.startsWith("file:") ? fileURLToPath(uri) : path.resolve(folderAbs, decodeURIComponent(uri));
  } catch {
    return undefined;
  }
  const rel = path.relative(folderAbs, abs);
  if (rel === "" || rel.startsWith("..") || path.isAbsolute(rel)) return undefined;
  return rel.split(path.sep).join("/");
}

/** What the folder's scan depends on: the digest of each served file under its path. */
function folderDigest(skill: HarvestedSkill): string {
  const hash = createHash("sha256").update(`SKILL.md\0${skill.skillMd.digest}\n`);
  for (const file of [...skill.files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)))
    hash.update(`${file.path}\0${file.digest}\n`);
  return `sha256:${hash.digest("hex")}`;
}
