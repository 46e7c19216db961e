// A path that was not served and why: the one row shape harvest, prompts, the shelf and /health report.
export interface SkipRow {
  /** Relative to the plugin root; a skipped skill's path is its directory, a skipped file's path is the file. */
  readonly path: string;
  readonly reason: string;
}
