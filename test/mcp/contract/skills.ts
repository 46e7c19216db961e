// The MCP contract, part 3: the Skills extension (SEP-2640, §6) — skills/list, skills/get and
// resources/directory/read — over every transport and era, with the SDK's SkillsClient as a second opinion.
import { SkillsClient } from "@modelcontextprotocol/client/ext/skills";
import { beforeAll, expect, it } from "vitest";
import { sha256 } from "../../support/digest.js";
import { DIRECTORIES, SKILLS, expectedEntry, parseFrontmatter } from "../../support/example-shelf.js";
import { bytesOf, getSkill, listSkills, readDirectory, readOne, rpcError, type WireSkillEntry } from "../../support/mcp.js";
import type { ContractLeg } from "../../support/contract.js";

/** An entry as the wire carries it, without loose extras the schema let through. */
const entryOf = (entry: WireSkillEntry): unknown => ({ uri: entry.uri, frontmatter: entry.frontmatter, resources: entry.resources });

export function skillsContract(leg: ContractLeg): void {
  const { era, transport } = leg;
  let listed: WireSkillEntry[] = [];

  beforeAll(async () => {
    listed = (await listSkills(leg.client)).skills;
  });

  it("declares io.modelcontextprotocol/skills with directoryRead, whatever the client declared", () => {
    expect(leg.client.getServerCapabilities()?.extensions).toEqual({ "io.modelcontextprotocol/skills": { directoryRead: true } });
  });

  it("lists every skill once, sorted by URI, each entry exactly {uri, frontmatter, resources}", async () => {
    const page = await listSkills(leg.client);
    expect(page.nextCursor).toBeUndefined();
    expect(page.skills.map(entryOf)).toEqual(SKILLS.map(expectedEntry));
  });

  it.each(SKILLS)("answers skills/get $uri with its skills/list entry", async ({ uri }) => {
    const got = await getSkill(leg.client, uri);
    expect(entryOf(got.skill)).toEqual(entryOf(listed.find((entry) => entry.uri === uri) as WireSkillEntry));
  });

  it.each(SKILLS)("reads back every resource of $uri with the promised digest and size", async ({ uri }) => {
    const entry = listed.find((e) => e.uri === uri) as WireSkillEntry;
    for (const resource of entry.resources) {
      const bytes = bytesOf(await readOne(leg.client, resource.uri));
      expect({ uri: resource.uri, digest: sha256(bytes), size: bytes.length }).toEqual({
        uri: resource.uri,
        digest: resource.digest,
        size: resource.size,
      });
    }
  });

  it.each(SKILLS)("publishes for $uri the frontmatter a fresh parse of the served SKILL.md gives", async ({ uri }) => {
    const entry = listed.find((e) => e.uri === uri) as WireSkillEntry;
    expect(entry.frontmatter).toEqual(parseFrontmatter((await readOne(leg.client, uri)).text ?? ""));
  });

  it("verifies under the SDK's SkillsClient: list, get, every file read and directory", async () => {
    const skills = new SkillsClient(leg.client);
    expect({ supported: skills.supported, directoryRead: skills.directoryRead }).toEqual({ supported: true, directoryRead: true });
    const listing = await skills.list();
    expect(listing.skills.map((s) => s.uri)).toEqual(SKILLS.map((s) => s.uri));
    for (const skill of listing.skills) {
      expect((await skills.get(skill.uri)).skill.uri).toBe(skill.uri);
      if (skill.resources === "dynamic") throw new Error(`${skill.uri} must list its resources`);
      for (const resource of skill.resources) {
        const file = await skills.read(skill, resource.uri, { cacheMode: "bypass" });
        expect({ uri: file.uri, verified: file.verified, size: file.bytes.length }).toEqual({
          uri: resource.uri,
          verified: true,
          size: resource.size,
        });
      }
    }
    const dir = await skills.readDirectory("skill://engineering/code-review");
    expect(dir.resources.map((r) => r.uri)).toEqual((DIRECTORIES["skill://engineering/code-review"] ?? []).map((r) => r.uri));
  });

  it.each(["!!!", Buffer.from("garbage", "utf8").toString("base64url"), Buffer.from("after:", "utf8").toString("base64url")])(
    "refuses the malformed cursor %s with -32602",
    async (cursor) => {
      expect((await rpcError(listSkills(leg.client, cursor))).code).toBe(-32602);
      expect((await rpcError(readDirectory(leg.client, "skill://engineering", cursor))).code).toBe(-32602);
    },
  );

  it.each([
    ["a supporting file", "skill://engineering/code-review/references/checklist.md"],
    ["a skill root", "skill://engineering/code-review"],
    ["a skill's _manifest", "skill://engineering/code-review/_manifest"],
    ["a folder index", "skill://engineering/observability/_index.md"],
    ["a library", "skill://engineering"],
    ["an absent skill", "skill://engineering/nope/SKILL.md"],
    ["a skipped skill", "skill://writing/Bad_Name/SKILL.md"],
    ["garbage", "not a uri"],
  ])("refuses skills/get of %s with -32602 and data.uri as sent", async (_what, uri) => {
    const error = await rpcError(getSkill(leg.client, uri));
    expect({ code: error.code, data: error.data }).toEqual({ code: -32602, data: { uri } });
  });

  it.each(Object.entries(DIRECTORIES))("answers resources/directory/read %s with its direct children", async (uri, entries) => {
    const page = await readDirectory(leg.client, uri);
    expect(page.nextCursor).toBeUndefined();
    expect(page.resources).toEqual(entries);
  });

  it("gives every file of a directory read the size and media type a read returns", async () => {
    for (const entries of Object.values(DIRECTORIES)) {
      for (const entry of entries) {
        if (entry.mimeType === "inode/directory") continue;
        const content = await readOne(leg.client, entry.uri);
        expect({ mimeType: content.mimeType, size: bytesOf(content).length }).toEqual({ mimeType: entry.mimeType, size: entry.size });
      }
    }
  });

  it.each([
    ["a file", "skill://engineering/code-review/SKILL.md"],
    ["a generated document", "skill://engineering/_index.md"],
    ["an unknown directory", "skill://engineering/nope"],
    ["an unknown library", "skill://nope"],
    ["garbage", "not a uri"],
  ])("refuses resources/directory/read of %s with -32602 and data.uri as sent", async (_what, uri) => {
    const error = await rpcError(readDirectory(leg.client, uri));
    expect({ code: error.code, data: error.data }).toEqual({ code: -32602, data: { uri } });
  });

  if (era.modern) {
    it("stamps ttlMs and cacheScope on all three extension results", async () => {
      const expected = { ttlMs: transport.ttlMs, cacheScope: "public" };
      const list = await listSkills(leg.client);
      const get = await getSkill(leg.client, "skill://writing/release-notes/SKILL.md");
      const dir = await readDirectory(leg.client, "skill://writing/release-notes");
      expect([list, get, dir].map(({ ttlMs, cacheScope }) => ({ ttlMs, cacheScope }))).toEqual([expected, expected, expected]);
    });
  }
}
