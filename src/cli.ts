#!/usr/bin/env node
// The entry point: argv to a command. With src/cli/ (each command's wiring), the only code that touches argv, the
// environment, signals, stdout/stderr and exit codes. It loads a command's modules only when that command runs, so
// `--version` and `help` answer without loading the server.
import { parseArgs } from "node:util";
import v8 from "node:v8";
import { VERSION } from "./address/index.js";
import { COMMANDS, formatCommandHelp, formatOverview, formatUsageHint } from "./cli/index.js";
import type { Values } from "./settings.js";
import { type CommandSpec, commandNamed, EXIT_CODES, parseOptionsOf } from "./usage.js";

/** `help`, `--help`, `--version`, or a command with its flags. Help goes to stdout, errors to stderr. */
async function main(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === "--version" || name === "-V") {
    process.stdout.write(`skillshelf ${VERSION}\n`);
    return EXIT_CODES.ok;
  }
  if (name === undefined || name === "--help" || name === "-h") {
    (name === undefined ? process.stderr : process.stdout).write(formatOverview());
    return name === undefined ? EXIT_CODES.usage : EXIT_CODES.ok;
  }
  const command = commandNamed(name);
  if (command === undefined) {
    process.stderr.write(`skillshelf: unknown command '${name}'\n${formatUsageHint(undefined)}`);
    return EXIT_CODES.usage;
  }
  let parsed;
  try {
    parsed = parseArgs({ args: [...rest], options: parseOptionsOf(command), allowPositionals: true, strict: true });
  } catch (error) {
    process.stderr.write(`skillshelf ${command.name}: ${(error as Error).message}\n${formatUsageHint(command)}`);
    return EXIT_CODES.usage;
  }
  const values = parsed.values as Values;
  if (values["help"] === true) {
    process.stdout.write(formatCommandHelp(command));
    return EXIT_CODES.ok;
  }
  try {
    switch (command.name) {
      case "help":
        return runHelp(parsed.positionals);
      case "schema": {
        if (parsed.positionals.length > 0) {
          process.stderr.write(`skillshelf schema: unexpected argument '${parsed.positionals[0]}'\n${formatUsageHint(command)}`);
          return EXIT_CODES.usage;
        }
        const { formatSchema } = await import("./config/index.js");
        process.stdout.write(formatSchema());
        return EXIT_CODES.ok;
      }
      default:
        // Each command's modules load when it runs: `--version` and `help` load none of them.
        return await (
          await COMMANDS[command.name as keyof typeof COMMANDS]()
        )(command, values, parsed.positionals);
    }
  } catch (error) {
    return failed(command, error);
  }
}

/** A usage error, a config that does not load, or a port that cannot be listened on: said, with its exit code.
 *  Their classes are loaded only when something failed. */
async function failed(command: CommandSpec, error: unknown): Promise<number> {
  const [{ ConfigInvalidError, formatConfigErrors }, { UsageError }] = await Promise.all([
    import("./config/index.js"),
    import("./settings.js"),
  ]);
  if (error instanceof ConfigInvalidError) {
    process.stderr.write(`${formatConfigErrors(error.errors)}\n`);
    return EXIT_CODES.usage;
  }
  if (error instanceof UsageError) {
    const prefix = `skillshelf ${command.name}: `;
    process.stderr.write(`${error.problems.map((problem) => prefix + problem).join("\n")}\n${formatUsageHint(error.command)}`);
    return EXIT_CODES.usage;
  }
  if (error instanceof Error && error.name === "ListenError") {
    process.stderr.write(`skillshelf: ${error.message}\n`);
    return EXIT_CODES.listen;
  }
  throw error;
}

function runHelp(topics: readonly string[]): number {
  if (topics.length === 0) {
    process.stdout.write(formatOverview());
    return EXIT_CODES.ok;
  }
  const command = topics.length === 1 ? commandNamed(topics[0] as string) : undefined;
  if (command === undefined) {
    process.stderr.write(`skillshelf help: no command '${topics.join(" ")}'\n${formatUsageHint(undefined)}`);
    return EXIT_CODES.usage;
  }
  process.stdout.write(formatCommandHelp(command));
  return EXIT_CODES.ok;
}

/** V8 lets a busy heap grow to up to 4× what is live before collecting it; a server holding a large shelf then peaks
 *  at several times its size. 1.5× keeps the peak near the live size for a few percent of peak throughput
 *  (docs/operations.md). A `--heap-growing-percent` given to node wins. */
const HEAP_GROWING_PERCENT = 50;

if (!process.execArgv.some((arg) => arg.startsWith("--heap-growing-percent") || arg.startsWith("--heap_growing_percent"))) {
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`skillshelf: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(EXIT_CODES.internal);
  },
);
