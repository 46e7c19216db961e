// What the log says about the shelf itself: one line when the first shelf is served, each of its problems once,
// then only what changes (a skill skipped or back, a conflict, a dangling citation, a plugin failed or recovered),
// and one line per rebuild with its counts and duration.
import type { Logger } from "../log/index.js";
import { buildHealth, type HealthReport, healthChanges } from "../health/index.js";
import type { Shelf } from "../shelf/index.js";
import type { ShelfHolder } from "./holder.js";

export class ShelfLog {
  private report: HealthReport | undefined;
  /** Shelves swapped in whose problems are not logged yet, oldest first. */
  private readonly pending: Shelf[] = [];

  constructor(
    private readonly log: Logger,
    private readonly current: () => Shelf,
  ) {}

  /** For ShelfServiceOptions.onRebuilt: `shelf rebuilt` at info when a new shelf was swapped in, else at debug. */
  readonly rebuilt = (seconds: number, swapped: boolean): void => {
    // The swapped shelf's problems come first: the rebuilt line counts them.
    this.flush();
    const report = this.report;
    const counts = report === undefined ? {} : { skills: report.skills, prompts: report.prompts, status: report.status };
    this.log.log(swapped ? "info" : "debug", swapped ? "shelf rebuilt" : "rebuild changed nothing", {
      generation: this.current().generation,
      ...counts,
      seconds: Math.round(seconds * 1000) / 1000,
    });
  };

  /** Say the first shelf is built, then log its problems once it is served (the citation audit waits until then)
   *  and every change of them after each swap. A swapped shelf's report waits for the swap's other listeners (the
   *  clients' change notifications), which it would otherwise hold up: at 100,000 skills it takes seconds. */
  follow(holder: ShelfHolder): void {
    const shelf = holder.current;
    // Counted here, not through buildHealth: that would run the citation audit before the first request.
    const skills = [...shelf.libraries.values()].reduce((sum, library) => sum + library.skills.size, 0);
    this.log.log("info", "shelf built", { generation: shelf.generation, libraries: shelf.libraries.size, skills });
    this.later(shelf);
    holder.onSwap((next) => this.later(next));
  }

  private later(shelf: Shelf): void {
    this.pending.push(shelf);
    setImmediate(() => this.flush());
  }

  /** Log the problems of each shelf waiting for it, in the order they were swapped in. */
  private flush(): void {
    for (let shelf = this.pending.shift(); shelf !== undefined; shelf = this.pending.shift()) {
      const next = buildHealth(shelf);
      for (const change of healthChanges(this.report, next)) this.log.log(change.level, change.message, change.fields);
      this.report = next;
    }
  }
}
