// Every shelf the tests build, read by the MCP SDK's host client with its default options: `SkillsClient.list()`
// refuses a whole listing over one entry its rules reject, and `read()` refuses a SKILL.md whose frontmatter its
// reader cannot read or that differs from the entry. Both must succeed for every skill served — on the example
// shelf, the lenient fixture, the page's fixture, a shelf of frontmatter hosts refuse as written (under lenient
// and strict naming), and the two real corpora zero-config.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { SkillsClient } from "@modelcontextprotocol/client/ext/skills";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { parse as parseYaml } from "yaml";
import { describe, expect, test } from "vitest";
import { type Config, configFromDirectories, loadConfig } from "../../src/config/index.js";
import { buildHealth } from "../../src/health/index.js";
import { ContentCache, ShelfReader, ShelfService } from "../../src/live/index.js";
import { buildMcpServer, DEFAULT_VIEW } from "../../src/mcp/index.js";
import { EXAMPLE_CONFIG, REPO_ROOT } from "../support/process.js";
import { tempDir } from "../support/temp.js";
import { writeWebShelf } from "../web/fixture.js";

const CORPORA = path.resolve(REPO_ROOT, "../shared/corpora");

/** Lists every skill of `config`'s shelf and reads each SKILL.md (and, unless `skillMdOnly`, every file) with the
 *  SDK's host client. Returns the listed URIs and the served frontmatter of each. */
async function hostRead(config: Config, skillMdOnly = false): Promise<Map<string, Record<string, unknown>>> {
  const service = await ShelfService.start(config, () => new Date(0));
  const deps = { shelf: new ShelfReader(service.holder, new ContentCache()), version: "test", ttlMs: 0 };
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const handle = serveStdio((ctx) => buildMcpServer(deps, DEFAULT_VIEW, ctx.era), { transport: serverSide });
  const client = new Client({ name: "host", version: "1" });
  await client.connect(clientSide);
  try {
    const skills = new SkillsClient(client);
    const listing = await skills.list();
    const read = new Map<string, Record<string, unknown>>();
    for (const skill of listing.skills) {
      const md = await skills.read(skill);
      read.set(skill.uri, md.frontmatter ?? {});
      if (skillMdOnly || skill.resources === "dynamic") continue;
      for (const resource of skill.resources) expect((await skills.read(skill, resource.uri)).verified).toBe(true);
    }
    expect(listing.invalid).toEqual([]);
    return read;
  } finally {
    await client.close();
    await handle.close();
    await service.close();
  }
}

/** A plugin whose skills' frontmatter the SDK's host client refuses as written, each for another reason. */
function writeRefusedShelf(): string {
  const root = tempDir("skillshelf-host-");
  const long = "Runs on hosts that have a shell. ".repeat(20).trim();
  const skills: Record<string, string> = {
    "metadata-list-of-maps": "metadata:\n  - author: kdense\n  - version: 2\n",
    "metadata-list": "metadata:\n  - one\n  - two\n",
    "metadata-number": "metadata: {version: 1.0, stable: true}\n",
    "compatibility-empty": "compatibility: ''\n",
    "compatibility-long": `compatibility: ${long}\n`,
    "compatibility-list": "compatibility: [claude-code, codex]\n",
    "quoted-lines": 'license: "MIT\n  or Apache-2.0"\n',
    anchor: "license: &l MIT\nnotice: *l\n",
  };
  for (const [name, extra] of Object.entries(skills)) {
    const dir = path.join(root, "kit", "skills", name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      path.join(dir, "SKILL.md"),
      `---\nname: ${name}\ndescription: A skill whose ${name} a host refuses.\n${extra}---\n# ${name}\n`,
    );
  }
  return path.join(root, "kit");
}

