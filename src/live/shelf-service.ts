// Owns rebuilds: harvest the config again, and swap the new shelf in only when something visible changed.
import type { Config } from "../config/types.js";
import type { Shelf } from "../model.js";
import { fingerprintShelf } from "../shelf/fingerprint.js";
import { assembleShelf } from "./assemble.js";
import { ShelfHolder } from "./holder.js";

export class ShelfService {
  private fingerprint = "";
  private running: Promise<string[]> | null = null;

  private constructor(
    private readonly config: Config,
    private readonly now: () => Date,
    readonly holder: ShelfHolder,
  ) {}

  static async start(config: Config, now: () => Date): Promise<ShelfService> {
    const shelf = await assembleShelf(config, { generation: 1, built: now().toISOString() });
    const service = new ShelfService(config, now, new ShelfHolder(shelf));
    service.fingerprint = fingerprintShelf(shelf);
    return service;
  }

  get current(): Shelf {
    return this.holder.current;
  }

  /** Rebuild every fetch now; concurrent calls share one rebuild. Answers the fetch keys rebuilt. */
  rebuild(): Promise<string[]> {
    this.running ??= this.rebuildOnce().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async rebuildOnce(): Promise<string[]> {
    const previous = this.holder.current;
    const next = await assembleShelf(this.config, { generation: previous.generation + 1, built: this.now().toISOString() });
    const fingerprint = fingerprintShelf(next);
    if (fingerprint !== this.fingerprint) {
      this.fingerprint = fingerprint;
      this.holder.swap(next);
    }
    return [...next.fetches.keys()];
  }
}
