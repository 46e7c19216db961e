// The soak against the built server: SOAK_CLIENTS concurrent clients for SOAK_SECONDS while skills are edited,
// added and removed every second and /reindex runs every two: 0 failed requests, 0 answers mixing two
// generations, 0 torn files, RSS flat. `npm test` runs a short one; `npm run soak` the full minute with 50 clients.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killStragglers, startHttpServer, type ServerProcess } from "../support/process.js";
import { runSoak, writeSkill } from "./soak-run.js";

const SECONDS = Number(process.env["SOAK_SECONDS"] ?? 4);
const CLIENTS = Number(process.env["SOAK_CLIENTS"] ?? 8);
const INITIAL = Array.from({ length: 20 }, (_, i) => `skill-${i}`);

afterAll(killStragglers);

describe("the soak", () => {
  let dir: string;
  let server: ServerProcess;
  let skillsDir: string;
  let scratchDir: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "skillshelf-soak-"));
    const plugin = path.join(dir, "plugin");
    skillsDir = path.join(plugin, "skills");
    scratchDir = path.join(dir, "scratch");
    mkdirSync(scratchDir, { recursive: true });
    for (const name of INITIAL) writeSkill(skillsDir, scratchDir, name, 1);
    const config = path.join(dir, "config.yaml");
    writeFileSync(config, `plugins:\n  - {name: kit, source: ${JSON.stringify(plugin)}}\nlibraries:\n  - {name: soak, plugins: [kit]}\n`);
    server = await startHttpServer(["--config", config, "--cache-dir", path.join(dir, "cache")]);
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it(
    `holds ${CLIENTS} clients for ${SECONDS} s of edits and reindexes without a failed or mixed answer`,
    async () => {
      const figures = await runSoak(
        {
          endpoint: server.url.href,
          origin: server.origin,
          library: "soak",
          skillsDir,
          scratchDir,
          serverPid: server.child.pid as number,
          clients: CLIENTS,
          seconds: SECONDS,
        },
        INITIAL,
      );
      const { failures, ...counts } = figures;
      console.log(`soak figures (${CLIENTS} clients, ${SECONDS} s): ${JSON.stringify(counts)}`);
      expect(failures).toEqual([]);
      expect(counts.failed).toBe(0);
      expect(counts.mixed).toBe(0);
      expect(counts.torn).toBe(0);
      expect(counts.edits).toBe(SECONDS);
      expect(counts.reindexes).toBeGreaterThan(0);
      expect(server.stderr()).not.toMatch(/^\s+at /m);
      // Flat: the last sample is within 64 MB of the highest of the first half (a leak grows past that in a minute).
      const half = counts.rssSamplesMb.slice(0, Math.ceil(counts.rssSamplesMb.length / 2));
      expect(counts.rssSamplesMb.at(-1) as number).toBeLessThan(Math.max(...half) + 64);
    },
    (SECONDS + 60) * 1000,
  );
});
