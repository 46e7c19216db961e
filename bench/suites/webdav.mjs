// A WebDAV share of N files (10,000; 1,000 with --quick) served by webdav-server on loopback, behind Basic auth:
// the first listing and export, an unchanged listing (nothing downloaded), one edited file (one download), a
// restart on the same cache directory, and the same with a server that refuses depth infinity (a walk). The built
// code runs in this process and the server in another: `client CPU` is this process's CPU time for the step (the
// listing's parse, the downloads' writes, the harvest and the build), the rest of the wall time is the server's.
import fs from "node:fs";
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const SHARE_SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "webdav-share.mjs");

const FILES_PER_SKILL = 4;
const PASSWORD = "bench-FAKE-password";

/** `kit/skills/s-00042/{SKILL.md, references/a.md, references/b.md, scripts/run.sh}`, about 1-3 KB each. */
function generateShare(root, files) {
  const skills = Math.ceil(files / FILES_PER_SKILL);
  for (let i = 0; i < skills; i++) {
    const name = `s-${String(i).padStart(5, "0")}`;
    const dir = path.join(root, "kit", "skills", name);
    fs.mkdirSync(path.join(dir, "references"), { recursive: true });
    fs.mkdirSync(path.join(dir, "scripts"), { recursive: true });
    const body = `Skill ${i}. `.repeat(80);
    fs.writeFileSync(path.join(dir, "SKILL.md"), `---\nname: ${name}\ndescription: Synthetic skill ${i} on a share.\n---\n${body}\n`);
    fs.writeFileSync(path.join(dir, "references", "a.md"), `# A ${i}\n${body}`);
    fs.writeFileSync(path.join(dir, "references", "b.md"), `# B ${i}\n${body}${body}`);
    fs.writeFileSync(path.join(dir, "scripts", "run.sh"), `#!/bin/sh\necho ${i}\n`);
  }
  return skills * FILES_PER_SKILL;
}

/** The server in a child process (bench/webdav-share.mjs), so the time this process spends is the client's. */
async function startShare(root, infinity) {
  const child = spawn(process.execPath, [SHARE_SCRIPT, root, "bench", PASSWORD, infinity ? "infinity" : "walk"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const origin = await new Promise((resolve, reject) => {
    let text = "";
    child.stdout.on("data", (chunk) => {
      text += chunk;
      if (text.includes("\n")) resolve(text.trim());
    });
    child.on("exit", (code) => reject(new Error(`the WebDAV server exited (${code})`)));
  });
  return {
    origin,
    counts: async () => (await fetch(`${origin}/.bench-counts`)).json(),
    close: () => new Promise((resolve) => (child.once("exit", resolve), child.kill("SIGTERM"))),
  };
}

export async function runWebdavSuite(ctx) {
  const { appRoot, workDir, log, options } = ctx;
  const files = options.n >= 10000 ? 10000 : 1000;
  const { ShelfService, parseConfig, buildHealth } = await import(pathToFileURL(path.join(appRoot, "dist", "index.js")).href);
  const root = path.join(workDir, "webdav-share");
  const written = generateShare(root, files);
  const out = { files: written, rows: [] };
  for (const infinity of [true, false]) {
    const share = await startShare(root, infinity);
    try {
      await measureShare(share, infinity);
    } finally {
      // Also when a build refuses the config (a baseline older than WebDAV sources): no share outlives the section.
      await share.close();
    }
  }
  fs.rmSync(root, { recursive: true, force: true });
  return out;

  async function measureShare(share, infinity) {
    const mode = infinity ? "depth infinity" : "walk (depth 1)";
    log(`webdav: ${written} files, ${mode}`);
    const yaml = `sources:\n  - name: share\n    url: webdav+${share.origin}\n    auth: {username: bench, password: {env: BENCH_DAV_PASSWORD}}\nplugins:\n  - {name: kit, source: "share://kit"}\nlibraries:\n  - {name: kit, plugins: [kit]}\n`;
    const parsed = parseConfig(yaml, "bench-webdav.yaml", workDir);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    const cacheDir = fs.mkdtempSync(path.join(workDir, "webdav-cache-"));
    const serviceOptions = { cacheDir, env: { BENCH_DAV_PASSWORD: PASSWORD }, exportGraceMs: 0 };
    const step = async (name, run) => {
      const before = await share.counts();
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      const service = await run();
      const ms = performance.now() - t0;
      const cpu = process.cpuUsage(cpu0);
      const after = await share.counts();
      const row = {
        mode,
        step: name,
        ms,
        cpuMs: (cpu.user + cpu.system) / 1000,
        gets: after.gets - before.gets,
        propfinds: after.propfinds - before.propfinds,
        skills: buildHealth(service.current).skills,
      };
      out.rows.push(row);
      log(
        `webdav: ${mode}, ${name}: ${ms.toFixed(0)} ms (client CPU ${row.cpuMs.toFixed(0)} ms), ${row.gets} GETs, ${row.propfinds} PROPFINDs`,
      );
      return service;
    };
    const first = await step("first listing and export", () => ShelfService.start(parsed.config, () => new Date(), serviceOptions));
    await step("unchanged listing (refresh)", async () => (await first.refresh(), first));
    const edited = path.join(root, "kit", "skills", "s-00007", "references", "a.md");
    fs.appendFileSync(edited, `edited ${Date.now()}\n`);
    fs.utimesSync(edited, new Date(), new Date(Date.now() + 5000));
    await step("one file edited (refresh)", async () => (await first.refresh(), first));
    await first.close();
    const again = await step("restart on the same cache", () => ShelfService.start(parsed.config, () => new Date(), serviceOptions));
    await again.close();
    fs.rmSync(cacheDir, { recursive: true, force: true });
  }
}
