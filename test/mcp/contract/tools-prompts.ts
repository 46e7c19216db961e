// The MCP contract, part 2: tools for tool-only clients and prompts (§6, §7), over every transport and era.
import { expect, it } from "vitest";
import {
  DOCUMENTS,
  FULL_LISTING,
  HINTS,
  LISTING,
  NO_HINT_ADVICE,
  PROMPT_TOOL_NAMES,
  PROMPTS,
  RENDERED,
  RESOURCE_TOOL_NAMES,
  TOOL_ANNOTATIONS,
  exampleFile,
} from "../../support/example-shelf.js";
import { rpcError, toolText } from "../../support/mcp.js";
import type { ContractLeg } from "../../support/contract.js";

const LOGO = "skill://writing/release-notes/assets/logo.png";

export function toolsAndPromptsContract(leg: ContractLeg): void {
  const { era, transport } = leg;

  // The result without its 2026-07-28 `_meta` (serverInfo), which is the era's envelope, not the tool's answer.
  const call = async (name: string, args: Record<string, unknown>): Promise<unknown> => {
    const { _meta: _envelope, ...result } = await leg.client.callTool({ name, arguments: args });
    return result;
  };

  it("lists only search_skills to a client that did not say it lacks resources or prompts", async () => {
    expect(leg.client.getServerCapabilities()?.tools).toBeDefined();
    const tools = (await leg.client.listTools(undefined, { cacheMode: "bypass" })).tools;
    expect(tools.map((tool) => tool.name)).toEqual(["search_skills"]);
    expect(tools[0]).toMatchObject({ annotations: TOOL_ANNOTATIONS, inputSchema: { type: "object", required: ["query"] } });
  });

  it("answers list_resources with the listing rows as JSON, unlisted but callable", async () => {
    expect(JSON.parse(toolText(await call("list_resources", {})))).toEqual(LISTING);
  });

  it.each(Object.entries(DOCUMENTS))("answers read_resource %s with the document's text", async (uri, text) => {
    expect(await call("read_resource", { uri })).toEqual({ content: [{ type: "text", text }] });
  });

  it.each(HINTS)("answers read_resource of the directory $uri with isError and the hint", async ({ uri, message }) => {
    expect(await call("read_resource", { uri })).toEqual({ content: [{ type: "text", text: message }], isError: true });
  });

  it("answers read_resource of an absent address with isError and the advice", async () => {
    const uri = "skill://engineering/nope.md";
    expect(await call("read_resource", { uri })).toEqual({
      content: [{ type: "text", text: `Not found: ${uri}. ${NO_HINT_ADVICE}` }],
      isError: true,
    });
  });

  it("answers read_resource of a binary file with an embedded resource carrying the blob", async () => {
    const result = await call("read_resource", { uri: LOGO });
    expect(result).toEqual({
      content: [
        {
          type: "resource",
          resource: {
            uri: LOGO,
            mimeType: "image/png",
            blob: exampleFile("examples/writing-kit/skills/release-notes/assets/logo.png").toString("base64"),
          },
        },
      ],
    });
  });

  it("answers read_resource with dot segments under the URI as sent", async () => {
    const text = DOCUMENTS["skill://engineering/observability/_index.md"] as string;
    expect(await call("read_resource", { uri: "skill://engineering/code-review/%2e%2e/observability/_index.md" })).toEqual({
      content: [{ type: "text", text }],
    });
  });

  it("answers read_resource without a uri with a tool error, not a protocol error", async () => {
    const result = (await call("read_resource", {})) as { isError?: boolean };
    expect(result.isError).toBe(true);
  });

  it("refuses an unknown tool with -32602, a protocol error (MCP tools: unknown tools are not tool results)", async () => {
    expect((await rpcError(leg.client.callTool({ name: "no_such_tool", arguments: {} }))).code).toBe(-32602);
  });

  it("answers list_prompts with the prompts as JSON", async () => {
    expect(JSON.parse(toolText(await call("list_prompts", {})))).toEqual(PROMPTS);
  });

  it.each(RENDERED)("answers get_prompt $name $args with the rendered text", async ({ name, args, text }) => {
    expect(await call("get_prompt", { name, arguments: args })).toEqual({ content: [{ type: "text", text }] });
  });

  it("answers get_prompt with a missing required argument with a tool error naming it", async () => {
    const result = (await call("get_prompt", { name: "writing_summarize", arguments: {} })) as { isError?: boolean };
    expect(result.isError).toBe(true);
    expect(toolText(result)).toContain("'document'");
  });

  it("lists the example prompts", async () => {
    expect(leg.client.getServerCapabilities()?.prompts).toBeDefined();
    expect((await leg.client.listPrompts(undefined, { cacheMode: "bypass" })).prompts).toEqual(PROMPTS);
  });

  it.each(RENDERED)("renders prompt $name with $args", async ({ name, args, description, text }) => {
    expect(await leg.client.getPrompt({ name, arguments: args })).toMatchObject({
      description,
      messages: [{ role: "user", content: { type: "text", text } }],
    });
  });

  it("refuses a missing required argument with -32602 naming it", async () => {
    const error = await rpcError(leg.client.getPrompt({ name: "writing_summarize", arguments: { audience: "ops" } }));
    expect(error.code).toBe(-32602);
    expect(error.message).toContain("'document'");
  });

  it("refuses an unknown prompt with -32602", async () => {
    expect((await rpcError(leg.client.getPrompt({ name: "writing_nope" }))).code).toBe(-32602);
  });

  if (transport.settings) {
    const toolsSeenWith = async (settings: { query?: Record<string, string>; headers?: Record<string, string> }): Promise<unknown[]> => {
      const other = await transport.connect(era, settings);
      return (await other.listTools(undefined, { cacheMode: "bypass" })).tools;
    };
    const names = (tools: unknown[]): string[] => tools.map((tool) => (tool as { name: string }).name);

    it("lists the resource tools with ?resources=off, annotated read-only, idempotent and closed-world", async () => {
      const tools = await toolsSeenWith({ query: { resources: "off" } });
      expect(names(tools)).toEqual([...RESOURCE_TOOL_NAMES, "search_skills"]);
      for (const tool of tools) expect((tool as { annotations?: unknown }).annotations).toEqual(TOOL_ANNOTATIONS);
      expect(tools[1]).toMatchObject({
        name: "read_resource",
        inputSchema: { type: "object", required: ["uri"], properties: { uri: { type: "string" } } },
      });
    });

    it("lists the resource tools with X-MCP-Resources: off", async () => {
      expect(names(await toolsSeenWith({ headers: { "X-MCP-Resources": "off" } }))).toEqual([...RESOURCE_TOOL_NAMES, "search_skills"]);
    });

    it("lists the prompt tools with ?prompts=off and X-MCP-Prompts: off", async () => {
      const tools = await toolsSeenWith({ query: { prompts: "off" } });
      expect(names(tools)).toEqual([...PROMPT_TOOL_NAMES, "search_skills"]);
      for (const tool of tools) expect((tool as { annotations?: unknown }).annotations).toEqual(TOOL_ANNOTATIONS);
      expect(names(await toolsSeenWith({ headers: { "X-MCP-Prompts": "off" } }))).toEqual([...PROMPT_TOOL_NAMES, "search_skills"]);
    });

    it("lists all five tools when both features are off, however many skills the shelf holds", async () => {
      expect(names(await toolsSeenWith({ query: { resources: "off", prompts: "off" } }))).toEqual([
        ...RESOURCE_TOOL_NAMES,
        ...PROMPT_TOOL_NAMES,
        "search_skills",
      ]);
    });

    it("answers list_resources with the full listing with ?skills=full", async () => {
      const full = await transport.connect(era, { query: { skills: "full", resources: "off" } });
      expect(JSON.parse(toolText(await full.callTool({ name: "list_resources", arguments: {} })))).toEqual(FULL_LISTING);
    });
  }
}
