// Live changes (§9, issue 8) through real processes: an author edits a skill and a connected client hears of it
// once, reads the new text, and hears nothing when nothing visible changed.
import { cpSync, existsSync, mkdtempSync, rmSync, utimesSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, afterEach, beforeEach, describe, expect, test } from "vitest";
import { assertBuilt, CLI, cleanEnv, REPO_ROOT, startHttpServer, type ServerProcess } from "../support/process.js";
import { until } from "../support/wait.js";

const EXAMPLES = path.join(REPO_ROOT, "examples");
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A private copy of the example shelf and its config, so edits never touch the repository. */
function copyShelf(): { dir: string; config: string } {
  const dir = mkdtempSync(path.join(tmpdir(), "skillshelf-live-"));
  dirs.push(dir);
  cpSync(EXAMPLES, path.join(dir, "examples"), { recursive: true });
  const config = path.join(dir, "skills.yaml");
  writeFileSync(
    config,
    [
      "plugins:",
      "  - name: eng-kit",
      "    source: ./examples/engineering-kit",
      '    files: ["shared/**"]',
      "  - name: writing-kit",
      "    source: ./examples/writing-kit",
      "libraries:",
      "  - name: engineering",
      "    plugins: [eng-kit]",
      "  - name: writing",
      "    plugins: [writing-kit]",
      "ttl: 0s",
      "",
    ].join("\n"),
  );
  return { dir, config };
}

const LOGS_MD = "examples/engineering-kit/skills/observability/logs/SKILL.md";
const LOGS_URI = "skill://engineering/observability/logs/SKILL.md";
const REVIEW_MD = "examples/engineering-kit/commands/review.md";
const SUMMARIZE_MD = "examples/writing-kit/prompts/summarize.md";
const NOTES_MD = "examples/writing-kit/skills/release-notes/SKILL.md";
/** At debug level the server logs every rebuild, one that changed nothing included. */
const DEBUG_ENV = { SKILLSHELF_LOG_LEVEL: "debug" };

/** How many rebuilds the server has logged: the first is the rescan once every root is watched. */
function rebuilds(stderr: string): number {
  return stderr.split("\n").filter((line) => line.includes("shelf rebuilt") || line.includes("rebuild changed nothing")).length;
}

/** Nothing-happened is proven by a later change that is heard: `write` makes a visible change whose notification
 *  `sentinel` is not otherwise expected; once it is heard, every notification sent before it was heard too. Answers
 *  what was heard before it. */
async function heardBefore(heard: string[], sentinel: string, write: () => void): Promise<string[]> {
  expect(heard).not.toContain(sentinel);
  write();
  await until(`the sentinel ${sentinel}`, () => heard.includes(sentinel));
  return heard.slice(0, heard.indexOf(sentinel));
}

/** A prompt whose description changes: announced as `prompts_changed` only. */
function editPrompt(dir: string, rel: string, description: string): void {
  writeFileSync(path.join(dir, rel), `---\ndescription: ${description}\n---\nDo $ARGUMENTS.\n`);
}

async function readText(client: Client, uri: string): Promise<string> {
  const result = await client.readResource({ uri }, { cacheMode: "bypass" });
  const content = result.contents[0];
  return content !== undefined && "text" in content ? content.text : "";
}

