// The four status words, defined once: `check` prints one and exits by it, `/health` answers one and sets its HTTP
// status by it, the page and the logs use the same words.
//
//   ok        everything the config names is served, current and watched; nothing skipped, conflicting or dangling.
//   warnings  everything was fetched and is watched, but some content was left out or points nowhere: a skill or
//             prompt skipped (and why), a plugin dropped from a library by a conflict, a citation not found, a
//             skill or prompt quarantined by a guard finding, or no skill served at all.
//   degraded  part of the shelf is not current: a fetch failed or serves a stale copy, a root cannot be watched, a
//             live WebDAV fetch is cooling (its share failed a read), a plugin or a library failed. The rest is served.
//   failed    the config names plugins and every one of them failed: nothing it names is served.

export type HealthStatus = "ok" | "warnings" | "degraded" | "failed";

export const HEALTH_STATUSES: readonly HealthStatus[] = ["ok", "warnings", "degraded", "failed"];

/** What a report found, counted: the status is decided from these and nothing else. */
export interface ProblemCounts {
  readonly skipped: number;
  readonly conflicts: number;
  readonly dangling: number;
  readonly failedPlugins: number;
  readonly plugins: number;
  readonly failedLibraries: number;
  readonly staleFetches: number;
  readonly failedFetches: number;
  readonly unwatched: number;
  /** Live WebDAV fetches whose share failed a revalidation: reads come from the export for a while. */
  readonly cooling: number;
  /** Skills and prompts a guard finding quarantined. */
  readonly quarantined: number;
  /** Skills served: a shelf that would serve none is never ok. */
  readonly served: number;
}

export function statusOf(counts: ProblemCounts): HealthStatus {
  if (counts.plugins > 0 && counts.failedPlugins === counts.plugins) return "failed";
  if (counts.failedPlugins + counts.failedLibraries + counts.staleFetches + counts.failedFetches + counts.unwatched + counts.cooling > 0)
    return "degraded";
  if (counts.skipped + counts.conflicts + counts.dangling + counts.quarantined > 0 || counts.served === 0) return "warnings";
  return "ok";
}

/** The HTTP status of GET /health: 200 while anything the config names is served (a monitor reads the word in
 *  the body), 503 when nothing is. Readiness is /readyz's business, not this. */
export function httpStatusOf(status: HealthStatus): number {
  return status === "failed" ? 503 : 200;
}

/** `1 skipped, 2 dangling`: the counts behind a status other than ok, for the check summary. */
export function formatProblemCounts(counts: ProblemCounts): string {
  const parts: [number, string, string][] = [
    [counts.failedPlugins, "plugin failed", "plugins failed"],
    [counts.failedLibraries, "library failed", "libraries failed"],
    [counts.failedFetches, "fetch failed", "fetches failed"],
    [counts.staleFetches, "fetch stale", "fetches stale"],
    [counts.unwatched, "root unwatched", "roots unwatched"],
    [counts.cooling, "fetch cooling", "fetches cooling"],
    [counts.skipped, "skipped", "skipped"],
    [counts.conflicts, "conflict", "conflicts"],
    [counts.dangling, "dangling", "dangling"],
    [counts.quarantined, "quarantined", "quarantined"],
  ];
  const counted = parts.filter(([count]) => count > 0).map(([count, one, many]) => `${count} ${count === 1 ? one : many}`);
  // Said only where it adds something: a failed status already means nothing is served.
  const empty = counts.served === 0 && statusOf(counts) !== "failed" ? ["no skill served"] : [];
  return [...counted, ...empty].join(", ");
}
