// The CLI's commands, flags and exit codes as data: cli.ts parses argv with these tables, and every help text is
// printed from them (cli/help.ts), so a flag cannot exist without its meaning, default and environment variable.

export interface FlagSpec {
  readonly name: string;
  /** What the value looks like (`FILE`, `N`); a flag without one is a switch. */
  readonly value?: string;
  readonly multiple?: boolean;
  readonly short?: string;
  /** The environment variable that stands for the flag when it is not given (lists: comma-separated). */
  readonly env?: string;
  /** The default, as the reader should see it. */
  readonly default?: string;
  readonly help: string;
}

export interface CommandSpec {
  readonly name: string;
  readonly summary: string;
  readonly synopsis: readonly string[];
  readonly description: string;
  readonly flags: readonly FlagSpec[];
}

const HELP_FLAG: FlagSpec = { name: "help", short: "h", help: "Print this help on stdout and exit 0." };

const CONFIG_FLAG: FlagSpec = {
  name: "config",
  value: "FILE",
  env: "SKILLSHELF_CONFIG",
  help: "The config file (YAML or JSON; `skillshelf schema` prints its schema). Give it or skill directories, not both.",
};

const NAMING_FLAG: FlagSpec = {
  name: "naming",
  value: "lenient|strict",
  env: "SKILLSHELF_NAMING",
  default: "lenient",
  help: "For skill directories given without a config: lenient serves a skill whose frontmatter name breaks the naming rule or differs from its folder, with a warning; strict skips it. A config file sets naming per plugin and library.",
};

const CACHE_DIR_FLAG: FlagSpec = {
  name: "cache-dir",
  value: "DIR",
  env: "SKILLSHELF_CACHE_DIR",
  default: "$XDG_CACHE_HOME/skillshelf, else ~/.cache/skillshelf",
  help: "Where git sources are cloned and the harvest record is kept. A default that cannot be written is one warning, and the server runs without a record; a --cache-dir that cannot be written is refused.",
};

const SERVE: CommandSpec = {
  name: "serve",
  summary: "serve the shelf to MCP clients over Streamable HTTP or stdio",
  synopsis: ["skillshelf serve --config FILE [options]", "skillshelf serve [options] DIR…"],
  description:
    "Harvests every plugin of the config file (or the skill directories given), serves the shelf, and follows every change on disk. Logs go to stderr.",
  flags: [
    CONFIG_FLAG,
    NAMING_FLAG,
    { name: "transport", value: "http|stdio", env: "SKILLSHELF_TRANSPORT", default: "http", help: "How clients connect." },
    {
      name: "host",
      value: "ADDRESS",
      env: "SKILLSHELF_HOST",
      default: "127.0.0.1",
      help: "The address to listen on (HTTP): an IP address or a name of this machine.",
    },
    {
      name: "port",
      value: "N",
      env: "SKILLSHELF_PORT",
      default: "8000",
      help: "The TCP port to listen on (HTTP), 0 to 65535; 0 picks a free port, which the startup line names.",
    },
    {
      name: "allowed-hosts",
      value: "NAME",
      multiple: true,
      env: "SKILLSHELF_ALLOWED_HOSTS",
      help: "A Host header name to accept (repeatable): the name clients use to reach the server, without scheme or port. Bound to a loopback address, localhost names are always accepted.",
    },
    {
      name: "allow-any-host",
      env: "SKILLSHELF_ALLOW_ANY_HOST",
      default: "false",
      help: "Accept any Host header on a non-loopback --host (behind a proxy that checks it). Without this or --allowed-hosts, such a --host is refused.",
    },
    {
      name: "allowed-origins",
      value: "ORIGIN",
      multiple: true,
      env: "SKILLSHELF_ALLOWED_ORIGINS",
      help: "An Origin a browser may send (repeatable), e.g. https://tools.example. A request without an Origin header passes; a POST from any other Origin is refused, whatever the --host.",
    },
    CACHE_DIR_FLAG,
    {
      name: "library",
      value: "NAME",
      help: "Over stdio: serve only this library (a ceiling no request can widen).",
    },
    {
      name: "categories",
      value: "C",
      multiple: true,
      help: "Over stdio: serve only plugins of these categories (repeatable).",
    },
    {
      name: "tags",
      value: "T",
      multiple: true,
      help: "Over stdio: serve only plugins with these tags (repeatable; a,b means both).",
    },
    {
      name: "log-level",
      value: "debug|info|warn|error",
      env: "SKILLSHELF_LOG_LEVEL",
      default: "info",
      help: "The least severe log line written.",
    },
    {
      name: "log-format",
      value: "text|json",
      env: "SKILLSHELF_LOG_FORMAT",
      default: "text",
      help: "text: one readable line per event; json: one JSON object per line.",
    },
    {
      name: "drain-seconds",
      value: "S",
      env: "SKILLSHELF_DRAIN_SECONDS",
      default: "5",
      help: "On SIGTERM, how long /readyz answers 503 while requests are still served, before the listener closes (HTTP; 0 to 3600).",
    },
    {
      name: "stateless",
      env: "SKILLSHELF_STATELESS",
      default: "false",
      help: "Serve 2025-era HTTP clients without sessions: no Mcp-Session-Id, GET and DELETE /mcp answer 405, and such clients hear of no change. 2026-07-28 clients are stateless either way.",
    },
    {
      name: "max-sessions",
      value: "N",
      env: "SKILLSHELF_MAX_SESSIONS",
      default: "1000",
      help: "The most 2025-era HTTP sessions open at once (1 to 1000000). One credential (one address, for anonymous callers) holds at most a tenth, and a twentieth is kept for admins. One more initialize closes the session idle longest (the caller's own, when it holds its share); when every candidate has a request or stream open, it is refused with 503.",
    },
    {
      name: "session-idle-seconds",
      value: "S",
      env: "SKILLSHELF_SESSION_IDLE_SECONDS",
      default: "900",
      help: "A 2025-era HTTP session with no request and no stream open for this long is closed; its next request answers 404 and the client initializes again (0.1 to 86400).",
    },
    HELP_FLAG,
  ],
};

