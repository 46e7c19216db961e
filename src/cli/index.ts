// The commands' wiring, one file each, loaded on demand: the entry point imports this table, not the commands, so a
// command pays only for its own modules.
import type { Values } from "../settings.js";
import type { CommandSpec } from "../usage.js";

export type Run = (command: CommandSpec, values: Values, positionals: readonly string[]) => Promise<number>;

export const COMMANDS: Readonly<Record<"check" | "link" | "serve", () => Promise<Run>>> = {
  check: async () => (await import("./check.js")).runCheck,
  link: async () => (await import("./link.js")).runLink,
  serve: async () => (await import("./serve.js")).runServe,
};

export { formatCommandHelp, formatOverview, formatUsageHint } from "./help.js";
