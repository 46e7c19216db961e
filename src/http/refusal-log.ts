// What a client got wrong is logged at `warn`, never `error` (a malformed request from anyone must not page an
// operator), and at a bounded rate: a flood of bad requests writes a few lines and then one count per window.
import type { Logger } from "../log/index.js";

/** Lines written per window before the rest are only counted. */
export const REFUSAL_LINES_PER_WINDOW = 100;
export const REFUSAL_WINDOW_MS = 60_000;

type Fields = Readonly<Record<string, unknown>>;

export class RefusalLog {
  private windowStart = Number.NEGATIVE_INFINITY;
  private written = 0;
  private suppressed = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly log: Logger,
    private readonly perWindow = REFUSAL_LINES_PER_WINDOW,
    private readonly windowMs = REFUSAL_WINDOW_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** One client mistake: a line while the window has room, else counted for the window's summary. */
  warn(message: string, fields: Fields = {}): void {
    const now = this.now();
    if (now - this.windowStart >= this.windowMs) this.startWindow(now);
    if (this.written < this.perWindow) {
      this.written++;
      this.log.log("warn", message, fields);
      return;
    }
    this.suppressed++;
    // The count is written when the window ends, even if no request comes after.
    this.timer ??= setTimeout(() => this.flush(), Math.max(0, this.windowStart + this.windowMs - now));
    this.timer.unref();
  }

  private startWindow(now: number): void {
    this.flush();
    this.windowStart = now;
    this.written = 0;
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.suppressed === 0) return;
    this.log.log("warn", `${this.suppressed} more client requests refused, not logged one by one`, {
      seconds: this.windowMs / 1000,
      logged: this.perWindow,
    });
    this.suppressed = 0;
  }
}

/** Errors the protocol SDK reports for what a client sent (a header, body or method it refuses): the client's
 *  mistake, answered with a 4xx, never the server's. */
const CLIENT_MISTAKES =
  /^(Rejected inbound request|Bad Request|Not Acceptable|Unsupported Media Type|Invalid Request|Conflict|Method not allowed|Session not found|Parse error|Invalid event ID)/;

export function isClientMistake(error: unknown): boolean {
  return error instanceof Error && CLIENT_MISTAKES.test(error.message);
}
