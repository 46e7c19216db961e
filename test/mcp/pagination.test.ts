// skills/list and resources/directory/read page a shelf of more than 100 skills; a cursor resumes after the last
// URI it saw, so a rebuild between two pages (a skill added or removed, through ShelfService.rebuild or
// POST /reindex) neither repeats nor skips a skill.
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeBigShelf, skillName, type BigShelf } from "../support/big-shelf.js";
import { listResourcesPage, listSkills, readDirectory } from "../support/mcp.js";
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

// The full listing (one row per skill) comes in pages of at most 32 KB of JSON, resumed from a cursor that holds
// the last row's place in the listing's order, so a rebuild between pages neither repeats nor skips a row.
const LISTED = 600;
const MAX_PAGE_BYTES = 32 * 1024;

describe.each(PAGING_LEGS)("the full listing in pages over $name", ({ era, make }) => {
  let shelf: BigShelf;
  let transport: Transport;
  let rebuild: () => Promise<void>;
  let client: Client;

  beforeAll(async () => {
    shelf = makeBigShelf(LISTED);
    ({ transport, rebuild } = make(shelf.config));
    await transport.start();
    client = await transport.connect(era, { query: { skills: "full" } });
  });
  afterAll(async () => {
    await transport.stop();
    shelf.dispose();
  });

  async function walk(): Promise<{ uris: string[]; pages: number }> {
    const uris: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await listResourcesPage(client, cursor);
      expect(Buffer.byteLength(JSON.stringify(page))).toBeLessThanOrEqual(MAX_PAGE_BYTES);
      uris.push(...page.resources.map((row) => row.uri));
      cursor = page.nextCursor;
      pages++;
    } while (cursor !== undefined);
    return { uris, pages };
  }

  it("walks the index row and then every skill once, in order, each page within 32 KB", async () => {
    const { uris, pages } = await walk();
    expect(pages).toBe(3);
    expect(uris).toEqual(["skill://big/_index.md", ...shelf.names().map((name) => shelf.uri(name))]);
  });

  it("a rebuild between two pages neither repeats nor skips what stayed", async () => {
    const before = shelf.names();
    const first = await listResourcesPage(client);
    const last = first.resources[first.resources.length - 1]?.uri as string;
    shelf.add("s001b"); // before the cursor: this walk has passed it
    shelf.add("s598b"); // after the cursor: this walk sees it
    await rebuild();
    const rest: string[] = [];
    let cursor = first.nextCursor;
    while (cursor !== undefined) {
      const page = await listResourcesPage(client, cursor);
      rest.push(...page.resources.map((row) => row.uri));
      cursor = page.nextCursor;
    }
    const walked = [...first.resources.map((row) => row.uri), ...rest];
    expect(walked).toEqual(["skill://big/_index.md", ...[...before, "s598b"].sort().map((name) => shelf.uri(name))]);
    expect(walked).toContain(last);
  });

  it("the list_resources tool pages the same listing and names the next cursor", async () => {
    const first = await client.callTool({ name: "list_resources", arguments: {} });
    const content = first.content as { type: string; text: string }[];
    expect(content).toHaveLength(2);
    expect(Buffer.byteLength(content[0]?.text as string)).toBeLessThanOrEqual(MAX_PAGE_BYTES);
    const rows = JSON.parse(content[0]?.text as string) as { uri: string }[];
    expect(rows[0]?.uri).toBe("skill://big/_index.md");
    const match = /^More rows follow: call list_resources with (\{"cursor": "[A-Za-z0-9_-]+"\})\.$/.exec(content[1]?.text as string);
    expect(match).not.toBeNull();
    const next = await client.callTool({ name: "list_resources", arguments: JSON.parse(match?.[1] as string) as Record<string, unknown> });
    const nextRows = JSON.parse((next.content as { text: string }[])[0]?.text as string) as { uri: string }[];
    expect((nextRows[0]?.uri as string) > (rows[rows.length - 1]?.uri as string)).toBe(true);
    const bad = await client.callTool({ name: "list_resources", arguments: { cursor: "not-one-of-ours" } });
    expect(bad.isError).toBe(true);
    expect((bad.content as { text: string }[])[0]?.text).toBe(
      "Invalid cursor: pass back the cursor of the previous page unchanged, or omit it for the first page.",
    );
  });
});