describe("over stdio, a 2025-era session", () => {
  let client: Client;
  let shelf: { dir: string; config: string };
  const heard: string[] = [];
  let stderr = "";

  beforeEach(async () => {
    assertBuilt();
    shelf = copyShelf();
    heard.length = 0;
    stderr = "";
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, "serve", "--transport", "stdio", "--config", shelf.config, "--cache-dir", path.join(shelf.dir, "cache")],
      env: cleanEnv(DEBUG_ENV),
      stderr: "pipe",
    });
    transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    client = new Client({ name: "live-test", version: "1" });
    client.setNotificationHandler("notifications/resources/list_changed", () => void heard.push("list_changed"));
    client.setNotificationHandler("notifications/resources/updated", (n) => void heard.push(`updated ${n.params.uri}`));
    client.setNotificationHandler("notifications/prompts/list_changed", () => void heard.push("prompts_changed"));
    await client.connect(transport);
    // Every directory is watched once the first rescan has been logged.
    await until("the first rescan", () => rebuilds(stderr) >= 1);
  });
  afterEach(async () => {
    await client.close();
  });

  test("editing a description announces the listing once, the subscribed URI once, and the new text reads back", async () => {
    await client.subscribeResource({ uri: LOGS_URI });
    const file = path.join(shelf.dir, LOGS_MD);
    writeFileSync(file, "---\nname: logs\ndescription: Query logs, newest first.\n---\n# Logs\n");
    await until("two notifications", () => heard.length >= 2);
    const before = await heardBefore(heard, "prompts_changed", () => editPrompt(shelf.dir, REVIEW_MD, "The sentinel"));
    expect([...before].sort()).toEqual(["list_changed", `updated ${LOGS_URI}`]);
    expect(await readText(client, LOGS_URI)).toBe("---\nname: logs\ndescription: Query logs, newest first.\n---\n# Logs\n");
    expect(await readText(client, "skill://engineering/observability/_index.md")).toContain(`${LOGS_URI}: Query logs, newest first.`);
  });

  test("adding a skill lists it in its folder index; deleting one makes it not found", async () => {
    const added = path.join(shelf.dir, "examples/engineering-kit/skills/observability/metrics");
    mkdirSync(added);
    writeFileSync(path.join(added, "SKILL.md"), "---\nname: metrics\ndescription: Read the dashboards.\n---\nBody\n");
    await until("the new skill in the folder index", async () =>
      (await readText(client, "skill://engineering/observability/_index.md")).includes(
        "skill://engineering/observability/metrics/SKILL.md: Read the dashboards.",
      ),
    );
    expect(heard).toContain("list_changed");

    heard.length = 0;
    rmSync(path.join(shelf.dir, "examples/engineering-kit/skills/observability/traces"), { recursive: true });
    await until("list_changed after the delete", () => heard.includes("list_changed"));
    await expect(client.readResource({ uri: "skill://engineering/observability/traces/SKILL.md" })).rejects.toMatchObject({ code: -32602 });
  });

  test("touching a file without changing it announces nothing", async () => {
    await client.subscribeResource({ uri: LOGS_URI });
    const file = path.join(shelf.dir, LOGS_MD);
    const later = new Date(Date.now() + 5000);
    const seen = rebuilds(stderr);
    utimesSync(file, later, later);
    // The touch was seen and rescanned; its rebuild ended before the sentinel's began.
    await until("the rescan of the touch", () => rebuilds(stderr) > seen);
    expect(stderr).toContain("rebuild changed nothing");
    expect(await heardBefore(heard, "prompts_changed", () => editPrompt(shelf.dir, REVIEW_MD, "The sentinel"))).toEqual([]);
  });

  test("a burst of 100 writes is a bounded, small number of notifications", async () => {
    await client.subscribeResource({ uri: LOGS_URI });
    const file = path.join(shelf.dir, LOGS_MD);
    for (let i = 0; i < 100; i++) {
      writeFileSync(file, `---\nname: logs\ndescription: Version ${i}.\n---\n# Logs\n`);
      // A turn of the event loop now and then, as an editor's saves would leave.
      if (i % 10 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    await until("the last version to read back", async () => (await readText(client, LOGS_URI)).includes("Version 99."));
    const before = await heardBefore(heard, "prompts_changed", () => editPrompt(shelf.dir, REVIEW_MD, "The sentinel"));
    const lists = before.filter((n) => n === "list_changed").length;
    expect(lists).toBeGreaterThanOrEqual(1);
    expect(lists).toBeLessThanOrEqual(4);
    expect(before.filter((n) => n.startsWith("updated")).length).toBe(lists);
  });

  test("changing a prompt announces the prompt list once", async () => {
    writeFileSync(
      path.join(shelf.dir, "examples/engineering-kit/commands/review.md"),
      "---\ndescription: Review carefully\n---\nReview $ARGUMENTS.\n",
    );
    await until("prompts_changed", () => heard.includes("prompts_changed"));
    const sentinel = (): void =>
      writeFileSync(path.join(shelf.dir, NOTES_MD), "---\nname: release-notes\ndescription: The sentinel.\n---\n");
    expect(await heardBefore(heard, "list_changed", sentinel)).toEqual(["prompts_changed"]);
    const prompts = await client.listPrompts(undefined, { cacheMode: "bypass" });
    expect(prompts.prompts.find((p) => p.name === "engineering_review")?.description).toBe("Review carefully");
  });
});

