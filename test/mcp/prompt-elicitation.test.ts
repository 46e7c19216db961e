// A missing prompt argument asked for by form elicitation: on a 2026-07-28 connection whose client declared form
// elicitation, prompts/get without a required argument answers input_required with one form; the SDK client answers
// it through its elicitation handler and retries, and the answer is merged over the arguments given. Declining or
// cancelling, older protocol versions, clients without the capability and the get_prompt tool keep the -32602
// refusal. Over a real stdio child of the built CLI, the built CLI's HTTP server and the express app in process.
import { Client, type ClientOptions } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rpcError, toolText } from "../support/mcp.js";
import { ERA_2025, ERA_2026, httpChild, httpInProcess, stdioChild, type Era, type Transport } from "../support/transports.js";

type ElicitParams = { mode?: string; message: string; requestedSchema: unknown };
type Answer = { action: "accept"; content: Record<string, string> } | { action: "decline" } | { action: "cancel" };

const REFUSAL = "Missing required argument 'document' for prompt 'writing_summarize'";

const transports: readonly { name: string; make: () => Transport }[] = [
  { name: "stdio", make: stdioChild },
  { name: "http (CLI child)", make: () => httpChild() },
  { name: "http (in-process app)", make: () => httpInProcess() },
];

describe.each(transports)("$name", ({ make }) => {
  const transport = make();
  beforeAll(() => transport.start(), 60_000);
  afterAll(() => transport.stop());

  /** A client of `era` that declares form elicitation (or not) and answers every form with `answer`. */
  async function connect(era: Era, answer: Answer | null, capabilities: ClientOptions["capabilities"] = { elicitation: { form: {} } }) {
    const asked: ElicitParams[] = [];
    const client = (await transport.connect({ ...era, options: { ...era.options, capabilities } }, {})) as Client;
    if (answer !== null) {
      client.setRequestHandler("elicitation/create", (request) => {
        asked.push(request.params as ElicitParams);
        return answer;
      });
    }
    return { client, asked };
  }

  it("asks for the missing argument with one form and renders with the answer merged over the arguments", async () => {
    const { client, asked } = await connect(ERA_2026, { action: "accept", content: { document: "The release is out." } });
    const result = await client.getPrompt({ name: "writing_summarize", arguments: { audience: "support" } });
    expect(result).toMatchObject({
      description: "Summarise a document for a given audience",
      messages: [{ role: "user", content: { type: "text", text: "Summarise the following for support:\n\nThe release is out." } }],
    });
    expect(asked).toEqual([
      {
        mode: "form",
        message: "The writing_summarize prompt needs document.",
        requestedSchema: {
          type: "object",
          properties: { document: { type: "string", description: "The text to summarise" } },
          required: ["document"],
        },
      },
    ]);
  });

  it("uses only the arguments it asked for from the answer", async () => {
    const { client } = await connect(ERA_2026, { action: "accept", content: { document: "D", audience: "ignored", other: "x" } });
    const result = await client.getPrompt({ name: "writing_summarize", arguments: {} });
    expect(result.messages).toEqual([{ role: "user", content: { type: "text", text: "Summarise the following for engineers:\n\nD" } }]);
  });

  it.each([{ action: "decline" as const }, { action: "cancel" as const }])(
    "refuses with -32602 when the form is answered $action",
    async (answer) => {
      const { client, asked } = await connect(ERA_2026, answer);
      const error = await rpcError(client.getPrompt({ name: "writing_summarize", arguments: {} }));
      expect({ code: error.code, message: error.message }).toEqual({ code: -32602, message: REFUSAL });
      expect(asked).toHaveLength(1);
    },
  );

  it("refuses with -32602 when the accepted answer leaves the argument empty", async () => {
    const { client, asked } = await connect(ERA_2026, { action: "accept", content: { document: "" } });
    const error = await rpcError(client.getPrompt({ name: "writing_summarize", arguments: {} }));
    expect({ code: error.code, message: error.message }).toEqual({ code: -32602, message: REFUSAL });
    expect(asked).toHaveLength(1);
  });

  it("refuses with -32602, without asking, a client that did not declare elicitation", async () => {
    // The SDK client refuses to register an elicitation handler without the capability: nothing could answer.
    const { client, asked } = await connect(ERA_2026, null, {});
    const error = await rpcError(client.getPrompt({ name: "writing_summarize", arguments: {} }));
    expect({ code: error.code, message: error.message }).toEqual({ code: -32602, message: REFUSAL });
    expect(asked).toEqual([]);
  });

  it("refuses with -32602, without asking, a client that declared URL elicitation only", async () => {
    const { client, asked } = await connect(ERA_2026, { action: "accept", content: { document: "D" } }, { elicitation: { url: {} } });
    const error = await rpcError(client.getPrompt({ name: "writing_summarize", arguments: {} }));
    expect(error.code).toBe(-32602);
    expect(asked).toEqual([]);
  });

  it("refuses with -32602, without asking, on a 2025-11-25 connection", async () => {
    const { client, asked } = await connect(ERA_2025, { action: "accept", content: { document: "D" } });
    const error = await rpcError(client.getPrompt({ name: "writing_summarize", arguments: {} }));
    expect({ code: error.code, message: error.message }).toEqual({ code: -32602, message: REFUSAL });
    expect(asked).toEqual([]);
  });

  it("keeps the get_prompt tool's refusal", async () => {
    const { client, asked } = await connect(ERA_2026, { action: "accept", content: { document: "D" } });
    const result = (await client.callTool({ name: "get_prompt", arguments: { name: "writing_summarize", arguments: {} } })) as {
      isError?: boolean;
    };
    expect(result.isError).toBe(true);
    expect(toolText(result)).toContain("'document'");
    expect(asked).toEqual([]);
  });

  it("never asks for an unknown argument's sake: an unknown one is refused as before", async () => {
    const { client, asked } = await connect(ERA_2026, { action: "accept", content: { document: "D" } });
    const error = await rpcError(client.getPrompt({ name: "writing_summarize", arguments: { tone: "dry" } }));
    expect(error.code).toBe(-32602);
    expect(error.message).toContain("Unknown argument 'tone'");
    expect(asked).toEqual([]);
  });
});
