// What the operator told the CLI, from flags and the environment, read and checked before anything is harvested.
// Pure: the environment and the home directory are given (cli.ts passes the process's).
import { LOG_LEVELS, type LogFormat, type LogLevel } from "./log/index.js";
import { defaultCacheDir } from "./sources/index.js";
import type { CommandSpec } from "./usage.js";

/** The environment variables settings are read from. */
export type Env = Readonly<Record<string, string | undefined>>;

/** A bad command, flag, environment value or config: every problem found, one per line. */
export class UsageError extends Error {
  constructor(
    readonly problems: readonly string[],
    readonly command?: CommandSpec,
  ) {
    super(problems.join("\n"));
  }
}

export type Values = Record<string, string | boolean | string[] | undefined>;

/** What the operator set: the flag, else its environment variable (empty counts as unset). */
export function setting(command: CommandSpec, values: Values, name: string, env: Env): string | undefined {
  const flag = values[name];
  if (typeof flag === "string") return flag;
  const variable = command.flags.find((spec) => spec.name === name)?.env;
  const fromEnv = variable === undefined ? undefined : env[variable];
  return fromEnv === undefined || fromEnv === "" ? undefined : fromEnv;
}

/** A repeatable flag, else its environment variable as a comma-separated list. */
export function listSetting(command: CommandSpec, values: Values, name: string, env: Env): string[] {
  const flag = values[name];
  if (Array.isArray(flag)) return flag;
  const variable = command.flags.find((spec) => spec.name === name)?.env;
  const fromEnv = variable === undefined ? undefined : env[variable];
  return (fromEnv ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "");
}

/** Where a bad value came from, as the operator wrote it: `--port`, or `SKILLSHELF_PORT` when no flag was given. */
export function sourceOf(command: CommandSpec, values: Values, name: string): string {
  const env = command.flags.find((spec) => spec.name === name)?.env;
  return values[name] !== undefined || env === undefined ? `--${name}` : env;
}

/** Everything `serve` is told by flags and the environment, each value checked before anything is harvested. */
export interface ServeSettings {
  readonly transport: "http" | "stdio";
  readonly host: string;
  readonly port: number;
  readonly drainMs: number;
  readonly logLevel: LogLevel;
  readonly logFormat: LogFormat;
  readonly allowedHosts: readonly string[];
  readonly allowedOrigins: readonly string[];
  readonly allowAnyHost: boolean;
  readonly cacheDir: string;
  /** 2025-era HTTP sessions; absent with --stateless (or over stdio). */
  readonly sessions?: { readonly max: number; readonly idleMs: number };
}

