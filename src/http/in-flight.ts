// Requests in flight, for a drain that waits for them but not for `subscriptions/listen` streams, which never
// finish by themselves and are ended once everything else is done.
import type { ServerResponse } from "node:http";

export class InFlight {
  private active = 0;
  private readonly excluded = new WeakSet<ServerResponse>();
  private waiters: (() => void)[] = [];

  /** Count a request from the moment its headers arrived until its response closes. */
  track(res: ServerResponse): void {
    this.active++;
    res.once("close", () => {
      if (!this.excluded.has(res)) this.settle();
    });
  }

  /** A long-lived stream: stop counting it. */
  exclude(res: ServerResponse): void {
    if (this.excluded.has(res)) return;
    this.excluded.add(res);
    this.settle();
  }

  /** Resolves once no counted request is in flight. */
  drained(): Promise<void> {
    return this.active === 0 ? Promise.resolve() : new Promise((resolve) => this.waiters.push(resolve));
  }

  private settle(): void {
    this.active--;
    if (this.active > 0) return;
    for (const resolve of this.waiters.splice(0)) resolve();
  }
}
