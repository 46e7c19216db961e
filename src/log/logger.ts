// One line per state change, to a sink the CLI owns (stderr: stdout belongs to the protocol under stdio).
export type LogLevel = "debug" | "info" | "warn" | "error";
export type LogFormat = "text" | "json";
export const LOG_LEVELS: readonly LogLevel[] = ["debug", "info", "warn", "error"];

export interface Logger {
  log(level: LogLevel, message: string, fields?: Readonly<Record<string, unknown>>): void;
}

export function createLogger(write: (line: string) => void, format: LogFormat, threshold: LogLevel, now: () => Date): Logger {
  const min = LOG_LEVELS.indexOf(threshold);
  return {
    log(level, message, fields = {}) {
      if (LOG_LEVELS.indexOf(level) < min) return;
      const time = now().toISOString();
      if (format === "json") {
        write(JSON.stringify({ time, level, msg: message, ...fields }));
      } else {
        const extra = Object.entries(fields).map(([key, value]) => ` ${key}=${typeof value === "string" ? value : JSON.stringify(value)}`);
        write(`${time} ${level} ${message}${extra.join("")}`);
      }
    },
  };
}
