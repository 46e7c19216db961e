// The policy the skills and prompts of one library are judged by: the library's own guard over the default. Apart
// from the builder of the `guard` keys so that what the public API reaches names no type of the file as written.
import { DEFAULT_GUARD_QUARANTINE } from "./defaults.js";
import type { Config, GuardConfig, ScannerConfig } from "./types.js";

/** The policy the skills and prompts of `library` are judged by: the library's own over the default; absent when
 *  neither is configured (the guard's default policy then applies). */
export function guardPolicyOf(config: Pick<Config, "guard" | "libraries">, library: string): GuardPolicyConfig | undefined {
  const own = config.libraries.find((l) => l.name === library)?.guard;
  if (own === undefined && config.guard === undefined) return undefined;
  const onFailure = config.guard?.scanner?.onFailure;
  return {
    quarantine: own?.quarantine ?? config.guard?.quarantine ?? DEFAULT_GUARD_QUARANTINE,
    allow: [...(config.guard?.allow ?? []), ...(own?.allow ?? [])],
    ...(onFailure === undefined ? {} : { scannerFailure: onFailure }),
  };
}

/** What the shelf judges a library's findings by (the guard's `GuardPolicy`). */
export interface GuardPolicyConfig {
  readonly quarantine: GuardConfig["quarantine"];
  readonly allow: GuardConfig["allow"];
  /** What a `scanner-failed` finding does: the scanner's `onFailure`. */
  readonly scannerFailure?: ScannerConfig["onFailure"];
}
