// What the log says about the shelf itself: one line when the first shelf is served, each of its problems once,
// then only what changes (a skill skipped or back, a conflict, a dangling citation, a plugin failed or recovered),
// and one line per rebuild with its counts and duration.
import type { Logger } from "../log/index.js";
import { buildHealthInSteps, type HealthReport, healthChanges } from "../health/index.js";
import type { Shelf } from "../shelf/index.js";
import type { ShelfHolder } from "./holder.js";

export class ShelfLog {
  private report: HealthReport | undefined;
  /** The log's work in order: each swapped-in shelf's report, then the rebuild line that counts it. */
  private queue: Promise<void> = Promise.resolve();

  /** `idle`: resolves once no rebuild is queued or running; the report waits for it before each of its parts, so a
   *  change that comes in while a report is being worked out is published first (the report only feeds the log). */
  constructor(
    private readonly log: Logger,
    private readonly current: () => Shelf,
    private readonly idle: () => Promise<void> = () => Promise.resolve(),
  ) {}

  /** For ShelfServiceOptions.onRebuilt: `shelf rebuilt` at info when a new shelf was swapped in, else at debug;
   *  logged once the problems of the shelves swapped in before it are (the line counts them). */
  readonly rebuilt = (seconds: number, swapped: boolean): void => {
    const generation = this.current().generation;
    this.then(() => {
      const report = this.report;
      const counts = report === undefined ? {} : { skills: report.skills, prompts: report.prompts, status: report.status };
      this.log.log(swapped ? "info" : "debug", swapped ? "shelf rebuilt" : "rebuild changed nothing", {
        generation,
        ...counts,
        seconds: Math.round(seconds * 1000) / 1000,
      });
    });
  };

  /** Say the first shelf is built, then log its problems once it is served and every change of them after each
   *  swap. A report is computed a part at a time between turns of the event loop (`buildHealthInSteps`), after the
   *  swap's other listeners (the clients' change notifications): at 100,000 skills it is seconds of work, which
   *  would otherwise hold up the first requests and every notification. */
  follow(holder: ShelfHolder): void {
    const shelf = holder.current;
    // Counted here, not through buildHealth: that would run the citation audit before the first request.
    const skills = [...shelf.libraries.values()].reduce((sum, library) => sum + library.skills.size, 0);
    this.log.log("info", "shelf built", { generation: shelf.generation, libraries: shelf.libraries.size, skills });
    this.later(shelf);
    holder.onSwap((next) => this.later(next));
  }

  /** Resolves once everything asked of the log so far is logged. */
  settled(): Promise<void> {
    return this.queue;
  }

  private later(shelf: Shelf): void {
    this.then(async () => {
      const next = await buildHealthInSteps(shelf, async () => {
        await nextTurn();
        await this.idle();
      });
      for (const change of healthChanges(this.report, next)) this.log.log(change.level, change.message, change.fields);
      this.report = next;
    });
  }

  private then(step: () => void | Promise<void>): void {
    this.queue = this.queue.then(step).catch((error: unknown) => {
      this.log.log("error", "health report failed", { error: error instanceof Error ? error.message : String(error) });
    });
  }
}

/** A turn of the event loop: requests that arrived meanwhile are read and answered first. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