const CHECK: CommandSpec = {
  name: "check",
  summary: "harvest once and report what a server would serve and what it would skip",
  synopsis: ["skillshelf check --config FILE [options]", "skillshelf check [options] DIR…"],
  description:
    "Harvests every plugin once (git sources included), prints a summary on stdout, and exits 0 when the status is ok, 1 otherwise.",
  flags: [
    CONFIG_FLAG,
    NAMING_FLAG,
    { name: "json", help: "Print the full report as JSON (the body of GET /health) instead of the summary." },
    {
      name: "sarif",
      value: "FILE",
      help: "Also write the guard's findings to FILE as SARIF 2.1.0, located at paths relative to the current directory, for a CI's code scanning.",
    },
    CACHE_DIR_FLAG,
    HELP_FLAG,
  ],
};

const LINK: CommandSpec = {
  name: "link",
  summary: "print a personal install link for a configured client",
  synopsis: ["skillshelf link --config FILE --client NAME --url URL"],
  description:
    "Signs an install link (the config's feeds key; its secret is read from the environment) for client NAME: URL/feeds/<token>, under which installers that send no token get the discovery index of that client's scope, as the config states it when the link is used. Prints the link, its id (to revoke it alone, list the id under feeds.revoked) and when it expires. Nothing is harvested.",
  flags: [
    CONFIG_FLAG,
    { name: "client", value: "NAME", help: "The client whose scope the link carries." },
    { name: "url", value: "URL", help: "This server's public URL, as people reach it (https://skills.example.com)." },
    HELP_FLAG,
  ],
};

const SCHEMA: CommandSpec = {
  name: "schema",
  summary: "print the JSON Schema of the config file",
  synopsis: ["skillshelf schema"],
  description: "Prints the JSON Schema (draft 2020-12) that config files are checked against, for an editor or a CI step.",
  flags: [HELP_FLAG],
};

const HELP: CommandSpec = {
  name: "help",
  summary: "print the help of skillshelf or of one command",
  synopsis: ["skillshelf help [COMMAND]"],
  description: "Prints the help of COMMAND (serve, check, link, schema, help), or the overview without one.",
  flags: [HELP_FLAG],
};

export const COMMANDS: readonly CommandSpec[] = [SERVE, CHECK, LINK, SCHEMA, HELP];

export function commandNamed(name: string): CommandSpec | undefined {
  return COMMANDS.find((command) => command.name === name);
}

export const EXIT_CODES = {
  ok: 0,
  problems: 1,
  usage: 2,
  credential: 3,
  listen: 4,
  internal: 70,
} as const;

/** parseArgs' option table for a command. */
export function parseOptionsOf(command: CommandSpec): Record<string, { type: "string" | "boolean"; multiple?: boolean; short?: string }> {
  return Object.fromEntries(
    command.flags.map((flag) => [
      flag.name,
      {
        type: flag.value === undefined ? "boolean" : "string",
        ...(flag.multiple ? { multiple: true } : {}),
        ...(flag.short === undefined ? {} : { short: flag.short }),
      },
    ]),
  );
}
