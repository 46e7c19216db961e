// How long the CLI takes to answer: `--version` and `help` (which load no server), and a stdio server on the bundled
// example shelf from spawn to its `initialize` answer — what every client session that starts a stdio server pays.
// Beside `node -e 0`, the floor of any Node program on this machine. Runs alternate (floor, version, help, stdio)
// so a load on the machine hits each alike; medians of `runs`.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { StdioRpc } from "../lib/stdio-client.mjs";
import { median } from "../lib/stats.mjs";

function timed(args, cwd) {
  const started = performance.now();
  const run = spawnSync(process.execPath, args, { cwd, stdio: ["ignore", "ignore", "pipe"], encoding: "utf8" });
  if (run.status !== 0) throw new Error(`${args.join(" ")} exited ${run.status}: ${run.stderr.slice(-300)}`);
  return performance.now() - started;
}

async function stdioInitializeMs(cli, projectRoot, cacheDir) {
  const config = path.join(projectRoot, "plugins.example.yaml");
  const started = performance.now();
  const rpc = new StdioRpc(process.execPath, [cli, "serve", "--transport", "stdio", "--config", config, "--cache-dir", cacheDir]);
  await rpc.initialize();
  const ms = performance.now() - started;
  await rpc.close();
  return ms;
}

/** `{floorMs, versionMs, helpMs, stdioInitializeMs, runs}`: medians. */
export async function runStartupSuite(ctx, { runs = 15 } = {}) {
  const cli = path.join(ctx.appRoot, "dist", "cli.js");
  const cacheDir = path.join(ctx.workDir, "startup-cache");
  const samples = { floor: [], version: [], help: [], stdio: [] };
  // One start first fills the example's harvest record, as any server after its first start has it.
  await stdioInitializeMs(cli, ctx.projectRoot, cacheDir);
  for (let i = 0; i < runs; i++) {
    samples.floor.push(timed(["-e", "0"], ctx.projectRoot));
    samples.version.push(timed([cli, "--version"], ctx.projectRoot));
    samples.help.push(timed([cli, "help"], ctx.projectRoot));
    samples.stdio.push(await stdioInitializeMs(cli, ctx.projectRoot, cacheDir));
  }
  const result = {
    runs,
    floorMs: median(samples.floor),
    versionMs: median(samples.version),
    helpMs: median(samples.help),
    stdioInitializeMs: median(samples.stdio),
  };
  ctx.log(
    `startup: node -e 0 ${result.floorMs.toFixed(0)} ms, --version ${result.versionMs.toFixed(0)} ms, help ${result.helpMs.toFixed(0)} ms, stdio initialize ${result.stdioInitializeMs.toFixed(0)} ms (medians of ${runs})`,
  );
  return result;
}