/** Reads and checks every setting of `serve`; a UsageError names every bad one at once. */
export function readServeSettings(command: CommandSpec, values: Values, env: Env, home: string): ServeSettings {
  const problems: string[] = [];
  const pick = <T extends string>(name: string, fallback: T, allowed: readonly T[]): T => {
    const raw = setting(command, values, name, env) ?? fallback;
    if ((allowed as readonly string[]).includes(raw)) return raw as T;
    problems.push(`${sourceOf(command, values, name)} must be one of ${allowed.join(", ")} (got '${raw}')`);
    return fallback;
  };
  const transport = pick("transport", "http", ["http", "stdio"] as const);
  const logLevel = pick<LogLevel>("log-level", "info", LOG_LEVELS);
  const logFormat = pick<LogFormat>("log-format", "text", ["text", "json"]);
  const rawPort = setting(command, values, "port", env) ?? "8000";
  const port = Number(rawPort);
  if (!/^\d+$/.test(rawPort) || port > 65535) {
    problems.push(`${sourceOf(command, values, "port")} must be a number from 0 to 65535 (got '${rawPort}')`);
  }
  const rawDrain = setting(command, values, "drain-seconds", env) ?? "5";
  const drain = Number(rawDrain);
  if (!/^\d+(\.\d+)?$/.test(rawDrain) || drain > 3600) {
    problems.push(`${sourceOf(command, values, "drain-seconds")} must be a number of seconds from 0 to 3600 (got '${rawDrain}')`);
  }
  const host = setting(command, values, "host", env) ?? "127.0.0.1";
  if (host.trim() === "" || /[/\s]/.test(host)) {
    problems.push(`${sourceOf(command, values, "host")} must be an address or a host name, without scheme or path (got '${host}')`);
  }
  const allowedHosts = listSetting(command, values, "allowed-hosts", env);
  for (const name of allowedHosts) {
    // The Host check compares names without the port: `tools.example:8443` or `https://…` would never match.
    if (!/^(\[[0-9a-f:.]+\]|[^\s/:[\]]+)$/i.test(name)) {
      problems.push(
        `${sourceOf(command, values, "allowed-hosts")} takes a host name without scheme or port, e.g. tools.example (got '${name}')`,
      );
    }
  }
  const allowedOrigins = listSetting(command, values, "allowed-origins", env);
  const anyHost = values["allow-any-host"] === true ? "true" : (setting(command, values, "allow-any-host", env) ?? "false");
  if (!["true", "false", "1", "0"].includes(anyHost)) {
    problems.push(`SKILLSHELF_ALLOW_ANY_HOST must be true or false (got '${anyHost}')`);
  }
  const allowAnyHost = anyHost === "true" || anyHost === "1";
  const sessions = readSessions(command, values, env, problems);
  if (transport === "stdio") {
    const httpOnly = ["host", "port", "allowed-hosts", "allowed-origins", "allow-any-host", "drain-seconds"];
    for (const name of [...httpOnly, "stateless", "max-sessions", "session-idle-seconds"]) {
      if (values[name] !== undefined) problems.push(`--${name} applies to --transport http only`);
    }
  } else {
    for (const name of ["library", "categories", "tags"]) {
      if (values[name] !== undefined)
        problems.push(`--${name} applies to --transport stdio only; over HTTP a client's scope is its ceiling`);
    }
  }
  const cacheDir = setting(command, values, "cache-dir", env) ?? defaultCacheDir(env, home);
  if (problems.length > 0) throw new UsageError(problems, command);
  return {
    transport,
    host,
    port,
    drainMs: drain * 1000,
    logLevel,
    logFormat,
    allowedHosts,
    allowedOrigins,
    allowAnyHost,
    cacheDir,
    ...(transport === "http" && sessions !== undefined ? { sessions } : {}),
  };
}

/** --stateless, or the bounds of 2025-era sessions: --max-sessions and --session-idle-seconds. */
function readSessions(command: CommandSpec, values: Values, env: Env, problems: string[]): ServeSettings["sessions"] {
  const raw = values["stateless"] === true ? "true" : (setting(command, values, "stateless", env) ?? "false");
  if (!["true", "false", "1", "0"].includes(raw)) problems.push(`SKILLSHELF_STATELESS must be true or false (got '${raw}')`);
  const stateless = raw === "true" || raw === "1";
  const rawMax = setting(command, values, "max-sessions", env);
  const rawIdle = setting(command, values, "session-idle-seconds", env);
  if (stateless) {
    // Only flags: an environment that sets every variable for every deployment stays valid.
    for (const name of ["max-sessions", "session-idle-seconds"]) {
      if (values[name] !== undefined) problems.push(`--${name} bounds sessions, which --stateless turns off`);
    }
    return undefined;
  }
  const max = Number(rawMax ?? "1000");
  if (!/^\d+$/.test(rawMax ?? "1000") || max < 1 || max > 1_000_000) {
    problems.push(
      `${sourceOf(command, values, "max-sessions")} must be a whole number from 1 to 1000000 (got '${rawMax}'); --stateless turns sessions off`,
    );
  }
  const idle = Number(rawIdle ?? "900");
  if (!/^\d+(\.\d+)?$/.test(rawIdle ?? "900") || idle < 0.1 || idle > 86400) {
    problems.push(`${sourceOf(command, values, "session-idle-seconds")} must be a number of seconds from 0.1 to 86400 (got '${rawIdle}')`);
  }
  return { max, idleMs: Math.round(idle * 1000) };
}