describe("a restart from the harvest record", () => {
  test("serves at once, then what changed while it was down is verified and read back", async () => {
    assertBuilt();
    const shelf = copyShelf();
    const args = [CLI, "serve", "--transport", "stdio", "--config", shelf.config, "--cache-dir", path.join(shelf.dir, "cache")];
    const connect = async (): Promise<Client> => {
      const client = new Client({ name: "restart-test", version: "1" });
      await client.connect(new StdioClientTransport({ command: process.execPath, args, env: cleanEnv(), stderr: "pipe" }));
      return client;
    };
    const first = await connect();
    const before = await readText(first, LOGS_URI);
    await first.close();
    await until("the harvest record", () => existsSync(path.join(shelf.dir, "cache", "harvest.json")));

    // While no server runs: a SKILL.md grows and a skill is added.
    writeFileSync(path.join(shelf.dir, LOGS_MD), `${before}More.\n`);
    const added = path.join(shelf.dir, "examples/engineering-kit/skills/observability/metrics");
    mkdirSync(added);
    writeFileSync(path.join(added, "SKILL.md"), "---\nname: metrics\ndescription: Read the dashboards.\n---\nBody\n");

    const client = await connect();
    try {
      // The grown file is never served as the recorded one: the read waits for the verifying rescan.
      expect(await readText(client, LOGS_URI)).toBe(`${before}More.\n`);
      await until("the added skill", async () =>
        (await readText(client, "skill://engineering/observability/_index.md")).includes(
          "skill://engineering/observability/metrics/SKILL.md",
        ),
      );
    } finally {
      await client.close();
    }
  });
});

