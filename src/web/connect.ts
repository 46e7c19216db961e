// The client entries of the "connect" panel, for this server's URL and the viewer's scope: the same shapes as
// docs/clients.md, with the URL filled in. A token never appears: a signed-in viewer's entries read it from the
// environment variable SKILLSHELF_TOKEN (or ask for it, in VS Code), and an anonymous viewer's carry no header.

export interface ConnectEntry {
  /** The client's name, as the panel's heading. */
  readonly client: string;
  /** Where the text goes. */
  readonly where: string;
  /** `sh`, `json` or `text`. */
  readonly kind: "sh" | "json" | "text";
  readonly text: string;
}

const SERVER = "skills";

function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

/** Single quotes for a POSIX shell: nothing inside is expanded. */
function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** `url` is the MCP endpoint with the viewer's narrowing already in its query; `token` says whether the viewer
 *  signed in with one (and so whether the entries send it). */
export function connectEntries(url: string, token: boolean): readonly ConnectEntry[] {
  const toolsOnly = new URL(url);
  toolsOnly.searchParams.set("resources", "off");
  toolsOnly.searchParams.set("prompts", "off");
  const bearer = "Bearer ${env:SKILLSHELF_TOKEN}";
  return [
    {
      client: "Claude Code",
      where: token ? "a terminal (the token is read from SKILLSHELF_TOKEN when the command runs)" : "a terminal",
      kind: "sh",
      text:
        `claude mcp add --transport http --scope user ${SERVER} ${shellQuote(url)}` +
        (token ? ` \\\n  --header "Authorization: Bearer $SKILLSHELF_TOKEN"` : ""),
    },
    {
      client: "Claude Desktop",
      where: token
        ? "claude_desktop_config.json (Settings → Developer → Edit Config), through the mcp-remote bridge; put your token after Bearer"
        : "claude_desktop_config.json (Settings → Developer → Edit Config), through the mcp-remote bridge",
      kind: "json",
      text: json({
        mcpServers: {
          [SERVER]: token
            ? {
                command: "npx",
                args: ["-y", "mcp-remote", url, "--header", "Authorization:${AUTH_HEADER}"],
                env: { AUTH_HEADER: "Bearer <your token>" },
              }
            : { command: "npx", args: ["-y", "mcp-remote", url] },
        },
      }),
    },
    {
      client: "VS Code",
      where: token
        ? ".vscode/mcp.json, or the user configuration (MCP: Open User Configuration); VS Code asks for the token once"
        : ".vscode/mcp.json, or the user configuration (MCP: Open User Configuration)",
      kind: "json",
      text: json(
        token
          ? {
              inputs: [{ type: "promptString", id: "skillshelf-token", description: "skillshelf token", password: true }],
              servers: { [SERVER]: { type: "http", url, headers: { Authorization: "Bearer ${input:skillshelf-token}" } } },
            }
          : { servers: { [SERVER]: { type: "http", url } } },
      ),
    },
    {
      client: "Cursor",
      where: token
        ? "~/.cursor/mcp.json (every project) or .cursor/mcp.json (one project); Cursor reads the token from SKILLSHELF_TOKEN"
        : "~/.cursor/mcp.json (every project) or .cursor/mcp.json (one project)",
      kind: "json",
      text: json({ mcpServers: { [SERVER]: token ? { url, headers: { Authorization: bearer } } : { url } } }),
    },
    {
      client: "n8n",
      where: "the MCP Client Tool node (tools only: resources and prompts are offered as tools)",
      kind: "text",
      text: [
        `Endpoint: ${toolsOnly.href}`,
        "Server Transport: HTTP Streamable",
        `Authentication: ${token ? "Bearer Auth, with a credential holding your token" : "None"}`,
        "Tools to Include: All",
      ].join("\n"),
    },
  ];
}

/** The agents the skills installer serves, with its `-a` name: each gets the same command. */
const INSTALL_AGENTS: readonly (readonly [string, string])[] = [
  ["Claude Code", "claude-code"],
  ["Codex", "codex"],
  ["GitHub Copilot", "github-copilot"],
  ["Cursor", "cursor"],
  ["Gemini CLI", "gemini-cli"],
  ["OpenCode", "opencode"],
  ["Goose", "goose"],
];

