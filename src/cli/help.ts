// The CLI's help as text: the overview (`skillshelf help`), one command's options (`skillshelf help COMMAND`), the
// reminder after a usage error, and the exit codes, wrapped to 100 columns. Drawn from the commands and flags
// declared in usage.ts, so the help cannot drift from what is parsed.
import { VERSION } from "../address/index.js";
import { type CommandSpec, COMMANDS, EXIT_CODES } from "../usage.js";

const EXIT_CODE_LINES: readonly [number, string][] = [
  [EXIT_CODES.ok, "success; serve: stopped by SIGTERM or SIGINT"],
  [EXIT_CODES.problems, "check: the status is not ok (something skipped, conflicting, dangling or failed)"],
  [EXIT_CODES.usage, "a bad command, flag, environment value or config file, or an unset token variable; nothing was harvested"],
  [EXIT_CODES.credential, "check: a git host refused the credentials of a fetch (serve serves the rest and marks that fetch failed)"],
  [
    EXIT_CODES.listen,
    "serve cannot listen: the port is in use, the host does not resolve or is not this machine's, or the port needs privileges",
  ],
  [EXIT_CODES.internal, "an internal error (a bug): the message names it"],
];

const WIDTH = 100;

/** Wraps `text` to WIDTH columns, every line indented by `indent`. */
function wrap(text: string, indent: string): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    if (line !== "" && indent.length + line.length + 1 + word.length > WIDTH) {
      lines.push(indent + line);
      line = word;
    } else {
      line = line === "" ? word : `${line} ${word}`;
    }
  }
  if (line !== "") lines.push(indent + line);
  return lines;
}

function formatExitCodes(): string[] {
  return [
    "Exit codes:",
    ...EXIT_CODE_LINES.flatMap(([code, meaning]) =>
      wrap(meaning, "      ").map((line, i) => (i === 0 ? `  ${String(code).padEnd(3)} ${line.trimStart()}` : line)),
    ),
  ];
}

export function formatCommandHelp(command: CommandSpec): string {
  const out = [`skillshelf ${command.name}: ${command.summary}`, "", "Usage:", ...command.synopsis.map((line) => `  ${line}`), ""];
  out.push(...wrap(command.description, ""), "", "Options:");
  for (const flag of command.flags) {
    const short = flag.short === undefined ? "" : `-${flag.short}, `;
    out.push(`  ${short}--${flag.name}${flag.value === undefined ? "" : ` ${flag.value}`}`);
    out.push(...wrap(flag.help, "      "));
    const facts = [
      ...(flag.default === undefined ? [] : [`Default: ${flag.default}.`]),
      ...(flag.env === undefined ? [] : [`Environment: ${flag.env}${flag.multiple ? " (comma-separated)" : ""}; the flag wins.`]),
    ];
    if (facts.length > 0) out.push(...wrap(facts.join(" "), "      "));
  }
  out.push("", ...formatExitCodes());
  return `${out.join("\n")}\n`;
}

export function formatOverview(): string {
  const width = Math.max(...COMMANDS.map((command) => command.name.length));
  const out = [
    `skillshelf ${VERSION}: serves Agent Skills and prompts to MCP clients`,
    "",
    "Usage:",
    "  skillshelf COMMAND [options]",
    "  skillshelf help COMMAND     the options of one command",
    "  skillshelf --version        print the version",
    "",
    "Commands:",
    ...COMMANDS.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`),
    "",
    ...formatExitCodes(),
  ];
  return `${out.join("\n")}\n`;
}

/** The short reminder printed on stderr after a usage error. */
export function formatUsageHint(command: CommandSpec | undefined): string {
  if (command === undefined) return "Usage: skillshelf COMMAND [options]; run 'skillshelf help' for the commands.\n";
  return `Usage: ${command.synopsis.join(" | ")}\nRun 'skillshelf help ${command.name}' for every option.\n`;
}
