// The config is read again while serving: SIGHUP, POST /reindex and an edit of the file itself. A config that does
// not load keeps the current shelf serving and is shown on /health with its file, line and JSON path.
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { killStragglers, startHttpServer, type ServerProcess } from "../support/process.js";
import { tempDir } from "../support/temp.js";

afterAll(killStragglers);

const base = tempDir("skillshelf-reload-");
const configFile = path.join(base, "config", "skillshelf.yaml");

function write(rel: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(base, rel)), { recursive: true });
  fs.writeFileSync(path.join(base, rel), text);
}

const skill = (name: string): string => `---\nname: ${name}\ndescription: Use ${name}.\n---\n# ${name}\n`;
const ONE = "plugins:\n  - {name: alpha, source: ../alpha}\nlibraries:\n  - {name: one, plugins: [alpha]}\n";
const TWO = `${ONE.replace("libraries:", "  - {name: beta, source: ../beta}\nlibraries:")}  - {name: two, plugins: [beta]}\n`;

write("alpha/skills/a-skill/SKILL.md", skill("a-skill"));
write("beta/skills/b-skill/SKILL.md", skill("b-skill"));

async function libraries(server: ServerProcess): Promise<string[]> {
  const health = (await (await fetch(`${server.origin}/health`)).json()) as { libraries: Record<string, unknown> };
  return Object.keys(health.libraries).sort();
}

async function until(check: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("reading the config again while serving", () => {
  test("SIGHUP serves a library added to the file; a broken file keeps the shelf and shows on /health; POST /reindex reads it too", async () => {
    write("config/skillshelf.yaml", ONE);
    const server = await startHttpServer(["--config", configFile, "--cache-dir", tempDir("skillshelf-reload-cache-")]);
    try {
      expect(await libraries(server)).toEqual(["one"]);

      // The file watch would notice too; SIGHUP asks at once.
      write("config/skillshelf.yaml", TWO);
      server.child.kill("SIGHUP");
      await until(async () => (await libraries(server)).length === 2);
      expect(await libraries(server)).toEqual(["one", "two"]);
      await until(async () => /info config reloaded/.test(server.stderr()));

      // A broken config: the shelf keeps serving, the error is on /health with its line and JSON path.
      write("config/skillshelf.yaml", `${TWO}  - {name: three}\n`);
      const reindexed = await fetch(`${server.origin}/reindex`, { method: "POST" });
      expect(reindexed.status).toBe(200);
      const health = (await (await fetch(`${server.origin}/health`)).json()) as {
        libraries: Record<string, unknown>;
        config?: { errors: { path: string; line?: number; rule: string }[] };
      };
      expect(Object.keys(health.libraries).sort()).toEqual(["one", "two"]);
      expect(health.config?.errors).toEqual([
        expect.objectContaining({ path: "/libraries/2", line: 7, rule: expect.stringContaining("a library needs at least one of") }),
      ]);
      await until(async () => /error config not reloaded: the current shelf keeps serving/.test(server.stderr()));

      // Mended and edited in place: the file's own watch reloads it, and the error is gone.
      write("config/skillshelf.yaml", ONE);
      await until(async () => (await libraries(server)).length === 1);
      const mended = (await (await fetch(`${server.origin}/health`)).json()) as { config?: unknown };
      expect(mended.config).toBeUndefined();
    } finally {
      await server.stop();
    }
  });
});