/** The install entries for `base` (an origin, a library below it, or a personal link): the skills installer's
 *  command per agent, then how to update and remove. The base goes in single quotes: a link holds no quote, but a
 *  shell must never expand anything in it. */
export function installEntries(base: string): readonly ConnectEntry[] {
  const quoted = shellQuote(base);
  return [
    ...INSTALL_AGENTS.map(([client, agent]) => ({
      client,
      where: "a terminal with Node 22 or later (-g: for your user; leave it out to install into the current project)",
      kind: "sh" as const,
      text: `npx skills add ${quoted} -a ${agent} -g -y`,
    })),
    {
      client: "Every agent at once",
      where: "a terminal with Node 22 or later",
      kind: "sh",
      text: `npx skills add ${quoted} ${INSTALL_AGENTS.map(([, agent]) => `-a ${agent}`).join(" ")} -g -y`,
    },
    {
      client: "Update and remove",
      where: "a terminal: check compares every installed skill with this server and update installs what changed",
      kind: "sh",
      text: ["npx skills check", "npx skills update", "npx skills remove <name> -g"].join("\n"),
    },
  ];
}

/** How a viewer's plugin client proves who it is: a personal link carries it in the URL; a token goes to git as a
 *  Basic password (from SKILLSHELF_TOKEN, into git's credential store); anonymous viewers send nothing. */
export type PluginCredential = "link" | "token" | "none";

/** The plugin-marketplace entries for `marketplaceUrl` (the viewer's link, or the server, with `/plugins[/libraries/
 *  <library>]/marketplace.json`), named `marketplace`, listing `plugins`: Claude Code's commands, its managed
 *  settings for an organisation, then Codex and Cursor. */
export function marketplaceEntries(
  marketplaceUrl: string,
  marketplace: string,
  plugins: readonly string[],
  credential: PluginCredential,
): readonly ConnectEntry[] {
  const url = new URL(marketplaceUrl);
  const withToken = credential === "token" ? `${url.protocol}//x-token:$SKILLSHELF_TOKEN@${url.host}${url.pathname}` : marketplaceUrl;
  const origin = `${url.protocol}//${url.host}`;
  const storeToken =
    credential === "token"
      ? [
          "# git reads your token for this server from its credential store (once)",
          "git config --global credential.helper store",
          `printf '%s\\n' "${url.protocol}//x-token:$SKILLSHELF_TOKEN@${url.host}" >> ~/.git-credentials`,
        ]
      : [];
  const added = credential === "token" ? `"${withToken}"` : shellQuote(marketplaceUrl);
  const first = plugins[0] ?? "<plugin>";
  return [
    {
      client: "Claude Code",
      where:
        credential === "token"
          ? "a terminal (the token is read from SKILLSHELF_TOKEN when the commands run)"
          : "a terminal; then /plugin in Claude Code lists the marketplace's plugins",
      kind: "sh",
      text: [
        ...storeToken,
        `claude plugin marketplace add ${added}`,
        ...(plugins.length === 0
          ? [`claude plugin install ${first}@${marketplace}`]
          : plugins.map((name) => `claude plugin install ${name}@${marketplace}`)),
        "# later: new releases",
        `claude plugin marketplace update ${marketplace}`,
        `claude plugin update ${first}@${marketplace}`,
      ].join("\n"),
    },
    {
      client: "Claude Code, for an organisation",
      where:
        "an organisation's managed settings file (managed-settings.json): every user's Claude Code knows the marketplace; it is fetched without a token, so a token holder also adds it as above",
      kind: "json",
      text: json({
        extraKnownMarketplaces: {
          [marketplace]: { source: { source: "url", url: credential === "token" ? `${origin}${url.pathname}` : marketplaceUrl } },
        },
        enabledPlugins: Object.fromEntries(plugins.map((name) => [`${name}@${marketplace}`, true])),
      }),
    },
    {
      client: "Codex and Cursor",
      where: "a client that reads Claude Code's marketplace format: the marketplace's URL and the plugins in it",
      kind: "text",
      text: [
        `Marketplace: ${credential === "token" ? `${origin}${url.pathname}` : marketplaceUrl}`,
        `Plugins: ${plugins.join(", ") || "(none you can see)"}`,
      ].join("\n"),
    },
  ];
}