describe("over HTTP, a 2026-07-28 client on subscriptions/listen", () => {
  let server: ServerProcess;
  let shelf: { dir: string; config: string };

  beforeEach(async () => {
    shelf = copyShelf();
    server = await startHttpServer(["--config", shelf.config, "--cache-dir", path.join(shelf.dir, "cache")], { env: DEBUG_ENV });
  });
  afterEach(async () => {
    await server.stop();
  });

  test("an edit reaches the listen stream once per kind, and a touch sends nothing", async () => {
    const client = new Client({ name: "live-http", version: "1" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
    const heard: string[] = [];
    client.setNotificationHandler("notifications/resources/list_changed", () => void heard.push("list_changed"));
    client.setNotificationHandler("notifications/resources/updated", (n) => void heard.push(`updated ${n.params.uri}`));
    client.setNotificationHandler("notifications/prompts/list_changed", () => void heard.push("prompts_changed"));
    await client.connect(new StreamableHTTPClientTransport(server.url));
    const listen = await client.listen({ resourcesListChanged: true, promptsListChanged: true, resourceSubscriptions: [LOGS_URI] });
    await until("the first rescan", () => rebuilds(server.stderr()) >= 1);

    const file = path.join(shelf.dir, LOGS_MD);
    const later = new Date(Date.now() + 5000);
    const seen = rebuilds(server.stderr());
    utimesSync(file, later, later);
    await until("the rescan of the touch", () => rebuilds(server.stderr()) > seen);
    expect(server.stderr()).toContain("rebuild changed nothing");
    expect(heard).toEqual([]);
    // Nothing visible changed, so the shelf was not even swapped: the generation stays.
    const health = (await (await fetch(`${server.origin}/health`)).json()) as { generation: number };
    expect(health.generation).toBe(1);

    writeFileSync(file, "---\nname: logs\ndescription: Over HTTP.\n---\n# Logs\n");
    await until("two notifications", () => heard.length >= 2);
    // The touch before and the edit each announced exactly this, no more.
    const before = await heardBefore(heard, "prompts_changed", () => editPrompt(shelf.dir, REVIEW_MD, "The sentinel"));
    expect([...before].sort()).toEqual(["list_changed", `updated ${LOGS_URI}`]);
    expect(await readText(client, LOGS_URI)).toContain("description: Over HTTP.");
    await listen.close();
    await client.close();
  });

  test("a stream hears only what changed in its scope, even for an address outside it that it subscribed to", async () => {
    const listener = async (url: URL, heard: string[]): Promise<{ close(): Promise<void> }> => {
      const client = new Client({ name: "scoped", version: "1" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
      client.setNotificationHandler("notifications/resources/list_changed", () => void heard.push("list_changed"));
      client.setNotificationHandler("notifications/resources/updated", (n) => void heard.push(`updated ${n.params.uri}`));
      client.setNotificationHandler("notifications/prompts/list_changed", () => void heard.push("prompts_changed"));
      await client.connect(new StreamableHTTPClientTransport(url));
      const listen = await client.listen({ resourcesListChanged: true, promptsListChanged: true, resourceSubscriptions: [LOGS_URI] });
      return { close: async () => (await listen.close(), await client.close()) };
    };
    const writingOnly: string[] = [];
    const everything: string[] = [];
    const alsoWriting: string[] = [];
    const listeners = [
      await listener(new URL(`${server.url}?library=writing`), writingOnly),
      await listener(server.url, everything),
      await listener(new URL(`${server.url}?library=writing`), alsoWriting),
    ];
    await until("the first rescan", () => rebuilds(server.stderr()) >= 1);

    writeFileSync(path.join(shelf.dir, LOGS_MD), "---\nname: logs\ndescription: Outside the writing scope.\n---\n# Logs\n");
    await until("the unnarrowed stream", () => everything.length >= 2);
    expect([...everything].sort()).toEqual(["list_changed", `updated ${LOGS_URI}`]);
    expect(writingOnly).toEqual([]);
    expect(alsoWriting).toEqual([]);

    const notes = path.join(shelf.dir, NOTES_MD);
    writeFileSync(notes, "---\nname: release-notes\ndescription: Inside the writing scope.\n---\n# Notes\n");
    await until("both writing streams", () => writingOnly.length >= 1 && alsoWriting.length >= 1);
    // A prompt of the writing kit is in every scope here: once each stream heard it, each heard all before it.
    editPrompt(shelf.dir, SUMMARIZE_MD, "The sentinel");
    await until("the sentinel on every stream", () =>
      [writingOnly, everything, alsoWriting].every((heard) => heard.includes("prompts_changed")),
    );
    expect(writingOnly).toEqual(["list_changed", "prompts_changed"]);
    expect(alsoWriting).toEqual(["list_changed", "prompts_changed"]);
    expect([...everything.slice(0, 2)].sort()).toEqual(["list_changed", `updated ${LOGS_URI}`]);
    expect(everything.slice(2)).toEqual(["list_changed", "prompts_changed"]);
    for (const open of listeners) await open.close();
  });

  test("a deleted root is degraded on /health while the rest keeps serving", async () => {
    rmSync(path.join(shelf.dir, "examples/writing-kit"), { recursive: true });
    await until("a degraded fetch", async () => {
      const health = (await (await fetch(`${server.origin}/health`)).json()) as {
        status: string;
        fetches: Record<string, { watch?: string }>;
      };
      return health.status === "degraded" && health.fetches["./examples/writing-kit"]?.watch === "degraded";
    });
    const client = new Client({ name: "after-delete", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(server.url));
    expect(await readText(client, "skill://engineering/code-review/SKILL.md")).toContain("name: code-review");
    await client.close();
  });
});
