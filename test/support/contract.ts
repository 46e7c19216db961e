// The set-up the MCP contract suites share: each leg of LEGS (a transport in one protocol era) is started once and
// one client connects in the leg's era; every suite then declares its tests against that leg. Starting a leg is a
// child process for the stdio and CLI legs, so the suites share it instead of each starting its own.
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe } from "vitest";
import { killStragglers } from "./process.js";
import { LEGS, type Era, type Transport } from "./transports.js";

export interface ContractLeg {
  readonly era: Era;
  /** The leg's transport, started before any test of the leg runs. */
  readonly transport: Transport;
  /** The client connected in the leg's era: read it inside a test or hook, never while declaring tests. */
  readonly client: Client;
}

/** One suite of the contract: declares its tests (and hooks) for one leg. */
export type ContractSuite = (leg: ContractLeg) => void;

/** For every leg of LEGS, a describe block named after the leg holding one describe block per suite, by its name. */
export function describeContract(suites: Readonly<Record<string, ContractSuite>>): void {
  afterAll(killStragglers);
  describe.each(LEGS)("over $name", ({ era, transport: makeTransport }) => {
    const transport = makeTransport();
    let connected: Client | undefined;
    beforeAll(async () => {
      await transport.start();
      connected = await transport.connect(era);
    });
    afterAll(() => transport.stop());
    const leg: ContractLeg = {
      era,
      transport,
      get client() {
        if (connected === undefined) throw new Error("the leg is not started yet: read the client inside a test");
        return connected;
      },
    };
    for (const [name, suite] of Object.entries(suites)) describe(name, () => suite(leg));
  });
}
