// The server's log as the process writes it: the console of the SDK and libraries routed through the logger.
import { format } from "node:util";
import type { Logger, LogLevel } from "../log/index.js";

/** The SDK and libraries write to the console; their lines go through the logger, in its format, on stderr (over
 *  stdio, stdout belongs to the protocol). */
export function routeConsole(log: Logger): void {
  const to =
    (level: LogLevel) =>
    (...args: unknown[]): void =>
      log.log(level, format(...args));
  console.error = to("error");
  console.warn = to("warn");
  console.log = to("info");
  console.info = to("info");
  console.debug = to("debug");
}

export function logError(log: Logger, error: unknown): void {
  log.log("error", error instanceof Error ? error.message : String(error));
}
