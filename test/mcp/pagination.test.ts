// skills/list and resources/directory/read page a shelf of more than 100 skills; a cursor resumes after the last
// URI it saw, so a rebuild between two pages (a skill added or removed, through ShelfService.rebuild or
// POST /reindex) neither repeats nor skips a skill.
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeBigShelf, skillName, type BigShelf } from "../support/big-shelf.js";
import { listSkills, readDirectory } from "../support/mcp.js";
import { killStragglers } from "../support/process.js";
import { ERA_2025, ERA_2026, httpChild, httpInProcess, inMemory, type Era, type Transport } from "../support/transports.js";

const COUNT = 150;
const PAGE = 100;

interface PagingLeg {
  readonly name: string;
  readonly era: Era;
  readonly make: (config: string) => { transport: Transport; rebuild: () => Promise<void> };
}

async function postReindex(origin: string): Promise<void> {
  const response = await fetch(`${origin}/reindex`, { method: "POST" });
  expect(response.status).toBe(200);
}

const PAGING_LEGS: readonly PagingLeg[] = [
  ...[ERA_2025, ERA_2026].map((era) => ({
    name: `in-memory ${era.version} (ShelfService.rebuild)`,
    era,
    make: (config: string) => {
      const transport = inMemory(config);
      return { transport, rebuild: async () => void (await transport.service().rebuild()) };
    },
  })),
  {
    name: "http-app 2026-07-28 (POST /reindex)",
    era: ERA_2026,
    make: (config) => {
      const transport = httpInProcess(config);
      return { transport, rebuild: () => postReindex(transport.url().origin) };
    },
  },
  {
    name: "http-cli 2025-11-25 (POST /reindex)",
    era: ERA_2025,
    make: (config) => {
      const transport = httpChild(["--config", config]);
      return { transport, rebuild: () => postReindex(transport.server().origin) };
    },
  },
];

afterAll(killStragglers);

describe.each(PAGING_LEGS)("pagination over $name", ({ era, make }) => {
  let shelf: BigShelf;
  let transport: Transport;
  let rebuild: () => Promise<void>;
  let client: Client;

  beforeAll(async () => {
    shelf = makeBigShelf(COUNT);
    ({ transport, rebuild } = make(shelf.config));
    await transport.start();
    client = await transport.connect(era);
  });
  afterAll(async () => {
    await transport.stop();
    shelf.dispose();
  });

  const uris = (names: readonly string[]): string[] => names.map((name) => shelf.uri(name));

  it("chains pages of 100 through every skill once, in URI order", async () => {
    const first = await listSkills(client);
    expect(first.skills).toHaveLength(PAGE);
    expect(typeof first.nextCursor).toBe("string");
    const second = await listSkills(client, first.nextCursor);
    expect(second.nextCursor).toBeUndefined();
    expect([...first.skills, ...second.skills].map((s) => s.uri)).toEqual(uris(Array.from({ length: COUNT }, (_, i) => skillName(i))));
  });

  it("chains directory pages through every child of a library", async () => {
    const first = await readDirectory(client, "skill://big");
    expect(first.resources).toHaveLength(PAGE);
    const second = await readDirectory(client, "skill://big", first.nextCursor);
    expect(second.nextCursor).toBeUndefined();
    expect([...first.resources, ...second.resources].map((r) => r.uri)).toEqual(shelf.names().map((name) => `skill://big/${name}`));
  });

  it("neither repeats nor skips when skills are added between two pages", async () => {
    const before = shelf.names();
    const first = await listSkills(client);
    const last = first.skills[first.skills.length - 1]?.uri;
    expect(last).toBe(shelf.uri(skillName(PAGE - 1)));
    shelf.add("s050b"); // sorts before the cursor: a later listing has it, this walk has passed it
    shelf.add("s120b"); // sorts after the cursor: this walk must see it
    await rebuild();
    const second = await listSkills(client, first.nextCursor);
    const walked = [...first.skills, ...second.skills].map((s) => s.uri);
    expect(walked).toEqual(uris([...before, "s120b"].sort()));
    // The rebuild took effect: a fresh walk sees both.
    const fresh = await listSkills(client);
    expect(fresh.skills.map((s) => s.uri)).toContain(shelf.uri("s050b"));
  });

  it("resumes after the cursor's skill even when that skill was removed by the rebuild", async () => {
    const before = shelf.names();
    const first = await listSkills(client);
    const lastUri = first.skills[first.skills.length - 1]?.uri as string;
    const lastName = before.find((name) => shelf.uri(name) === lastUri) as string;
    shelf.remove(lastName);
    await rebuild();
    const second = await listSkills(client, first.nextCursor);
    expect(second.skills.map((s) => s.uri)).not.toContain(lastUri);
    expect([...first.skills, ...second.skills].map((s) => s.uri)).toEqual(uris(before));
  });
});
