// The session flags of `serve`, read by the pure settings reader: defaults, the environment, --stateless, and
// every bad value named at once.
import { describe, expect, it } from "vitest";
import { readServeSettings, UsageError, type Values } from "../../src/settings.js";
import { commandNamed } from "../../src/usage.js";

const SERVE = commandNamed("serve")!;
const read = (values: Values, env: Record<string, string> = {}) => readServeSettings(SERVE, values, env, "/home/test");
const problemsOf = (values: Values, env: Record<string, string> = {}): readonly string[] => {
  try {
    read(values, env);
  } catch (error) {
    if (error instanceof UsageError) return error.problems;
    throw error;
  }
  throw new Error("expected a usage error");
};

describe("2025-era session settings", () => {
  it("defaults to sessions: 1000 at most, closed after 900 s idle", () => {
    expect(read({}).sessions).toEqual({ max: 1000, idleMs: 900_000 });
  });

  it("takes the flags, and the environment when a flag is not given", () => {
    expect(read({ "max-sessions": "2", "session-idle-seconds": "0.5" }).sessions).toEqual({ max: 2, idleMs: 500 });
    expect(read({}, { SKILLSHELF_MAX_SESSIONS: "50", SKILLSHELF_SESSION_IDLE_SECONDS: "60" }).sessions).toEqual({
      max: 50,
      idleMs: 60_000,
    });
    expect(read({ "max-sessions": "7" }, { SKILLSHELF_MAX_SESSIONS: "50" }).sessions).toEqual({ max: 7, idleMs: 900_000 });
  });

  it("has no sessions with --stateless or SKILLSHELF_STATELESS, nor over stdio", () => {
    expect(read({ stateless: true }).sessions).toBeUndefined();
    expect(read({}, { SKILLSHELF_STATELESS: "1" }).sessions).toBeUndefined();
    // The bounds in the environment stay valid beside a stateless server: only flags contradict it.
    expect(read({}, { SKILLSHELF_STATELESS: "true", SKILLSHELF_MAX_SESSIONS: "5" }).sessions).toBeUndefined();
    expect(read({ transport: "stdio" }).sessions).toBeUndefined();
  });

  it("names every bad value at once", () => {
    expect(problemsOf({ "max-sessions": "0", "session-idle-seconds": "soon" })).toEqual([
      "--max-sessions must be a whole number from 1 to 1000000 (got '0'); --stateless turns sessions off",
      "--session-idle-seconds must be a number of seconds from 0.1 to 86400 (got 'soon')",
    ]);
    expect(problemsOf({}, { SKILLSHELF_MAX_SESSIONS: "1e3", SKILLSHELF_STATELESS: "yes" })).toEqual([
      "SKILLSHELF_STATELESS must be true or false (got 'yes')",
      "SKILLSHELF_MAX_SESSIONS must be a whole number from 1 to 1000000 (got '1e3'); --stateless turns sessions off",
    ]);
    expect(problemsOf({ "session-idle-seconds": "0.05" })).toEqual([
      "--session-idle-seconds must be a number of seconds from 0.1 to 86400 (got '0.05')",
    ]);
  });

  it("refuses bounds beside --stateless, and every session flag over stdio", () => {
    expect(problemsOf({ stateless: true, "max-sessions": "5", "session-idle-seconds": "9" })).toEqual([
      "--max-sessions bounds sessions, which --stateless turns off",
      "--session-idle-seconds bounds sessions, which --stateless turns off",
    ]);
    expect(problemsOf({ transport: "stdio", stateless: true })).toEqual(["--stateless applies to --transport http only"]);
    expect(problemsOf({ transport: "stdio", "max-sessions": "5" })).toEqual(["--max-sessions applies to --transport http only"]);
  });
});
