// The MCP contract, part 1: resources (§2, §4, §6) over every transport and era, against the example shelf.
import { expect, it } from "vitest";
import {
  ABSENT,
  DOCUMENTS,
  FULL_LISTING,
  HINTS,
  LISTING,
  NO_HINT_ADVICE,
  SKILLS,
  exampleFile,
  expectedManifest,
  filesOf,
  servedBytes,
  skillBase,
} from "../../support/example-shelf.js";
import { sha256 } from "../../support/digest.js";
import { bytesOf, readOne, rpcError } from "../../support/mcp.js";
import type { ContractLeg } from "../../support/contract.js";

const LOGS_SKILL = SKILLS.find((s) => s.uri === "skill://engineering/observability/logs/SKILL.md");
const STYLE_GUIDE = "examples/engineering-kit/shared/style-guide.md";

export function resourcesContract(leg: ContractLeg): void {
  const { era, transport } = leg;

  it(`negotiates ${era.version}`, () => {
    expect(leg.client.getNegotiatedProtocolVersion()).toBe(era.version);
  });

  it("declares resources with the template skill://{+path}", async () => {
    expect(leg.client.getServerCapabilities()?.resources).toEqual({ listChanged: true, subscribe: true });
    const { resourceTemplates } = await leg.client.listResourceTemplates(undefined, { cacheMode: "bypass" });
    expect(resourceTemplates.map((t) => [t.uriTemplate, t.mimeType])).toEqual([["skill://{+path}", "text/markdown"]]);
  });

  it("ends the server instructions with the listing rows", () => {
    const instructions = leg.client.getInstructions() ?? "";
    const tail = ["Start here:", ...LISTING.map((row) => `- ${row.uri}: ${row.description}`)].join("\n");
    expect(instructions.endsWith(`\n\n${tail}`)).toBe(true);
    // The grammar is taught before the rows.
    expect(instructions).toContain("_manifest");
    expect(instructions).toContain("_files.md");
  });

  it("lists the indexes, not the skills", async () => {
    const { resources } = await leg.client.listResources(undefined, { cacheMode: "bypass" });
    expect(resources).toEqual(LISTING);
  });

  it.each(Object.entries(DOCUMENTS))("serves %s exactly", async (uri, text) => {
    expect(await readOne(leg.client, uri)).toEqual({ uri, mimeType: "text/markdown", text });
  });

  it("reads every URI the listing, the indexes, _files.md and the manifests name", async () => {
    const seen = new Set<string>();
    const queue = (transport.settings ? FULL_LISTING : LISTING).map((row) => row.uri);
    while (queue.length > 0) {
      const uri = queue.shift() as string;
      if (seen.has(uri)) continue;
      seen.add(uri);
      const content = await readOne(leg.client, uri);
      expect(content.uri).toBe(uri);
      const text = content.text ?? "";
      if (uri.endsWith("/_index.md")) queue.push(...[...text.matchAll(/^(skill:\/\/\S+): /gm)].map((m) => m[1] as string));
      if (uri.endsWith("/_files.md")) queue.push(...[...text.matchAll(/^skill:\/\/\S+$/gm)].map((m) => m[0]));
      if (uri.endsWith("/SKILL.md")) queue.push(uri.replace(/SKILL\.md$/, "_manifest"));
      if (uri.endsWith("/_manifest")) {
        const base = uri.slice(0, -"_manifest".length);
        queue.push(...(JSON.parse(text) as { files: { path: string }[] }).files.map((f) => base + f.path));
      }
    }
    const expected = new Set<string>([
      ...Object.keys(DOCUMENTS),
      "skill://engineering/shared/style-guide.md",
      "skill://oncall/shared/style-guide.md",
      ...SKILLS.flatMap((s) => [`${skillBase(s)}/_manifest`, ...filesOf(s.dir).map((rel) => `${skillBase(s)}/${rel}`)]),
    ]);
    expect([...seen].sort()).toEqual([...expected].sort());
  });

  it.each(SKILLS)("serves $uri with placeholders replaced in the body and the frontmatter verbatim", async (skill) => {
    const content = await readOne(leg.client, skill.uri);
    const expected = servedBytes(skill, "SKILL.md").toString("utf8");
    expect(content).toEqual({ uri: skill.uri, mimeType: "text/markdown", text: expected });
    const raw = exampleFile(`${skill.dir}/SKILL.md`).toString("utf8");
    const frontmatterEnd = raw.indexOf("\n---\n") + 5;
    expect(content.text?.slice(0, frontmatterEnd)).toBe(raw.slice(0, frontmatterEnd));
    expect(content.text).not.toContain("${CLAUDE_");
  });

  it("replaces ${CLAUDE_PLUGIN_ROOT} and ${CLAUDE_SKILL_DIR} with the serving library's addresses", async () => {
    const engineering = await readOne(leg.client, "skill://engineering/code-review/SKILL.md");
    expect(engineering.text).toContain("3. Run `skill://engineering/code-review/scripts/lint.sh` on the changed files.\n");
    expect(engineering.text).toContain("4. Hold the change to the house style in skill://engineering/shared/style-guide.md.\n");
    const oncall = await readOne(leg.client, "skill://oncall/code-review/SKILL.md");
    expect(oncall.text).toContain("3. Run `skill://oncall/code-review/scripts/lint.sh` on the changed files.\n");
    expect(oncall.text).toContain("4. Hold the change to the house style in skill://oncall/shared/style-guide.md.\n");
  });

  it.each(SKILLS)("publishes a _manifest for $uri whose hashes are sha256 of what a read returns", async (skill) => {
    const base = skillBase(skill);
    const manifest = await readOne(leg.client, `${base}/_manifest`);
    expect(manifest.mimeType).toBe("application/json");
    const parsed = JSON.parse(manifest.text ?? "") as ReturnType<typeof expectedManifest>;
    expect(parsed).toEqual(expectedManifest(skill));
    for (const entry of parsed.files) {
      const bytes = bytesOf(await readOne(leg.client, `${base}/${entry.path}`));
      expect({ path: entry.path, size: bytes.length, hash: sha256(bytes) }).toEqual(entry);
    }
  });

  it.each(HINTS)("answers a read of the directory $uri with -32602, data.uri as sent and the hint", async ({ uri, message }) => {
    expect(await rpcError(leg.client.readResource({ uri }))).toEqual({ code: -32602, message, data: { uri } });
  });

  it.each(ABSENT)("answers %s with -32602 and advice to start from the listing", async (uri) => {
    expect(await rpcError(leg.client.readResource({ uri }))).toEqual({
      code: -32602,
      message: `Not found: ${uri}. ${NO_HINT_ADVICE}`,
      data: { uri },
    });
    expect(NO_HINT_ADVICE).not.toContain("_index.md");
  });

  it.each([
    "skill://engineering/code-review/../observability/logs/SKILL.md",
    "skill://engineering/code-review/%2e%2e/observability/logs/SKILL.md",
    "skill://engineering/code-review/%2E%2E/observability/./logs/SKILL.md",
    "skill://engineering/../../../observability/logs/SKILL.md",
    "skill://engineering//observability/logs/SKILL.md",
  ])("removes dot segments: %s reads logs' SKILL.md, answered under the URI as sent", async (uri) => {
    if (LOGS_SKILL === undefined) throw new Error("logs is an example skill");
    expect(await readOne(leg.client, uri)).toEqual({
      uri,
      mimeType: "text/markdown",
      text: servedBytes(LOGS_SKILL, "SKILL.md").toString("utf8"),
    });
  });

  it("falls back from a skill to its plugin root, without rewriting the address", async () => {
    const text = exampleFile(STYLE_GUIDE).toString("utf8");
    for (const uri of [
      "skill://engineering/code-review/shared/style-guide.md",
      "skill://oncall/observability/logs/shared/style-guide.md",
    ]) {
      expect(await readOne(leg.client, uri)).toEqual({ uri, mimeType: "text/markdown", text });
    }
    // The published library file is the same bytes.
    expect(await readOne(leg.client, "skill://engineering/shared/style-guide.md")).toEqual({
      uri: "skill://engineering/shared/style-guide.md",
      mimeType: "text/markdown",
      text,
    });
  });

  it("falls back from a library to its plugin roots for files no glob published, byte for byte", async () => {
    const uri = "skill://engineering/commands/review.md";
    // Not a SKILL.md: ${CLAUDE_PLUGIN_ROOT} stays as written.
    expect(await readOne(leg.client, uri)).toEqual({
      uri,
      mimeType: "text/markdown",
      text: exampleFile("examples/engineering-kit/commands/review.md").toString("utf8"),
    });
  });

  it("round-trips a binary file as a base64 blob", async () => {
    const uri = "skill://writing/release-notes/assets/logo.png";
    const content = await readOne(leg.client, uri);
    expect(content.text).toBeUndefined();
    expect({ uri: content.uri, mimeType: content.mimeType }).toEqual({ uri, mimeType: "image/png" });
    expect(Buffer.from(content.blob ?? "", "base64").equals(exampleFile("examples/writing-kit/skills/release-notes/assets/logo.png"))).toBe(
      true,
    );
  });

  it("serves a shell script as text with its usual media type", async () => {
    const uri = "skill://engineering/code-review/scripts/lint.sh";
    expect(await readOne(leg.client, uri)).toEqual({
      uri,
      mimeType: "application/x-sh",
      text: exampleFile("examples/engineering-kit/skills/code-review/scripts/lint.sh").toString("utf8"),
    });
  });

  it("answers resources/read without a uri with -32602, never -32603", async () => {
    const error = await rpcError(leg.client.request({ method: "resources/read", params: {} as { uri: string } }));
    expect(error.code).toBe(-32602);
  });

  if (era.modern) {
    it("stamps the configured ttlMs and a cacheScope on resources/list and resources/read", async () => {
      const expected = { ttlMs: transport.ttlMs, cacheScope: "public" };
      const list = (await leg.client.listResources(undefined, { cacheMode: "bypass" })) as { ttlMs?: unknown; cacheScope?: unknown };
      const read = (await leg.client.readResource({ uri: "skill://engineering/_index.md" }, { cacheMode: "bypass" })) as {
        ttlMs?: unknown;
        cacheScope?: unknown;
      };
      expect([list, read].map(({ ttlMs, cacheScope }) => ({ ttlMs, cacheScope }))).toEqual([expected, expected]);
    });
  }

  if (transport.settings) {
    it("appends one row per skill with ?skills=full", async () => {
      const full = await transport.connect(era, { query: { skills: "full" } });
      expect((await full.listResources(undefined, { cacheMode: "bypass" })).resources).toEqual(FULL_LISTING);
    });

    it("appends one row per skill with X-Skill-Listing: full", async () => {
      const full = await transport.connect(era, { headers: { "X-Skill-Listing": "full" } });
      expect((await full.listResources(undefined, { cacheMode: "bypass" })).resources).toEqual(FULL_LISTING);
    });

    it("lets the header win over the query parameter", async () => {
      const both = await transport.connect(era, { query: { skills: "full" }, headers: { "X-Skill-Listing": "index" } });
      expect((await both.listResources(undefined, { cacheMode: "bypass" })).resources).toEqual(LISTING);
    });
  }
}
