// The connect panel's entries: exact text for this server's URL and the viewer's scope, never a token.
import { describe, expect, it } from "vitest";
import { connectEntries, marketplaceEntries } from "../../src/web/connect.js";

const URL_ = "https://skills.example/mcp?library=engineering";

function entry(token: boolean, client: string): string {
  const found = connectEntries(URL_, token).find((e) => e.client === client);
  if (found === undefined) throw new Error(`no entry for ${client}`);
  return found.text;
}

describe("connect entries", () => {
  it("names the five clients in order", () => {
    expect(connectEntries(URL_, true).map((e) => [e.client, e.kind])).toEqual([
      ["Claude Code", "sh"],
      ["Claude Desktop", "json"],
      ["VS Code", "json"],
      ["Cursor", "json"],
      ["n8n", "text"],
    ]);
  });

  it("sends a signed-in viewer's token from the environment or a prompt, never its value", () => {
    expect(entry(true, "Claude Code")).toBe(
      `claude mcp add --transport http --scope user skills '${URL_}' \\\n  --header "Authorization: Bearer $SKILLSHELF_TOKEN"`,
    );
    expect(JSON.parse(entry(true, "Claude Desktop"))).toEqual({
      mcpServers: {
        skills: {
          command: "npx",
          args: ["-y", "mcp-remote", URL_, "--header", "Authorization:${AUTH_HEADER}"],
          env: { AUTH_HEADER: "Bearer <your token>" },
        },
      },
    });
    expect(JSON.parse(entry(true, "VS Code"))).toEqual({
      inputs: [{ type: "promptString", id: "skillshelf-token", description: "skillshelf token", password: true }],
      servers: { skills: { type: "http", url: URL_, headers: { Authorization: "Bearer ${input:skillshelf-token}" } } },
    });
    expect(JSON.parse(entry(true, "Cursor"))).toEqual({
      mcpServers: { skills: { url: URL_, headers: { Authorization: "Bearer ${env:SKILLSHELF_TOKEN}" } } },
    });
    expect(entry(true, "n8n")).toBe(
      [
        "Endpoint: https://skills.example/mcp?library=engineering&resources=off&prompts=off",
        "Server Transport: HTTP Streamable",
        "Authentication: Bearer Auth, with a credential holding your token",
        "Tools to Include: All",
      ].join("\n"),
    );
  });

  it("sends no header for an anonymous viewer", () => {
    expect(entry(false, "Claude Code")).toBe(`claude mcp add --transport http --scope user skills '${URL_}'`);
    expect(JSON.parse(entry(false, "Claude Desktop"))).toEqual({
      mcpServers: { skills: { command: "npx", args: ["-y", "mcp-remote", URL_] } },
    });
    expect(JSON.parse(entry(false, "VS Code"))).toEqual({ servers: { skills: { type: "http", url: URL_ } } });
    expect(JSON.parse(entry(false, "Cursor"))).toEqual({ mcpServers: { skills: { url: URL_ } } });
    expect(entry(false, "n8n")).toContain("Authentication: None");
  });

  it("quotes a URL for the shell so nothing in it expands", () => {
    expect(connectEntries("http://h/mcp?a='b'&c=$HOME", false)[0]?.text).toBe(
      `claude mcp add --transport http --scope user skills 'http://h/mcp?a='\\''b'\\''&c=$HOME'`,
    );
  });
});

describe("plugin marketplace entries", () => {
  const MARKET = "https://skills.example/plugins/marketplace.json";

  it("gives a token holder's commands with the token read from the environment and stored for git, never its value", () => {
    const [claude, managed, others] = marketplaceEntries(MARKET, "skillshelf", ["kit", "ops"], "token");
    expect(claude!.text).toBe(
      [
        "# git reads your token for this server from its credential store (once)",
        "git config --global credential.helper store",
        `printf '%s\\n' "https://x-token:$SKILLSHELF_TOKEN@skills.example" >> ~/.git-credentials`,
        `claude plugin marketplace add "https://x-token:$SKILLSHELF_TOKEN@skills.example/plugins/marketplace.json"`,
        "claude plugin install kit@skillshelf",
        "claude plugin install ops@skillshelf",
        "# later: new releases",
        "claude plugin marketplace update skillshelf",
        "claude plugin update kit@skillshelf",
      ].join("\n"),
    );
    expect(JSON.parse(managed!.text)).toEqual({
      extraKnownMarketplaces: { skillshelf: { source: { source: "url", url: MARKET } } },
      enabledPlugins: { "kit@skillshelf": true, "ops@skillshelf": true },
    });
    expect(others!.text).toBe(`Marketplace: ${MARKET}\nPlugins: kit, ops`);
  });

  it("gives a personal link as it is: it carries the credential", () => {
    const link = "https://skills.example/feeds/abc/plugins/libraries/ops/marketplace.json";
    const [claude, managed] = marketplaceEntries(link, "skillshelf-ops", ["ops"], "link");
    expect(claude!.text.split("\n").slice(0, 2)).toEqual([
      `claude plugin marketplace add '${link}'`,
      "claude plugin install ops@skillshelf-ops",
    ]);
    expect(JSON.parse(managed!.text).extraKnownMarketplaces).toEqual({ "skillshelf-ops": { source: { source: "url", url: link } } });
  });
});
