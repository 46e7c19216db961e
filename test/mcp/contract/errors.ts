// The MCP contract, part 4 (§6 Errors): bad params are -32602 on every method the server owns — nothing a client
// sends may produce -32603 — and no error message leaks an absolute path or a stack trace.
import { expect, it } from "vitest";
import * as z from "zod";
import { rpcError } from "../../support/mcp.js";
import { REPO_ROOT } from "../../support/process.js";
import type { ContractLeg } from "../../support/contract.js";

const ANY = z.looseObject({});

/** Requests whose params break the method's schema: each must be refused as invalid params. */
const MALFORMED: readonly (readonly [string, Record<string, unknown>])[] = [
  ["resources/list", { cursor: 5 }],
  ["resources/templates/list", { cursor: 5 }],
  ["prompts/list", { cursor: 5 }],
  ["tools/list", { cursor: 5 }],
  ["resources/read", {}],
  ["resources/read", { uri: 5 }],
  ["prompts/get", {}],
  ["prompts/get", { name: "writing_summarize", arguments: { document: 5 } }],
  ["tools/call", {}],
  ["tools/call", { name: "list_resources", arguments: 5 }],
  ["skills/list", { cursor: 5 }],
  ["skills/get", {}],
  ["resources/directory/read", {}],
  ["resources/directory/read", { uri: "skill://engineering", cursor: 5 }],
];

export function errorsContract(leg: ContractLeg): void {
  it.each(MALFORMED)("refuses %s %j with -32602, never -32603", async (method, params) => {
    const error = await rpcError(leg.client.request({ method, params }, ANY));
    expect(error.code).toBe(-32602);
    expect(error.message).not.toContain(REPO_ROOT);
    expect(error.message).not.toMatch(/\n\s+at /);
  });

  it("names no absolute path in a not-found answer for a path-like address", async () => {
    const uri = `skill://engineering/${REPO_ROOT.replace(/^\/+/, "")}examples/engineering-kit/shared/style-guide.md`;
    const error = await rpcError(leg.client.readResource({ uri }));
    expect(error.code).toBe(-32602);
    expect(error.message.replace(uri, "")).not.toContain(REPO_ROOT.replace(/\/+$/, ""));
  });
}
