// The logger: one line per state change, as text or JSON, to a sink the CLI owns. Pure: the sink and the clock are
// given to it.
export { LOG_LEVELS, createLogger, type LogFormat, type LogLevel, type Logger } from "./logger.js";