describe("the SDK's host client reads every skill served", () => {
  test("on the example shelf", async () => {
    expect((await hostRead(await loadConfig(EXAMPLE_CONFIG))).size).toBe(8);
  });

  test("on the lenient fixture", async () => {
    expect((await hostRead(await loadConfig(path.join(REPO_ROOT, "test/fixtures/lenient.yaml")))).size).toBeGreaterThan(0);
  });

  test("on the page's fixture", async () => {
    expect((await hostRead(await loadConfig(writeWebShelf().configPath))).size).toBe(4);
  });

  test("on frontmatter hosts refuse as written, normalised under lenient naming", async () => {
    const kit = writeRefusedShelf();
    const config = configFromDirectories([kit], REPO_ROOT, "lenient");
    if (!config.ok) throw new Error("zero-config refused");
    const read = await hostRead(config.config);
    const served = Object.fromEntries([...read].map(([uri, frontmatter]) => [uri.split("/").at(-2), frontmatter]));
    const about = (name: string) => ({ name, description: `A skill whose ${name} a host refuses.` });
    expect(served).toEqual({
      "metadata-list-of-maps": { ...about("metadata-list-of-maps"), metadata: { author: "kdense", version: "2" } },
      "metadata-list": about("metadata-list"),
      "metadata-number": { ...about("metadata-number"), metadata: { version: "1.0", stable: "true" } },
      "compatibility-empty": about("compatibility-empty"),
      "compatibility-long": { ...about("compatibility-long"), compatibility: expect.stringMatching(/^Runs on hosts/) },
      "compatibility-list": { ...about("compatibility-list"), compatibility: '["claude-code","codex"]' },
      "quoted-lines": { ...about("quoted-lines"), license: "MIT or Apache-2.0" },
      anchor: { ...about("anchor"), license: "MIT", notice: "MIT" },
    });
    expect([...(served["compatibility-long"]?.["compatibility"] as string)].length).toBeLessThanOrEqual(500);
  });

  test("on frontmatter hosts refuse as written, skipped with the reason under strict naming", async () => {
    const kit = writeRefusedShelf();
    const config = configFromDirectories([kit], REPO_ROOT, "strict");
    if (!config.ok) throw new Error("zero-config refused");
    expect((await hostRead(config.config)).size).toBe(0);
    const service = await ShelfService.start(config.config, () => new Date(0));
    const skipped = Object.values(buildHealth(service.holder.current).plugins).flatMap((plugin) => plugin.skipped ?? []);
    await service.close();
    expect(Object.fromEntries(skipped.map((row) => [row.path.split("/").at(-1), row.reason]))).toEqual({
      "metadata-list-of-maps": expect.stringContaining("(frontmatter metadata must map strings to strings)"),
      "metadata-list": expect.stringContaining("(frontmatter metadata must map strings to strings)"),
      "metadata-number": expect.stringContaining("(frontmatter metadata must map strings to strings)"),
      "compatibility-empty": expect.stringContaining("(frontmatter compatibility must be a string of 1-500 characters)"),
      "compatibility-long": expect.stringContaining("(frontmatter compatibility must be a string of 1-500 characters)"),
      "compatibility-list": expect.stringContaining("(frontmatter compatibility must be a string of 1-500 characters)"),
      "quoted-lines": expect.stringContaining("(line 4: a quoted value must close on the same line"),
      anchor: expect.stringContaining("(line 4: anchors, aliases and tags are not supported)"),
    });
  });

  describe.runIf(existsSync(CORPORA))("on the real corpora, zero-config", () => {
    test.each(["k-dense-scientific", "wshobson-agents"])(
      "%s",
      async (corpus) => {
        const config = configFromDirectories([path.join(CORPORA, corpus)], REPO_ROOT, "lenient");
        if (!config.ok) throw new Error("zero-config refused");
        const read = await hostRead(config.config, true);
        expect(read.size).toBeGreaterThan(50);
        // Every served frontmatter is what a YAML parser reads from it too.
        for (const frontmatter of read.values())
          expect(JSON.parse(JSON.stringify(frontmatter))).toEqual(parseYaml(JSON.stringify(frontmatter)));
      },
      120_000,
    );
  });
});
